/**
 * How the synthetic RIF records write their values, as CCW's extracts and BFD's sample files do
 * (docs/claims-rif.md#rif): dates `27-OCT-1999`, amounts with two decimals, counts as whole numbers. Days are
 * counted from 1970-01-01 (UTC), as the NDJSON generator counts them. Pure.
 */
import { RIF_DATE_MONTHS } from '../../../fhir/bfd/rif-record.js';
import type { Random } from '../../../shared/random.js';

/** One RIF record as column → value; a column left out is written empty. */
export type RifValues = Record<string, string>;

const DAY_MS = 86_400_000;

/** `2023-01-01` → its day number. */
export const toDay = (date: string): number => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

/** A day number → `01-JAN-2023`. */
export function rifDay(day: number): string {
  const d = new Date(day * DAY_MS);
  return `${String(d.getUTCDate()).padStart(2, '0')}-${RIF_DATE_MONTHS[d.getUTCMonth()]!}-${d.getUTCFullYear()}`;
}

/** A day number's calendar year. */
export const yearOf = (day: number): number => new Date(day * DAY_MS).getUTCFullYear();

/** Cents → `123.45`. */
export function money(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** `count` random decimal digits. */
export function digits(rng: Random, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += String(rng.int(0, 9));
  return out;
}

/** An ICD-10 code as CCW writes it: without the dot (`E11.9` → `E119`). */
export const icdCode = (code: string): string => code.replace('.', '');

/** An NDC as CCW writes it: eleven digits, no hyphens (`00093-7146-56` → `00093714656`). */
export const ndc11 = (ndc: string): string => ndc.replaceAll('-', '');
