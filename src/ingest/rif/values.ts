/**
 * The value checks of one RIF line: what BFD's pipeline refuses a record for, as its RIF mappings declare
 * the columns (columns.ts) — a date that is not one, an amount or count that is not a number, a required
 * column left empty. Text columns are taken as they are.
 */
import { rifDate } from '../../fhir/bfd/rif-record.js';
import type { ColumnKind, ColumnSpec } from './columns.js';

const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)$/;
const INTEGER = /^[-+]?\d+$/;

/** What is wrong with one value of `kind`, or undefined when it is fine. */
function problem(kind: ColumnKind, value: string): string | undefined {
  switch (kind) {
    case 'date':
      return rifDate(value) === undefined ? 'is not a date (DD-MON-YYYY or YYYYMMDD)' : undefined;
    case 'decimal':
      return DECIMAL.test(value) ? undefined : 'is not a number';
    case 'integer':
      return INTEGER.test(value) ? undefined : 'is not a whole number';
    default:
      return undefined;
  }
}

/** How many problems of one line a reason lists before it says how many more there are. */
const LISTED = 3;

/**
 * The check of a file's lines: `columns` are the type's columns and `positions` where each is among the
 * line's cells. Returns the line's problems as one reason (`CLM_FROM_DT "31-FEB-1999" is not a date …`),
 * or undefined when there is none.
 */
export function valueCheck(
  columns: readonly ColumnSpec[],
  positions: ReadonlyMap<string, number>,
): (cells: readonly string[]) => string | undefined {
  const checked = columns
    .filter((c) => c.required || (c.kind !== 'text' && c.kind !== 'timestamp'))
    .map((c) => ({ ...c, at: positions.get(c.name)! }));
  return (cells) => {
    let problems: string[] | undefined;
    for (const column of checked) {
      const value = cells[column.at]!;
      let found: string | undefined;
      if (value === '') {
        if (column.required) found = `${column.name} is empty (BFD requires a value)`;
      } else {
        const wrong = problem(column.kind, value);
        if (wrong !== undefined) found = `${column.name} ${JSON.stringify(value)} ${wrong}`;
      }
      if (found !== undefined) (problems ??= []).push(found);
    }
    if (problems === undefined) return undefined;
    const more = problems.length - LISTED;
    return problems.slice(0, LISTED).join('; ') + (more > 0 ? `; and ${more} more` : '');
  };
}
