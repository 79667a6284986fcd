import { Reject } from '../engine/tabular-format.js';

/** Parsing of the cell conventions the CMS files share. Each returns a value or a Reject naming the cell. */

export const ISSUER_ID = /^\d{5}$/;
/** HIOS standard component id: issuer (5 digits), state, product (3 digits), plan (4 digits). */
export const PLAN_ID = /^\d{5}[A-Z]{2}\d{7}$/;
/** A plan variant: the standard component id and the CSR variant suffix. */
export const VARIANT_ID = /^(\d{5}[A-Z]{2}\d{7})-(\d{2})$/;

export function required(cells: Record<string, string>, column: string): string | Reject {
  const value = (cells[column] ?? '').trim();
  return value === '' ? new Reject(`${column} is empty`) : value;
}

export function matching(cells: Record<string, string>, column: string, pattern: RegExp, what: string) {
  const value = (cells[column] ?? '').trim();
  return pattern.test(value) ? value : new Reject(`${column} "${value}" is not ${what}`);
}

/** "Yes"/"No" (also Y/N, True/False, 1/0) → 1/0; empty → `fallback`. */
export function yesNo(cells: Record<string, string>, column: string, fallback = 0): number | Reject {
  const value = (cells[column] ?? '').trim().toLowerCase();
  if (value === '') return fallback;
  if (['yes', 'y', 'true', '1'].includes(value)) return 1;
  if (['no', 'n', 'false', '0'].includes(value)) return 0;
  return new Reject(`${column} "${cells[column]}" is not Yes or No`);
}

/**
 * Dollars as the CMS files write them ("$4,500 ", "1,234.50", "$0") → integer cents; empty or
 * "Not Applicable"-style text → null (the caller decides whether that is allowed).
 */
export function dollarsToCents(text: string | undefined): number | null | Reject {
  const value = (text ?? '').trim();
  if (value === '' || value === 'NA') return null;
  const match = /^\$?\s*(-?[\d,]*\.?\d*)\s*$/.exec(value);
  if (!match || match[1] === '' || match[1] === '.') return null;
  const number = Number(match[1]!.replace(/,/g, ''));
  if (!Number.isFinite(number)) return new Reject(`"${value}" is not an amount`);
  return Math.round(number * 100);
}

/** The first Reject among values, if any (lets a parser validate every cell and report the first problem). */
export function firstReject(...values: unknown[]): Reject | undefined {
  return values.find((v): v is Reject => v instanceof Reject);
}
