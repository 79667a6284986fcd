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
 * full premium (tobacco as given), ties by plan id; plans without a rate for them left out.
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
    const priced = pricer.price(plan);
    if (priced.available) ranked.push({ plan, amount: priced.premium });
  }
  ranked.sort((a, b) => a.amount - b.amount || (a.plan.id < b.plan.id ? -1 : 1));
  return ranked[0];
}
