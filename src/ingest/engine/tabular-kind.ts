import { basename } from 'node:path';
import { openTabular, sourceSize } from '../sources/tabular.js';
import { ArchiveError } from '../sources/zip-entry.js';
import type { IngestKind, KindLoad } from './kind.js';
import { IngestError } from './report.js';
import { rowsInThread } from './row-thread.js';
import { checkHeader, noDataRows, rowOutcome } from './rows.js';
import { fileErrorMessage } from './run.js';
import { Reject, type FormatContext, type RowHandler, type TabularFormat } from './tabular-format.js';

/**
 * A tabular format as an ingest kind: each file is opened as a table, its header checked, and each row
 * turned into writes by the format (in a worker thread for a `threadModule` format's CSV files), with the
 * year checks every tabular kind shares.
 */
export function tabularKind<S>(format: TabularFormat<S>): IngestKind {
  return {
    kind: format.kind,
    summary: format.summary,
    owns: format.owns,
    size: (files) => tableSizes(files),
    load: (files, load) => loadTables(format, files, load),
  };
}

/** The files' sizes, for progress; a file the filesystem refuses fails the load here. */
async function tableSizes(files: string[]): Promise<number> {
  let total = 0;
  for (const file of files) {
    try {
      total += await sourceSize(file);
    } catch (error) {
      throw unreadableFile(error, file);
    }
  }
  return total;
}

async function loadTables<S>(format: TabularFormat<S>, files: string[], load: KindLoad): Promise<void> {
  const handlers: RowHandler[] = [];
  const seen = new Set<string>();
  // A format without load state has S = undefined.
  const state = format.startLoad ? format.startLoad(load.writer.db) : (undefined as S);
  // The file being read, to name it when the filesystem refuses (a read error does not carry the path).
  let current = files[0] ?? '';
  try {
    for (const file of files) {
      current = file;
      const fileYear = load.year ?? format.yearFromFileName?.(basename(file));
      const read =
        format.threadModule && !/\.xlsx$/i.test(file)
          ? await readInThread(format, file, fileYear, load)
          : await readHere(
              format,
              { db: load.writer.db, year: fileYear, file, seen, load: state },
              load,
              handlers,
            );
      // A header alone is a truncated export or the wrong file, not a request to empty the dataset.
      if (read === 0) throw load.failure(noDataRows(file));
    }
    for (const handler of handlers)
      for (const w of (await handler.finish?.()) ?? []) await load.writer.add(w);
  } catch (error) {
    throw readFailure(error, current, load);
  }
}

/** Reads the context's file on the load's thread, keeping its handler in `handlers`; returns its rows read. */
async function readHere<S>(
  format: TabularFormat<S>,
  context: FormatContext<S>,
  load: KindLoad,
  handlers: RowHandler[],
): Promise<number> {
  const { file, year: fileYear } = context;
  const { writer } = load;
  const source = await openTabular(file, load.progress, format.columns, format.isHeader?.bind(format));
  checkHeader(format, file, source.header, load);
  const handler = await format.start(context);
  handlers.push(handler);
  let read = 0;
  for await (const { line, cells } of source.rows) {
    read += 1;
    load.read();
    let outcome = rowOutcome(format, handler, file, fileYear, cells);
    if (outcome instanceof Promise) outcome = await outcome;
    if (outcome instanceof Reject) {
      load.reject(file, line, outcome.reason);
      continue;
    }
    await writer.startYear(outcome.year);
    if (outcome.writes.length === 0) load.skipped();
    for (const w of outcome.writes) await writer.add(w);
  }
  return read;
}

/** Reads `file` in a worker thread (`threadModule`), storing its batches as they come; returns its rows read. */
async function readInThread<S>(
  format: TabularFormat<S>,
  file: string,
  fileYear: number | undefined,
  load: KindLoad,
): Promise<number> {
  let read = 0;
  for await (const message of rowsInThread(format.threadModule!, format.kind, file, fileYear)) {
    if (message.type === 'header') {
      checkHeader(format, file, message.header, load);
      continue;
    }
    read += message.read;
    load.read(message.read);
    load.skipped(message.skipped);
    load.progress(message.bytes);
    for (const [line, reason] of message.rejects) load.reject(file, line, reason);
    for (const year of message.years) await load.writer.startYear(year);
    for (const [table, columns, values] of message.tables) await load.writer.addRows(table, columns, values);
  }
  return read;
}

/**
 * What went wrong reading a table, as the load reports it: a damaged archive or workbook and a malformed
 * CSV with what was read so far.
 */
function readFailure(error: unknown, file: string, load: KindLoad): unknown {
  if (error instanceof IngestError) return error;
  if (error instanceof ArchiveError) return load.failure(`${error.message}; nothing was stored`);
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'CSV_QUOTE_NOT_CLOSED' || /^CSV_/.test(String(code))) {
    return load.failure(`malformed CSV (${(error as Error).message}); nothing was stored`);
  }
  return unreadableFile(error, file);
}

/**
 * A file the filesystem refuses fails a tabular load by its name alone: unlike the engine's other kinds,
 * without the summary of what was read.
 */
function unreadableFile(error: unknown, file: string): unknown {
  const unreadable = fileErrorMessage(error, file);
  return unreadable ? new IngestError(`${unreadable}; nothing was stored`) : error;
}
