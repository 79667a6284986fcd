import type { MarketPlan } from '../market/county-market.js';
import type { TierState } from '../pricing/family-tier.js';
import { FEDERAL_MAX_TOBACCO_LOOKBACK_MONTHS } from '../pricing/tobacco.js';

/** What of a plan decides how a household is priced for it, beyond its rates. */

const TIER_STATES = new Set<string>(['NY', 'VT']);

/** Ages past this share the last Rate PUF band (`64 and over`). */
export const LAST_BAND_AGE = 64;

/**
 * Whether the credit can pay for the plan: a qualified health plan of the individual market
 * (26 U.S.C. 36B(c)(3)(A)) that is not catastrophic. SHOP plans are employer coverage; a stand-alone
 * dental plan could take the credit only for its pediatric EHB portion, which no file we load states,
 * so it takes none here.
 */
export function creditable(plan: MarketPlan): boolean {
  return plan.market === 'Individual' && !plan.catastrophic && !plan.dental;
}

/** NY and VT rate Rate PUF plans by family tier (family-tier.ts); landscape years have no such rows. */
export function tierStateOf(plan: MarketPlan): TierState | null {
  if (plan.rateSource !== 'rate-puf') return null;
  const state = plan.id.slice(5, 7);
  return TIER_STATES.has(state) ? (state as TierState) : null;
}

/** Tobacco look-backs the PUF states run to 3 digits (two 2014 rows say 999): the rules key's first part. */
const LOOKBACK_KEYS = 2000;

/**
 * A plan's issuer rules that change who is rated how, as one number: tobacco look-back × 2 (+1: 1
 * January ages), plus the rated-children limits (each 0 = none, 1, 2) as base-4 digits × 2000.
 */
export function rulesOf(plan: MarketPlan): number {
  const lookback = plan.tobaccoLookback ?? FEDERAL_MAX_TOBACCO_LOOKBACK_MONTHS;
  const own = lookback * 2 + (plan.ageRule === 'january-1' ? 1 : 0);
  const limits = plan.ratedChildren;
  if (!limits) return own;
  const digit = (n: number | null) => (n === null ? 0 : Math.min(n, 3));
  const children =
    digit(limits.twoParent) +
    4 * digit(limits.singleParent) +
    16 * digit(limits.childrenOnly) +
    64 * digit(limits.anyPolicy);
  return own + children * LOOKBACK_KEYS;
}
