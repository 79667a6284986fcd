import type { Member, SettledHousehold } from '../household/household.js';
import type { MarketPlan } from '../market/county-market.js';
import type { Cents } from '../pricing/money.js';
import { benchmarkPlan, type RankedPlan } from './benchmark-plan.js';
import { HouseholdPricer } from './household-pricer.js';

/** Pediatric services, dental among them, are for people under 19 (45 CFR 156.115(a)(6)). */
const PEDIATRIC_AGE_LIMIT = 19;

/** The credit's benchmark: the SLCSP's EHB premium, plus a stand-alone dental plan's pediatric portion. */
export interface CreditBenchmark {
  /** The benchmark silver plan; its `amount` is what it was ranked by (with any pediatric portion added). */
  silver: RankedPlan;
  /** The stand-alone dental plan whose pediatric portion is in the benchmark, and that portion (cents). */
  dental: RankedPlan | undefined;
  amount: Cents;
  /** Why the pediatric dental portion could not be worked out, when it may be owed (the answer's data_notes). */
  note: string | undefined;
}

/** From this taxable year the portion is added to each silver plan before ranking (TD 9804, 2016). */
const RANK_WITH_DENTAL_FROM = 2019;

const LOW = 'so the credit may be low for this household with children under 19';

/**
 * The benchmark of the credit for `members` (26 CFR 1.36B-3(f); docs/decisions.md#pediatric-dental): the
 * second-lowest-cost silver plan's EHB premium (benchmark-plan.ts), with pediatric dental for the members
 * under 19 when a silver plan does not cover it:
 * - from 2019 (§ 1.36B-3(f)(6) as amended by TD 9804): each silver plan without pediatric dental is ranked
 *   with the pediatric dental EHB portion of the LOWEST-cost stand-alone dental plan's premium added, and
 *   the benchmark is the second lowest of those sums;
 * - before 2019: when the benchmark silver plan does not cover pediatric dental, the portion of the
 *   SECOND-lowest-cost stand-alone dental plan is added to its premium.
 * Where the loaded data cannot tell (a silver plan's dental coverage unknown, no stand-alone dental plan
 * with rates and an apportionment), the silver premiums alone, with a note saying the credit may be low.
 */
export function creditBenchmark(
  plans: readonly MarketPlan[],
  year: number,
  household: SettledHousehold,
  members: readonly Member[],
): CreditBenchmark | undefined {
  const children = members.filter((m) => m.age < PEDIATRIC_AGE_LIMIT);
  if (year >= RANK_WITH_DENTAL_FROM && children.length > 0)
    return rankedWithDental(plans, year, household, members, children);
  const silver = benchmarkPlan(plans, year, household, members);
  if (!silver) return undefined;
  const base = { silver, dental: undefined, amount: silver.amount, note: undefined };
  const covers = silver.plan.dentalCoverage.child;
  if (children.length === 0 || covers === true) return base;
  if (covers === null) return { ...base, note: unknownCoverage(silver.plan.id) };
  const dental = rankedDental(plans, year, household, children)[1];
  if (!dental) return { ...base, note: noDentalPlan(`The benchmark silver plan ${silver.plan.id} does`) };
  return { silver, dental, amount: silver.amount + dental.amount, note: undefined };
}

/** The 2019 rule: the lowest dental portion added to every silver plan without pediatric dental, then ranked. */
function rankedWithDental(
  plans: readonly MarketPlan[],
  year: number,
  household: SettledHousehold,
  members: readonly Member[],
  children: readonly Member[],
): CreditBenchmark | undefined {
  const silverPlans = plans.filter((p) => p.metalLevel === 'Silver' && !p.dental);
  const without = silverPlans.filter((p) => p.dentalCoverage.child === false);
  const unknown = silverPlans.filter((p) => p.dentalCoverage.child === null);
  const dental = without.length > 0 ? rankedDental(plans, year, household, children)[0] : undefined;
  const silver = benchmarkPlan(plans, year, household, members, (plan) =>
    dental && plan.dentalCoverage.child === false ? dental.amount : 0,
  );
  if (!silver) return undefined;
  const added = dental !== undefined && silver.plan.dentalCoverage.child === false;
  let note: string | undefined;
  if (unknown.length > 0) note = unknownCoverage(unknown.map((p) => p.id).join(', '));
  else if (without.length > 0 && !dental)
    note = noDentalPlan(`${without.length} silver plan(s) at the place do`);
  return {
    silver,
    dental: added ? dental : undefined,
    // The ranked amount already holds the portion added to that plan.
    amount: silver.amount,
    note,
  };
}

function unknownCoverage(ids: string): string {
  return (
    `Whether silver plan(s) ${ids} cover pediatric dental care is unknown (no Benefits and Cost Sharing ` +
    `PUF rows for them): the pediatric dental portion of a stand-alone dental plan (26 CFR 1.36B-3(f)(6)) ` +
    `is not in the benchmark, ${LOW}.`
  );
}

function noDentalPlan(who: string): string {
  return (
    `${who} not cover pediatric dental care and no stand-alone dental plan with rates for the children ` +
    `and a pediatric EHB apportionment is loaded for the place: the pediatric dental portion ` +
    `(26 CFR 1.36B-3(f)(6)) is not in the benchmark, ${LOW}.`
  );
}

/**
 * The stand-alone dental plans for the children, ranked by the pediatric dental EHB portion of their
 * premium (its `EHBPediatricDentalApportionmentQuantity` share of the children's premium), tobacco
 * ignored: [the lowest-cost, the second-lowest-cost], equal amounts counting once, as for silver plans (the
 * plan of an amount that comes first by id). Plans without rates for the children, without a stated share,
 * or whose issuer does not accept the children with the household's first person are left out.
 */
function rankedDental(
  plans: readonly MarketPlan[],
  year: number,
  household: SettledHousehold,
  children: readonly Member[],
): [RankedPlan | undefined, RankedPlan | undefined] {
  const pricer = new HouseholdPricer(year, household, children, () => true, {
    ignoreTobacco: true,
    coverageFamily: true,
  });
  // The issuer's rules are checked on the whole coverage family, so a child is judged by their relationship
  // to the household's first person (HouseholdPricer checks nothing without them).
  const rules = new HouseholdPricer(year, household, household.members, () => true, { coverageFamily: true });
  const ranked: RankedPlan[] = [];
  for (const plan of plans) {
    if (!plan.dental || plan.market !== 'Individual' || plan.pediatricDentalShare === null) continue;
    if (rules.ineligible(plan).some((r) => children.some((c) => c.index === r.person))) continue;
    const priced = pricer.price(plan);
    if (priced.available && priced.pediatricEhbPremium !== null) {
      ranked.push({ plan, amount: priced.pediatricEhbPremium });
    }
  }
  const amounts = [...new Set(ranked.map((r) => r.amount))].sort((a, b) => a - b);
  const first = (amount: number | undefined) =>
    amount === undefined
      ? undefined
      : ranked.filter((r) => r.amount === amount).sort((a, b) => (a.plan.id < b.plan.id ? -1 : 1))[0];
  // With one amount only, it is both the lowest and the second lowest (as secondLowestCost answers).
  return [first(amounts[0]), first(amounts[1] ?? amounts[0])];
}
