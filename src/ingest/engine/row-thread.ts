import { parentPort, workerData } from 'node:worker_threads';
import { startWorker } from '../../shared/worker-boot.js';
import type { Transaction } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { openTabular } from '../sources/tabular.js';
import { ArchiveError } from '../sources/zip-entry.js';
import { IngestError } from './report.js';
import { rowOutcome } from './rows.js';
import { Reject, type TabularFormat } from './tabular-format.js';
import type { PlanDataTable, Write } from './writes.js';

/**
 * Reading a file in a worker thread, for formats whose rows need nothing from the database (`threadModule`):
 * the worker parses the file and turns its rows into writes while the load's thread stores the previous
 * batch, so a load takes about as long as the database's own work instead of the sum of both (NPPES:
 * parsing 330 quoted columns costs about what SQLite's inserts do). The load's one transaction, its reports
 * and its checks stay on the load's thread; what crosses is plain data.
 */

/** The worker's header, as soon as it is read (the load checks it). */
export interface HeaderMessage {
  type: 'header';
  header: string[];
}

/** A batch of read rows: their writes by table, as flat value arrays, and what else the load reports. */
export interface RowsMessage {
  type: 'rows';
  /** Rows of the file read for this batch. */
  read: number;
  /** Bytes of the file consumed since the previous batch. */
  bytes: number;
  /** The years the batch's accepted rows belong to (each is begun before its rows are written). */
  years: number[];
  /** Refused rows: line and reason. */
  rejects: [number, string][];
  /** Rows accepted that wrote nothing of their own (repeats, rows the format leaves out or totals later). */
  skipped: number;
  /** Writes: table, its columns, and the rows' values one after another in that order. */
  tables: [PlanDataTable, string[], unknown[]][];
}

type WorkerMessage =
  HeaderMessage | RowsMessage | { type: 'end' } | { type: 'error'; error: ErrorDescription };

interface ErrorDescription {
  kind: 'ingest' | 'archive' | 'other';
  message: string;
  code?: unknown;
  syscall?: unknown;
  path?: unknown;
}

interface Job {
  module: string;
  kind: string;
  file: string;
  year: number | undefined;
}

/** Source rows per batch, and how many batches may wait for the load (memory stays bounded). */
const ROWS_PER_BATCH = 2000;
const BATCHES_AHEAD = 4;

/**
 * Reads `file` in a worker thread with the `kind` format that `module` exports: yields the header, then
 * batches of rows; the worker reads ahead by at most a few batches. Stopping early (a missing column, too
 * many refused rows) ends the worker.
 */
export async function* rowsInThread(
  module: string,
  kind: string,
  file: string,
  year: number | undefined,
): AsyncGenerator<HeaderMessage | RowsMessage> {
  const job: Job = { module, kind, file, year };
  const worker = startWorker(import.meta.url, 'serveRows', { execArgv: [], workerData: job });
  const queue: WorkerMessage[] = [];
  let failure: Error | undefined;
  let exited = false;
  let wake: (() => void) | undefined;
  worker.on('message', (message: WorkerMessage) => {
    queue.push(message);
    wake?.();
  });
  worker.on('error', (error: Error) => {
    failure = error;
    wake?.();
  });
  worker.on('exit', () => {
    exited = true;
    wake?.();
  });
  try {
    for (;;) {
      while (queue.length === 0 && failure === undefined && !exited) {
        await new Promise<void>((resolve) => (wake = resolve));
      }
      wake = undefined;
      const message = queue.shift();
      if (message === undefined) throw failure ?? new Error(`the thread reading ${file} stopped early`);
      if (message.type === 'error') throw rebuilt(message.error);
      if (message.type === 'end') return;
      if (message.type === 'rows') {
        for (const [, columns, values] of message.tables) restoreRepeats(values, columns.length);
      }
      yield message;
      if (message.type === 'rows') worker.postMessage('next');
    }
  } finally {
    await worker.terminate();
  }
}

/** The database, for a format read in a worker: there is none, and using it says so. */
const NO_DATABASE = new Proxy(
  {},
  {
    get(_target, property) {
      throw new Error(`a format read in a worker thread has no database (it used "${String(property)}")`);
    },
  },
) as Transaction<Database>;

/** The worker's side: reads the job's file, posting batches as the load asks for them. */
export async function serveRows(): Promise<void> {
  const port = parentPort!;
  const job = workerData as Job;
  let credits = BATCHES_AHEAD;
  let waiting: (() => void) | undefined;
  port.on('message', () => {
    credits += 1;
    waiting?.();
  });
  try {
    const module = (await import(job.module)) as Record<string, unknown>;
    const format = Object.values(module).find(
      (v) => (v as TabularFormat<unknown> | undefined)?.kind === job.kind,
    );
    if (!format) throw new Error(`${job.module} exports no ${job.kind} format`);
    await readFile(format as TabularFormat<unknown>, job, async (message) => {
      while (credits === 0) await new Promise<void>((resolve) => (waiting = resolve));
      credits -= 1;
      port.postMessage(message);
    });
    port.postMessage({ type: 'end' } satisfies WorkerMessage);
  } catch (error) {
    port.postMessage({ type: 'error', error: described(error) } satisfies WorkerMessage);
  } finally {
    // Nothing keeps the thread alive once the file is read.
    port.removeAllListeners('message');
    port.unref();
  }
}

