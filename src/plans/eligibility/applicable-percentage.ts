import { mulRatio, roundHalfAwayFromZero, type Cents } from '../pricing/money.js';
import { APPLICABLE_PERCENTAGE, type ApplicableBand } from '../tables/tax-credit.js';

/** Thousandths of a percent in one percent; the table's unit is hundredths. */
const PER_PERCENT = 1000;
const TABLE_PER_PERCENT = 100;

export type ApplicablePercentage =
  | {
      eligible: true;
      /** The applicable percentage in thousandths of a percent (6.3 % → 6300). */
      thousandths: number;
      /** The same as a percent (6.3). */
      percent: number;
      band: ApplicableBand;
    }
  | { eligible: false; reason: 'below-100-percent' | 'above-400-percent' | 'unknown-year' };

export interface ApplicableOptions {
  /**
   * Treat household income below 100 % FPL as inside the first band: lawfully present non-citizens
   * ineligible for Medicaid by status (26 U.S.C. 36B(c)(1)(B)), a credit paid in advance on an estimate
   * (26 CFR 1.36B-2(b)(6)), the 2021 unemployment rule (ARPA §9663). Off by default: no credit below 100 %.
   */
  belowPovertyEligible?: boolean;
}

function bandOf(bands: readonly ApplicableBand[], fpl: number): ApplicableBand {
  const inside = bands.find((b) => fpl >= b.fromPct && (b.toPct === null || fpl < b.toPct));
  return inside ?? bands[bands.length - 1]!;
}

/**
 * The applicable percentage for a coverage year and household income as % FPL. 26 U.S.C. 36B(b)(3)(A),
 * 26 CFR 1.36B-3(g): within each band it rises linearly from the initial to the final percentage
 * (APPLICABLE_PERCENTAGE, Rev. Proc. per year), "rounded to the nearest one-hundredth of one percent"
 * (1.36B-3(g)(1); its Example 1 rounds 8.775 to 8.78). Half a hundredth rounds up; the interpolation is
 * first cut to nine decimals so binary noise (877.4999…) cannot turn a true half down. Eligible from 100 % FPL (36B(c)(1)(A)) up to and including 400 % in the years whose table ends
 * there (2014–2020, 2026 on); ARPA §9661 / IRA §12001 years (2021–2025) have no upper limit.
 */
export function applicablePercentage(
  year: number,
  fplPercent: number,
  options: ApplicableOptions = {},
): ApplicablePercentage {
  const bands = APPLICABLE_PERCENTAGE[year];
  if (!bands || bands.length === 0) return { eligible: false, reason: 'unknown-year' };
  if (fplPercent < 100 && !options.belowPovertyEligible)
    return { eligible: false, reason: 'below-100-percent' };
  const last = bands[bands.length - 1]!;
  if (last.toPct !== null && fplPercent > last.toPct) return { eligible: false, reason: 'above-400-percent' };
  const fpl = Math.max(fplPercent, bands[0]!.fromPct);
  const band = bandOf(bands, fpl);
  const position =
    band.toPct === null ? 0 : (Math.min(fpl, band.toPct) - band.fromPct) / (band.toPct - band.fromPct);
  const hundredths = band.initial + (band.final - band.initial) * position;
  const rounded = roundHalfAwayFromZero(Number(hundredths.toFixed(9)));
  const thousandths = (rounded * PER_PERCENT) / TABLE_PER_PERCENT;
  return { eligible: true, thousandths, percent: thousandths / PER_PERCENT, band };
}

export interface ExpectedContribution {
  annual: Cents;
  monthly: Cents;
  /** `income × p / 12` before rounding, in cents (the CMS estimate keeps the APTC unrounded). */
  monthlyExact: number;
}

/** Cents of income times thousandths of a percent, over this, is cents. */
const CONTRIBUTION_SCALE = 100 * PER_PERCENT;
const MONTHS = 12;

/**
 * The expected contribution: applicable percentage × household income, a year and a month (1/12 of it;
 * 26 U.S.C. 36B(b)(2)(B), 26 CFR 1.36B-3(d)(1)–(2)), each rounded once to the cent from the exact product.
 * A negative household income contributes nothing (it only reaches here below 100 % FPL by exception).
 */
export function expectedContribution(income: Cents, thousandths: number): ExpectedContribution {
  const base = Math.max(0, income);
  return {
    annual: mulRatio(base, thousandths, CONTRIBUTION_SCALE),
    monthly: mulRatio(base, thousandths, CONTRIBUTION_SCALE * MONTHS),
    monthlyExact: (base * thousandths) / (CONTRIBUTION_SCALE * MONTHS),
  };
}
