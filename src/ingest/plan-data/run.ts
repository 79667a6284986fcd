import { basename } from 'node:path';
import type { DatasetStore } from '../../plans/store/datasets.js';
import { openTabular, sourceSize } from '../sources/tabular.js';
import { ArchiveError } from '../sources/zip-entry.js';
import { Reject, type IngestFormat, type RowHandler } from './format.js';
import { rowsInThread } from './row-thread.js';
import { checkHeader, noDataRows, rowOutcome } from './rows.js';
import { createLoadReport, IngestError, type IngestOptions, type IngestSummary } from '../report.js';

export { IngestError, type IngestOptions, type IngestSummary, type RejectedRow } from '../report.js';

/**
 * Streams `files` of one format into its tables, replacing the dataset for each year seen, in one
 * transaction: a file that cannot be read, a missing column, or more rejected rows than allowed leaves
 * the previous data exactly as it was.
 */
export async function runIngest(
  format: IngestFormat,
  files: string[],
  datasets: DatasetStore,
  options: IngestOptions,
): Promise<IngestSummary> {
  const allow = options.allowRejects ?? 0;
  const { summary, reject, checkRejects, progress, stored } = createLoadReport(
    format.kind,
    files,
    allow,
    options.onProgress,
  );

  // The file being read, to name it when the filesystem refuses (a read error does not carry the path).
  let current = files[0] ?? '';
  try {
    for (const file of files) {
      current = file;
      progress.expect(await sourceSize(file));
    }
    const counts = await datasets.load(
      {
        kind: format.kind,
        owns: format.owns,
        sample: options.sample ?? false,
        source: files.map((f) => basename(f)).join(', '),
        now: options.now,
      },
      async (writer) => {
        const handlers: RowHandler[] = [];
        const seen = new Set<string>();
        for (const file of files) {
          current = file;
          const fileYear = options.year ?? format.yearFromFileName?.(basename(file));
          const readBefore = summary.read;
          if (format.threadModule && !/\.xlsx$/i.test(file)) {
            for await (const message of rowsInThread(format.threadModule, format.kind, file, fileYear)) {
              if (message.type === 'header') {
                checkHeader(format, file, message.header, summary);
                continue;
              }
              summary.read += message.read;
              summary.skipped += message.skipped;
              progress.advance(message.bytes);
              for (const [line, reason] of message.rejects) reject(file, line, reason);
              for (const year of message.years) await writer.startYear(year);
              for (const [table, columns, values] of message.tables)
                await writer.addRows(table, columns, values);
            }
          } else {
            const source = await openTabular(
              file,
              progress.advance,
              format.columns,
              format.isHeader?.bind(format),
            );
            checkHeader(format, file, source.header, summary);
            const handler = await format.start({ db: writer.db, year: fileYear, file, seen });
            handlers.push(handler);
            for await (const { line, cells } of source.rows) {
              summary.read += 1;
              let outcome = rowOutcome(format, handler, file, fileYear, cells);
              if (outcome instanceof Promise) outcome = await outcome;
              if (outcome instanceof Reject) {
                reject(file, line, outcome.reason);
                continue;
              }
              await writer.startYear(outcome.year);
              if (outcome.writes.length === 0) summary.skipped += 1;
              for (const w of outcome.writes) await writer.add(w);
            }
          }
          // A header alone is a truncated export or the wrong file, not a request to empty the dataset.
          if (summary.read === readBefore) throw new IngestError(noDataRows(file), summary);
        }
        for (const handler of handlers) for (const w of (await handler.finish?.()) ?? []) await writer.add(w);
        checkRejects();
      },
    );
    return stored(counts);
  } catch (error) {
    if (error instanceof IngestError) throw error;
    if (error instanceof ArchiveError) throw new IngestError(`${error.message}; nothing was stored`, summary);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'CSV_QUOTE_NOT_CLOSED' || /^CSV_/.test(String(code))) {
      throw new IngestError(`malformed CSV (${(error as Error).message}); nothing was stored`, summary);
    }
    const unreadable = fileErrorMessage(error, current);
    if (unreadable) throw new IngestError(`${unreadable}; nothing was stored`);
    throw error;
  }
}

/**
 * What the filesystem refused, naming the file (`file` is the one being read: an error of `read` carries
 * no path); undefined when `error` is not a filesystem error.
 */
export function fileErrorMessage(error: unknown, file: string): string | undefined {
  const { code, syscall, path } = error as NodeJS.ErrnoException;
  if (typeof code !== 'string' || typeof syscall !== 'string') return undefined;
  const name = path ?? file;
  switch (code) {
    case 'ENOENT':
      return `no such file: ${name}`;
    case 'ENOTDIR':
      return `no such file: ${name} (a part of the path is not a directory)`;
    case 'EISDIR':
      return `${name} is a directory; give the data file in it`;
    case 'EACCES':
    case 'EPERM':
      return `cannot read ${name}: permission denied`;
    default:
      return `cannot read ${name} (${(error as Error).message})`;
  }
}
