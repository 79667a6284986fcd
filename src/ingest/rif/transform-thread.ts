/**
 * Claims made into resources in a worker thread: building and serialising an ExplanationOfBenefit costs
 * more than reading its lines and storing it (BFD's EOBs run to tens of kilobytes), so a worker does it
 * while the load's thread reads the next batch and stores the previous one. What crosses is plain data:
 * the batch's claims, the stored versions of their ids and the NPPES records of their NPIs in, stamped rows
 * out. The load's transaction, its checks and its reports stay on the load's thread.
 */
import { parentPort, Worker } from 'node:worker_threads';
import type { NpiRecord } from '../../fhir/bfd/lookups.js';
import { claimResources, type ClaimJob, type ClaimResult } from './claim-resources.js';
import { lookupsOf } from './lookups.js';

interface Request {
  id: number;
  job: ClaimJob;
  npis: [string, NpiRecord][];
}

type Reply = { id: number; result: ClaimResult } | { id: number; error: string };

export interface TransformThread {
  /** The job's rows, made in the thread with the NPPES records `npis`. */
  run(job: ClaimJob, npis: [string, NpiRecord][]): Promise<ClaimResult>;
  /** Ends the thread (jobs still running fail). */
  close(): Promise<void>;
}

// The worker runs the TypeScript sources as the CLI does: tsx registers its loader in the new thread first.
const BOOT = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); })
  .then((thread) => thread.serveClaims());`;

export function startTransformThread(): TransformThread {
  const worker = new Worker(BOOT, { eval: true, execArgv: [] });
  const waiting = new Map<number, { resolve: (r: ClaimResult) => void; reject: (e: Error) => void }>();
  let next = 0;
  let ended: Error | undefined;
  const failAll = (error: Error) => {
    ended ??= error;
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  worker.on('message', (reply: Reply) => {
    const job = waiting.get(reply.id);
    if (!job) return;
    waiting.delete(reply.id);
    if ('error' in reply) job.reject(new Error(reply.error));
    else job.resolve(reply.result);
  });
  worker.on('error', failAll);
  worker.on('exit', () => failAll(new Error('the thread making claims into resources stopped')));
  return {
    run(job, npis) {
      if (ended) return Promise.reject(ended);
      const id = (next += 1);
      return new Promise<ClaimResult>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, job, npis } satisfies Request);
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}

/** The worker's side: makes each job's rows with src/fhir/bfd/'s transforms. */
export async function serveClaims(): Promise<void> {
  const { servedTransforms } = await import('../../fhir/bfd/transform.js');
  const port = parentPort!;
  port.on('message', ({ id, job, npis }: Request) => {
    claimResources(job, servedTransforms.claimEob, lookupsOf(new Map(npis))).then(
      (result) => port.postMessage({ id, result } satisfies Reply),
      (error: unknown) =>
        port.postMessage({
          id,
          error: error instanceof Error ? error.message : String(error),
        } satisfies Reply),
    );
  });
}
