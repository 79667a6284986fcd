import { mulRatio, type Cents } from '../pricing/money.js';

/**
 * Whether an individual coverage HRA is affordable: the employee's self-only lowest-cost silver premium
 * minus the monthly HRA amount is at most the required contribution percentage of the year × income / 12
 * (26 CFR 1.36B-2(c)(5); 26 U.S.C. 36B(c)(2)(C)). `requiredPct` in hundredths of a percent.
 */
export function ichraAffordable(income: Cents, requiredPct: number, lcsp: Cents, hra: Cents): boolean {
  // income × pct / (100 × 100) a year, / 12 a month.
  const limit = mulRatio(income, requiredPct, 120_000);
  return lcsp - hra <= limit;
}
