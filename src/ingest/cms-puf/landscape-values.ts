import type { CostLimit } from '../../plans/store/plan-detail.js';
import type { Columns } from '../engine/headers.js';
import { Reject } from '../engine/tabular-format.js';
import { dollarsToCents } from './values.js';
import { COST_COLUMNS, PREMIUM_COLUMNS, type LandscapeVariant } from './landscape-columns.js';

/** "Rating Area 6" (2014–2016) or "6" (2017) → 6. */
export function ratingArea(text: string): number | Reject {
  const match = /^(?:rating area\s*)?(\d{1,3})$/i.exec(text);
  const n = match ? Number(match[1]) : 0;
  return n >= 1 ? n : new Reject(`Rating Area "${text}" is not a rating area`);
}

/**
 * "EHB Percent of Total Premium" as a fraction: "97.4%" → 0.974, "100%" → 1, and the 2017 file's bare
 * fractions "0.9302", "1"; empty → null (2014–2015 do not publish it).
 */
export function ehbFraction(text: string): number | null | Reject {
  if (text === '') return null;
  const match = /^(\d+(?:\.\d+)?)\s*(%?)$/.exec(text);
  const value = match ? Number(match[1]) / (match[2] ? 100 : 1) : Number.NaN;
  if (!(value > 0 && value <= 1)) return new Reject(`EHB Percent of Total Premium "${text}" is not a share`);
  // Six places: 97.4 / 100 must not come out as 0.9740000000000001.
  return Math.round(value * 1e6) / 1e6;
}

/** The published premiums of a row, in integer cents, under the stable keys of PREMIUM_COLUMNS. */
export function premiums(cells: Record<string, string>, col: Columns): Record<string, number> | Reject {
  const out: Record<string, number> = {};
  for (const { key, names } of PREMIUM_COLUMNS) {
    const text = col.get(cells, ...names);
    if (text === '') continue;
    const cents = dollarsToCents(text);
    if (cents === null || cents instanceof Reject || cents < 0) {
      return new Reject(`premium ${key.replace(/_/g, ' ')} "${text}" is not an amount`);
    }
    out[key] = cents;
  }
  return Object.keys(out).length > 0 ? out : new Reject('the row publishes no premium');
}

// "$5,500", "6550", "$7150 per person", "$14300 per group", "$6,350.00".
const AMOUNT = /^\$?\s*(\d[\d,]*(?:\.\d+)?)(?:\s+per\s+(?:person|group))?$/i;

/** "$6,350" / "$6,350.50": how the API's display strings write an amount. */
function displayDollars(amount: number): string {
  const [whole, cents] = amount.toFixed(2).split('.') as [string, string];
  return `$${whole.replace(/\B(?=(\d{3})+$)/g, ',')}${cents === '00' ? '' : `.${cents}`}`;
}

/**
 * The deductibles and MOOPs a variant's columns publish. Text such as "Included in Medical", "See Plan
 * Brochure" or "Not Applicable" has no amount and is kept as the display string; an empty cell is left
 * out; a cell with digits that is not an amount is refused.
 */
export function costLimits(
  cells: Record<string, string>,
  col: Columns,
  variant: LandscapeVariant,
): { deductibles: CostLimit[]; moops: CostLimit[] } | Reject {
  const out = { deductibles: [] as CostLimit[], moops: [] as CostLimit[] };
  for (const { stem, limit, type, familyCost } of COST_COLUMNS) {
    const text = col.get(cells, `${stem} ${variant.column}`).replace(/\s+/g, ' ');
    if (text === '') continue;
    const match = AMOUNT.exec(text);
    if (!match && /\d/.test(text)) {
      return new Reject(`${stem} (${variant.column}) "${text}" is not an amount`);
    }
    const amount = match ? Number(match[1]!.replace(/,/g, '')) : null;
    out[limit].push({
      type,
      amount,
      csr: variant.csr,
      network_tier: 'In-Network',
      family_cost: familyCost,
      individual: familyCost === 'Individual',
      family: familyCost !== 'Individual',
      display_string: amount === null ? text : displayDollars(amount),
    });
  }
  return out;
}
