import type { KindLoad } from './kind.js';
import { IngestError } from './report.js';
import { Reject, type RowHandler, type TabularFormat } from './tabular-format.js';
import type { Write } from './writes.js';

/** What one row of a file becomes: the year it belongs to and its writes, or the reason it is refused. */
export type RowOutcome = { year: number; writes: Write[] } | Reject;

/**
 * The year checks and the format's handling of one row, the same whether the row is read on the load's
 * thread or in a worker. A promise only when the handler answers with one (an await per row is a cost
 * a 2-million-row file feels).
 */
export function rowOutcome(
  format: TabularFormat<unknown>,
  handler: RowHandler,
  file: string,
  fileYear: number | undefined,
  cells: Record<string, string>,
): RowOutcome | Promise<RowOutcome> {
  const rowYear = handler.yearOf?.(cells);
  if (rowYear !== undefined && !Number.isInteger(rowYear)) return new Reject('the year column is not a year');
  if (fileYear !== undefined && rowYear !== undefined && rowYear !== fileYear) {
    return new Reject(`the row is for ${rowYear}, the load is for ${fileYear}`);
  }
  const year = fileYear ?? rowYear ?? (format.yearOptional ? 0 : undefined);
  if (year === undefined) throw new IngestError(`${file}: this format has no year column; give --year`);
  const result = handler.row(cells, year);
  return result instanceof Promise ? result.then((r) => outcome(r, year)) : outcome(result, year);
}

const outcome = (result: Write[] | Reject, year: number): RowOutcome =>
  result instanceof Reject ? result : { year, writes: result };

/** Throws unless `header` is one of the format's files: not empty, no required column missing. */
export function checkHeader(
  format: TabularFormat<unknown>,
  file: string,
  header: string[],
  load: Pick<KindLoad, 'failure'>,
): void {
  if (header.length === 0) throw load.failure(noDataRows(file));
  const missing = format.missingColumns(header);
  if (missing.length > 0) {
    throw new IngestError(
      `${file}: not a ${format.kind} file: missing column${missing.length > 1 ? 's' : ''} ` +
        missing.map((m) => `"${m}"`).join(', '),
    );
  }
}

export function noDataRows(file: string): string {
  return `no data rows in ${file}; nothing was stored`;
}
