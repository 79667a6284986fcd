import type { Cents } from '../pricing/money.js';
import { guidelineFor, povertyRegion, povertyTable } from '../tables/poverty-guidelines.js';

/**
 * What the FPL percentage is for: the premium tax credit and cost-sharing reductions, or Medicaid/CHIP.
 * The two count the household and pick the guideline year differently.
 */
export type FplPurpose = 'aptc' | 'medicaid';

/** The API's Person fields that change a household's size. */
export interface SizeInput {
  is_pregnant?: boolean | null;
  pregnant_with?: number | null;
}

/**
 * The guideline year for coverage year Y. APTC and CSR: the most recently published guidelines as of
 * the first day of open enrollment for Y, i.e. those of Y − 1 (26 U.S.C. 36B(d)(3)(B); 26 CFR
 * 1.36B-1(h); 45 CFR 155.300(a)). Medicaid
 * and CHIP: the current guidelines (42 CFR 435.4, "Federal poverty level ... updated periodically in the
 * Federal Register"), taken as those of Y.
 */
export function guidelineYear(coverageYear: number, purpose: FplPurpose): number {
  return purpose === 'aptc' ? coverageYear - 1 : coverageYear;
}

/** Unborn children a person brings: `pregnant_with`, or 1 when only `is_pregnant` is set (CMS Person). */
export function unbornChildren(person: SizeInput): number {
  if (person.pregnant_with !== undefined && person.pregnant_with !== null && person.pregnant_with > 0) {
    return Math.floor(person.pregnant_with);
  }
  return person.is_pregnant ? 1 : 0;
}

/**
 * Household size. APTC: the tax household, one per person (26 CFR 1.36B-1(d)); an unborn child is no
 * one's dependant yet. Medicaid: a pregnant woman counts as herself plus the children she expects
 * (42 CFR 435.603(b)); for the others in her household the same count is the state option we take.
 */
export function householdSize(people: readonly SizeInput[], purpose: FplPurpose): number {
  if (purpose === 'aptc') return people.length;
  return people.reduce((size, person) => size + 1 + unbornChildren(person), 0);
}

export interface FplResult {
  /** Income as a percent of the guideline, unrounded (round only for display). */
  percent: number;
  guidelineYear: number;
  /** The guideline in dollars for the household's size and region. */
  guideline: number;
  size: number;
}

/**
 * Household income as a percentage of the federal poverty line: income / guideline(size, region) × 100
 * (26 U.S.C. 36B(d)(3); 42 U.S.C. 9902(2) for the three regions: 48 states and DC, Alaska, Hawaii).
 * Undefined when the guideline year is not in our table (the caller reports the gap).
 */
export function fplPercent(
  income: Cents,
  people: readonly SizeInput[],
  state: string,
  coverageYear: number,
  purpose: FplPurpose,
): FplResult | undefined {
  const year = guidelineYear(coverageYear, purpose);
  const table = povertyTable(year, povertyRegion(state));
  if (!table) return undefined;
  const size = Math.max(1, householdSize(people, purpose));
  const guideline = guidelineFor(table, size);
  // income in cents / guideline in dollars = percent, exactly when the ratio is exact (4 × line → 400).
  return { percent: income / guideline, guidelineYear: year, guideline, size };
}
