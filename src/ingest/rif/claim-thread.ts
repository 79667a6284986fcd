/**
 * A claim file read in a worker thread: its lines parsed and checked, gathered into claims, and each claim's
 * search facts, name keys and stored cells prepared (claim-prepare.ts), while the load's thread writes the
 * batches before. What crosses is plain data: prepared batches out with the lines read, the bytes consumed
 * and the lines refused since the last one; an acknowledgement in, so that the thread stays at most a few
 * batches ahead. The load's transaction, its counts and its refusals stay on the load's thread.
 */
import { parentPort, workerData, type Worker } from 'node:worker_threads';
import { startWorker } from '../../shared/worker-boot.js';
import type { KindLoad } from '../engine/kind.js';
import { IngestError } from '../engine/report.js';
import { prepareBatch, type PreparedBatch } from './claim-prepare.js';
import { readRifBatches } from './records.js';

/** What the thread reports, in order. */
type ThreadMessage =
  | {
      kind: 'batch';
      reads: number;
      bytes: number;
      rejects: [file: string, line: number, reason: string][];
      batch?: PreparedBatch;
    }
  | { kind: 'done'; reads: number; bytes: number; rejects: [string, number, string][] }
  | { kind: 'error'; message: string; ingest: boolean };

/** How many batches the thread may send before the load's thread has stored the first of them. */
const AHEAD = 4;

/**
 * Reads the claim file `file` in a worker thread, calling `store` with each prepared batch in file order
 * (the next is prepared meanwhile), and reporting reads, progress and refusals to `load` in the order they
 * happened. Fails as the file's reading fails (an IngestError stays one).
 */
export async function readClaimFileInThread(
  file: string,
  load: KindLoad,
  store: (batch: PreparedBatch) => Promise<void>,
): Promise<void> {
  const worker: Worker = startWorker(import.meta.url, 'serveClaimFile', {
    execArgv: [],
    workerData: { file },
  });
  const queue: ThreadMessage[] = [];
  let wake: (() => void) | undefined;
  let failed: Error | undefined;
  worker.on('message', (message: ThreadMessage) => {
    queue.push(message);
    wake?.();
  });
  worker.on('error', (error) => {
    failed ??= error;
    wake?.();
  });
  worker.on('exit', () => {
    failed ??= new Error('the thread reading the claim file stopped');
    wake?.();
  });
  const next = async (): Promise<ThreadMessage> => {
    while (queue.length === 0) {
      if (failed) throw failed;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    return queue.shift()!;
  };
  const report = (message: { reads: number; bytes: number; rejects: [string, number, string][] }) => {
    if (message.reads > 0) load.read(message.reads);
    if (message.bytes > 0) load.progress(message.bytes);
    for (const [name, line, reason] of message.rejects) load.reject(name, line, reason);
  };
  try {
    for (;;) {
      const message = await next();
      if (message.kind === 'error') {
        throw message.ingest ? new IngestError(message.message) : new Error(message.message);
      }
      report(message);
      if (message.kind === 'done') return;
      if (message.batch) await store(message.batch);
      worker.postMessage('ack');
    }
  } finally {
    await worker.terminate();
  }
}

/** The worker's side: reads the file of `workerData`, posting each prepared batch. */
export async function serveClaimFile(): Promise<void> {
  const port = parentPort!;
  const { file } = workerData as { file: string };
  let reads = 0;
  let bytes = 0;
  let rejects: [string, number, string][] = [];
  let credit = AHEAD;
  let resume: (() => void) | undefined;
  port.on('message', () => {
    credit += 1;
    resume?.();
  });
  const load = {
    read: (records = 1) => void (reads += records),
    progress: (n: number) => void (bytes += n),
    reject: (name: string, line: number, reason: string) => void rejects.push([name, line, reason]),
    failure: (message: string) => new IngestError(message),
  } as unknown as KindLoad;
  const counts = () => {
    const taken = { reads, bytes, rejects };
    reads = 0;
    bytes = 0;
    rejects = [];
    return taken;
  };
  try {
    for await (const batch of readRifBatches(file, load)) {
      const prepared = prepareBatch(batch);
      while (credit === 0) await new Promise<void>((resolve) => (resume = resolve));
      credit -= 1;
      port.postMessage({ kind: 'batch', ...counts(), batch: prepared } satisfies ThreadMessage);
    }
    port.postMessage({ kind: 'done', ...counts() } satisfies ThreadMessage);
  } catch (error) {
    port.postMessage({
      kind: 'error',
      message: error instanceof Error ? error.message : String(error),
      ingest: error instanceof IngestError,
    } satisfies ThreadMessage);
  }
}
