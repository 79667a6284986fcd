import { secondLowestCost } from '../eligibility/aptc.js';
import type { Member, SettledHousehold } from '../household/household.js';
import type { MarketPlan } from '../market/county-market.js';
import type { Cents } from '../pricing/money.js';
import { HouseholdPricer, type PlanSums } from './household-pricer.js';
import { termsOfAll } from './rate-matrix.js';

const EVERYONE = () => true;

export interface RankedPlan {
  plan: MarketPlan;
  /** The amount the plan was ranked by, cents a month. */
  amount: Cents;
}

/**
 * The SLCSP benchmark for `members`: silver plans by the EHB premium of the members, tobacco ignored
 * (26 U.S.C. 36B(b)(3)(B); 26 CFR 1.36B-3(f)), plans without a rate for them left out, and plans whose
 * issuer does not accept them together (Business Rules PUF: not offered to this coverage family,
 * docs/decisions.md#enrollment-rules); the second-lowest distinct amount (aptc.ts `secondLowestCost`), with
 * the plan of that amount that comes first by id.
 */
export function benchmarkPlan(
  plans: readonly MarketPlan[],
  year: number,
  household: SettledHousehold,
  members: readonly Member[],
  /** Added to a plan's amount before ranking (a stand-alone dental plan's pediatric portion: pediatric-dental.ts). */
  addOn?: (plan: MarketPlan) => Cents,
): RankedPlan | undefined {
  const pricer = new HouseholdPricer(year, household, members, EVERYONE, {
    ignoreTobacco: true,
    coverageFamily: true,
  });
  const sums: PlanSums = { premium: 0, ehbPremium: 0, aptcEligiblePremium: 0 };
  const amounts: Cents[] = [];
  const offered: MarketPlan[] = [];
  const terms = termsOfAll(plans, household.effectiveDate, year);
  for (const i of terms.silver) {
    if (pricer.ineligible(terms.plans[i]!).length > 0) continue;
    const extra = addOn ? addOn(terms.plans[i]!) : 0;
    if (pricer.quick(terms, i, sums)) {
      amounts.push(sums.ehbPremium + extra);
    } else {
      const priced = pricer.price(terms.plans[i]!);
      if (!priced.available) continue;
      amounts.push(priced.ehbPremium + extra);
    }
    offered.push(terms.plans[i]!);
  }
  const amount = secondLowestCost(amounts);
  if (amount === undefined) return undefined;
  let plan: MarketPlan | undefined;
  amounts.forEach((a, i) => {
    if (a === amount && (plan === undefined || offered[i]!.id < plan.id)) plan = offered[i];
  });
  return { plan: plan!, amount };
}
