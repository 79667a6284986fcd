/** Small pieces every claim transform needs on top of elements.ts: reading a RIF column, a procedure's date. */
import type { RifRow } from './rif-record.js';

/** A column's raw text, or undefined when the row lacks the column or it is empty. */
export function field(row: RifRow, column: string): string | undefined {
  const value = row[column];
  return value === undefined || value === '' ? undefined : value;
}

/** A column that must be present; throws naming the column when it is not. */
export function requiredField(row: RifRow, column: string): string {
  const value = field(row, column);
  if (value === undefined) throw new Error(`RIF column ${column} is empty`);
  return value;
}

/**
 * A date as BFD serialises a FHIR dateTime it made from a day (a procedure's date): midnight, UTC offset
 * written out (`2016-01-16T00:00:00+00:00`).
 */
export function midnightDateTime(date: string): string {
  return `${date}T00:00:00+00:00`;
}
