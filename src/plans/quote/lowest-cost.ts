import type { Member } from '../household/household.js';
import type { MarketPlan } from '../market/county-market.js';
import type { RankedPlan } from './benchmark-plan.js';
import { HouseholdPricer } from './household-pricer.js';
import type { MarketContext } from './priced-context.js';

/** The people who enrol: those without other minimum essential coverage (`has_mec`). */
export const enrolling = (context: MarketContext): Member[] =>
  context.household.members.filter((m) => !m.input.has_mec);

/**
 * The lowest-cost plan of a metal for `members`: medical individual-market plans ranked by the members'
 * full premium (tobacco as given), ties by plan id; plans without a rate for them left out, and plans
 * whose issuer does not accept them together (docs/decisions.md#enrollment-rules).
 */
export function lowestByPremium(
  context: MarketContext,
  metal: 'Silver' | 'Bronze',
  members: readonly Member[],
): RankedPlan | undefined {
  const { market, household, year } = context;
  const ranked: RankedPlan[] = [];
  const candidates = market.plans.filter(
    (p: MarketPlan) => p.metalLevel === metal && !p.dental && p.market === 'Individual',
  );
  const pricer = new HouseholdPricer(year, household, members, () => true);
  for (const plan of candidates) {
    if (pricer.ineligible(plan).length > 0) continue;
    const priced = pricer.price(plan);
    if (priced.available) ranked.push({ plan, amount: priced.premium });
  }
  ranked.sort((a, b) => a.amount - b.amount || (a.plan.id < b.plan.id ? -1 : 1));
  return ranked[0];
}

/**
 * How many medical individual-market plans of the metal the issuers' business rules refuse for `members`
 * (for the 1016 answer's reason).
 */
export function refusedPlans(context: MarketContext, metal: string, members: readonly Member[]): number {
  const { market, household, year } = context;
  const pricer = new HouseholdPricer(year, household, members, () => true);
  return market.plans.filter(
    (p) =>
      p.metalLevel === metal && !p.dental && p.market === 'Individual' && pricer.ineligible(p).length > 0,
  ).length;
}
