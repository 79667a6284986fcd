import type { ClaimLookups } from './lookups.js';
/**
 * The records of the CMS Chronic Conditions Warehouse (CCW) "RIF" extracts, as the claims transforms read them.
 * A RIF file is pipe-delimited with a header line naming the CCW variables (docs/claims-rif.md); a row is kept
 * as the raw text of each column, keyed by the header's upper-case name, '' where the column is empty.
 */

/**
 * The claim record types: each row a claim line, rows grouped into their claim by `CLM_ID`; a Part D event
 * (`pde`, last) is one row, keyed by `PDE_ID`.
 */
export const RIF_CLAIM_TYPES = [
  'carrier',
  'dme',
  'hha',
  'hospice',
  'inpatient',
  'outpatient',
  'snf',
  'pde',
] as const;
export type RifClaimType = (typeof RIF_CLAIM_TYPES)[number];

/** The record types a RIF file can hold, one per file. */
export const RIF_RECORD_TYPES = [
  'beneficiary',
  'beneficiary-history',
  'mbi-history',
  ...RIF_CLAIM_TYPES,
] as const;
export type RifRecordType = (typeof RIF_RECORD_TYPES)[number];

/** One row: column name (upper case, as in the header) → raw text ('' when empty). */
export type RifRow = Readonly<Record<string, string>>;

/**
 * One claim: its rows in file order. The claim-level columns repeat on every row, so `rows[0]` answers them;
 * each row carries one line (`LINE_NUM` / `CLM_LINE_NUM`). A Part D event is one row.
 */
export interface RifClaim {
  readonly type: RifClaimType;
  readonly rows: readonly RifRow[];
}

/** A beneficiary with the history rows loaded for it (prior MBIs and HICNs). */
export interface RifBeneficiary {
  readonly row: RifRow;
  readonly history: readonly RifRow[];
}

/** The months as RIF dates abbreviate them (`27-OCT-1999`, `05-SEP-2020`). */
export const RIF_DATE_MONTHS = [
  'JAN',
  'FEB',
  'MAR',
  'APR',
  'MAY',
  'JUN',
  'JUL',
  'AUG',
  'SEP',
  'OCT',
  'NOV',
  'DEC',
] as const;

/**
 * The months as the monthly columns of the beneficiary file spell them (`PTD_CNTRCT_SEPT_ID`): as dates
 * abbreviate them, but September is `SEPT`.
 */
export const RIF_MONTHS: readonly string[] = RIF_DATE_MONTHS.map((m) => (m === 'SEP' ? 'SEPT' : m));

/**
 * Dates read so far, and what they read as: a claim file names the same few hundred days on line after line,
 * in several columns each. Cleared when it grows large, so it holds what the file at hand uses.
 */
const readDates = new Map<string, string | undefined>();
const READ_DATES_KEPT = 20_000;

/** `27-OCT-1999`, `17-Mar-1981` or `19631003` → `1999-10-27`; undefined for '' or a malformed value. */
export function rifDate(raw: string): string | undefined {
  if (raw === '') return undefined;
  const known = readDates.get(raw);
  if (known !== undefined || readDates.has(raw)) return known;
  if (readDates.size >= READ_DATES_KEPT) readDates.clear();
  const date = parseRifDate(raw);
  readDates.set(raw, date);
  return date;
}

function parseRifDate(raw: string): string | undefined {
  if (raw === '') return undefined;
  let m = /^(\d{1,2})-([A-Za-z]{3})-(\d{4})$/.exec(raw);
  if (m) {
    const month = (RIF_DATE_MONTHS as readonly string[]).indexOf(m[2]!.toUpperCase());
    if (month < 0) return undefined;
    return checkedDate(Number(m[3]), month + 1, Number(m[1]));
  }
  m = /^(\d{4})(\d{2})(\d{2})$/.exec(raw);
  if (m) return checkedDate(Number(m[1]), Number(m[2]), Number(m[3]));
  return undefined;
}

function checkedDate(year: number, month: number, day: number): string | undefined {
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day)
    return undefined;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** What a transform needs besides the record: the load's names and the time it was made. */
export interface TransformContext {
  readonly lookups: ClaimLookups;
  /** The load's time, ISO 8601 (BFD's `created` of an EOB is when the resource was made). */
  readonly created: string;
}