async function readFile(
  format: TabularFormat<unknown>,
  job: Job,
  send: (message: RowsMessage) => Promise<void>,
): Promise<void> {
  let bytes = 0;
  const source = await openTabular(job.file, (n) => (bytes += n), format.columns);
  parentPort!.postMessage({ type: 'header', header: source.header } satisfies WorkerMessage);
  // The load refuses such a header and ends this thread; reading on would be wasted.
  if (source.header.length === 0 || format.missingColumns(source.header).length > 0) return;
  const handler = await format.start({
    db: NO_DATABASE,
    year: job.year,
    file: job.file,
    seen: new Set(),
    load: format.startLoad?.(NO_DATABASE),
  });
  let batch = new Batch();
  const flush = async () => {
    const message = batch.message(bytes);
    bytes = 0;
    batch = new Batch();
    await send(message);
  };
  for await (const { line, cells } of source.rows) {
    batch.read += 1;
    let outcome = rowOutcome(format, handler, job.file, job.year, cells);
    if (outcome instanceof Promise) outcome = await outcome;
    if (outcome instanceof Reject) {
      batch.rejects.push([line, outcome.reason]);
    } else {
      if (!batch.years.includes(outcome.year)) batch.years.push(outcome.year);
      if (outcome.writes.length === 0) batch.skipped += 1;
      batch.add(outcome.writes);
    }
    if (batch.read >= ROWS_PER_BATCH) await flush();
  }
  batch.add((await handler.finish?.()) ?? []);
  await flush();
}

/**
 * A function that appends a row object's values to a flat array in the order of `columns`: one generated
 * statement with every property read by name (as the CSV cells builder does), where a loop over the names
 * reads each property the slow, generic way.
 */
function valuesAppender(columns: string[]): (row: object, out: unknown[]) => void {
  const reads = columns.map((name) => `r[${JSON.stringify(name)}] ?? null`);
  return new Function('r', 'out', `out.push(${reads.join(', ')});`) as (row: object, out: unknown[]) => void;
}

class Batch {
  read = 0;
  skipped = 0;
  years: number[] = [];
  rejects: [number, string][] = [];
  #tables = new Map<
    PlanDataTable,
    { columns: string[]; values: unknown[]; append: ReturnType<typeof valuesAppender> }
  >();

  add(writes: Write[]): void {
    for (const { table, values } of writes) {
      let rows = this.#tables.get(table);
      if (!rows) {
        const columns = Object.keys(values);
        this.#tables.set(table, (rows = { columns, values: [], append: appenderOf(table, columns) }));
      }
      rows.append(values, rows.values);
    }
  }

  message(bytes: number): RowsMessage {
    const tables = [...this.#tables].map(
      ([table, { columns, values }]): [PlanDataTable, string[], unknown[]] => [
        table,
        columns,
        elideRepeats(values, columns.length),
      ],
    );
    const { read, years, rejects, skipped } = this;
    return { type: 'rows', read, bytes, years, rejects, skipped, tables };
  }
}

/**
 * Marks each value equal to the one above it (same column, previous row) as undefined, which no row holds
 * (the appender writes null for a missing value). The copy across threads makes a new string of every
 * string it carries, and most values repeat the row before: a provider's name words share its NPI, ZIP and
 * type, and are written sorted by ZIP. Half the strings of an NPPES batch stay home.
 */
function elideRepeats(values: unknown[], width: number): unknown[] {
  for (let i = values.length - 1; i >= width; i--) if (values[i] === values[i - width]) values[i] = undefined;
  return values;
}

/** The values `elideRepeats` marked, put back. */
function restoreRepeats(values: unknown[], width: number): unknown[] {
  for (let i = width; i < values.length; i++) if (values[i] === undefined) values[i] = values[i - width];
  return values;
}

/** Appenders by table, made once per thread (a format writes every row of a table with the same columns). */
const appenders = new Map<string, ReturnType<typeof valuesAppender>>();
function appenderOf(table: PlanDataTable, columns: string[]) {
  const key = `${table}\u0000${columns.join('\u0000')}`;
  let append = appenders.get(key);
  if (!append) appenders.set(key, (append = valuesAppender(columns)));
  return append;
}

function described(error: unknown): ErrorDescription {
  const kind = error instanceof IngestError ? 'ingest' : error instanceof ArchiveError ? 'archive' : 'other';
  const { message, code, syscall, path } = error as Error & Record<string, unknown>;
  return { kind, message: String(message ?? error), code, syscall, path };
}

/** The worker's error as the load's thread would have raised it, so the load reports it the same way. */
function rebuilt({ kind, message, code, syscall, path }: ErrorDescription): Error {
  if (kind === 'ingest') return new IngestError(message);
  if (kind === 'archive') return new ArchiveError(message);
  const error = new Error(message) as Error & Record<string, unknown>;
  for (const [key, value] of Object.entries({ code, syscall, path }))
    if (value !== undefined) error[key] = value;
  return error;
}
