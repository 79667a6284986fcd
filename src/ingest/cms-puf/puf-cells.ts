import { Reject } from '../engine/tabular-format.js';
import { STATE } from '../geography/codes.js';
import { ISSUER_ID } from './values.js';

/** Cell conventions of the CMS Exchange PUFs that several of their formats share. */

/** The trimmed cell; '' when empty, absent, or the `NA` older PUFs write for an empty cell. */
export function cell(cells: Record<string, string>, column: string): string {
  const value = (cells[column] ?? '').trim();
  return value === 'NA' ? '' : value;
}

/** The trimmed cell, or null when empty. */
export function optionalCell(cells: Record<string, string>, column: string): string | null {
  const value = cell(cells, column);
  return value === '' ? null : value;
}

export type Market = 'Individual' | 'SHOP';

/**
 * MarketCoverage: "Individual" or "SHOP (Small Group)" (PUF data dictionaries, every year). Empty only
 * where `optional` (the 2014 Network and Business Rules PUFs leave it empty on their HIOS rows).
 */
export function marketOf(cells: Record<string, string>, optional = false): Market | null | Reject {
  const value = cell(cells, 'MarketCoverage');
  if (value === 'Individual') return 'Individual';
  if (/^SHOP\b/.test(value)) return 'SHOP';
  if (value === '' && optional) return null;
  return new Reject(`MarketCoverage "${value}" is not Individual or SHOP (Small Group)`);
}

/**
 * Rank of a row's market where a file lists one thing once per market (the 2014 Network and Business
 * Rules PUFs list it from HIOS without a market, then per market from SERFF/OPM, sometimes with other
 * values): the individual market's row wins, the API being an individual-market API; then the row
 * without market; then SHOP.
 */
export const marketRank = (market: Market | null) => (market === 'Individual' ? 3 : market === null ? 2 : 1);

/** IssuerId and StateCode (or the columns named), checked. */
export function issuerAndState(
  cells: Record<string, string>,
  issuerColumn = 'IssuerId',
  stateColumn = 'StateCode',
): { issuerId: string; state: string } | Reject {
  const issuerId = cell(cells, issuerColumn);
  if (!ISSUER_ID.test(issuerId))
    return new Reject(`${issuerColumn} "${issuerId}" is not a 5-digit HIOS issuer id`);
  const state = cell(cells, stateColumn);
  if (!STATE.test(state)) return new Reject(`${stateColumn} "${state}" is not a two-letter state code`);
  return { issuerId, state };
}

/**
 * A date as the PUFs write it — `2025-01-01`, `2025-01-01 00:00:00` or `1/1/2025` — as `YYYY-MM-DD`;
 * undefined when it is none of these or not a calendar date.
 */
export function isoDate(value: string): string | undefined {
  // A rate file repeats a handful of dates two million times: remember them.
  if (dates.has(value)) return dates.get(value);
  if (dates.size > 1000) dates.clear();
  const iso = parseDate(value);
  dates.set(value, iso);
  return iso;
}
const dates = new Map<string, string | undefined>();

function parseDate(value: string): string | undefined {
  let match = /^(\d{4})-(\d{2})-(\d{2})(?:[ T][\d:.]+)?$/.exec(value);
  let [year, month, day] = match ? [match[1]!, match[2]!, match[3]!] : ['', '', ''];
  if (!match) {
    match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
    if (!match) return undefined;
    [year, month, day] = [match[3]!, match[1]!.padStart(2, '0'), match[2]!.padStart(2, '0')];
  }
  const date = new Date(`${year}-${month}-${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.getUTCDate() !== Number(day)
    ? undefined
    : `${year}-${month}-${day}`;
}

/** A date cell as `YYYY-MM-DD`, null when empty, or a Reject naming the column. */
export function dateCell(cells: Record<string, string>, column: string): string | null | Reject {
  const value = cell(cells, column);
  if (value === '') return null;
  return isoDate(value) ?? new Reject(`${column} "${value}" is not a date`);
}

/**
 * Dollars at the start of a cell — `$4,500`, `$4000 per person`, `1234.5` — as a number of dollars;
 * undefined when the cell does not start with an amount.
 */
export function leadingDollars(value: string): number | undefined {
  const match = /^\$?\s*(\d[\d,]*(?:\.\d+)?|\.\d+)(?:\s|$)/.exec(value);
  if (!match) return undefined;
  const dollars = Number(match[1]!.replace(/,/g, ''));
  return Number.isFinite(dollars) ? dollars : undefined;
}

/**
 * One row per key across a load, for tables whose key a file may repeat (a plan's variants, a network
 * listed once per market): a later row replaces an earlier one only when it ranks higher, and the row
 * is built only then.
 */
export class Preferred<T> {
  readonly #rows = new Map<string, { rank: number; value: T }>();

  offer(key: string, rank: number, build: () => T): void {
    const held = this.#rows.get(key);
    if (held && held.rank >= rank) return;
    this.#rows.set(key, { rank, value: build() });
  }

  /** The kept rows, once: the map is emptied so a second caller gets none. */
  take(): T[] {
    const values = [...this.#rows.values()].map((r) => r.value);
    this.#rows.clear();
    return values;
  }
}
