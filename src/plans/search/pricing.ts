import { secondLowestCost, applyCredit } from '../eligibility/aptc.js';
import { csrVariantForPlan, type CsrOverride } from '../eligibility/csr.js';
import type { HouseholdEligibility, Member, SettledHousehold } from '../household/household.js';
import type { MarketPlan } from '../market/county-market.js';
import type { TierState } from '../pricing/family-tier.js';
import type { Cents } from '../pricing/money.js';
import { householdPremium, type HouseholdPremium, type PricedMember } from '../pricing/premium.js';
import { FEDERAL_MAX_TOBACCO_LOOKBACK_MONTHS, ratedAsTobaccoUser } from '../pricing/tobacco.js';
import type { CsrVariant } from '../store/plan-detail.js';

const TIER_STATES = new Set<string>(['NY', 'VT']);

/** Why a plan has no premium for the household, in words (the answer's `premium_unavailable`). */
export function unavailableReason(
  plan: MarketPlan,
  premium: HouseholdPremium & { available: false },
): string {
  if (plan.rateSource === 'none') return 'no rates are loaded for this plan in the rating area';
  const first = premium.missing[0]!;
  const who = `household.people[${first.index}]`;
  if (plan.rateSource === 'landscape' && first.tobacco) {
    return `${who} is rated as a tobacco user and the QHP Landscape file publishes non-tobacco premiums only`;
  }
  return first.reason === 'no-tier-factor'
    ? `no family tier fits the covered members (${who})`
    : `no rate for age band "${first.ageKey}"${first.tobacco ? ' (tobacco user)' : ''} in the rating area (${who})`;
}

export interface PricingOptions {
  /** Rate everyone as a non-user (the benchmark ignores the tobacco surcharge, 26 CFR 1.36B-3(e)). */
  ignoreTobacco?: boolean;
}

/**
 * The household's members as one plan rates them: tobacco use by the plan's look-back (Business Rules PUF,
 * else the federal 6 months) — or, for the plan a person is enrolled in (`current_enrollment`), the tobacco
 * status they enrolled with (CMS Marketplace API, POST /plans/{plan_id}).
 */
export function membersFor(
  plan: MarketPlan,
  household: SettledHousehold,
  members: readonly Member[],
  aptcEligible: (member: Member) => boolean,
  options: PricingOptions = {},
): PricedMember[] {
  const lookback = plan.tobaccoLookback ?? FEDERAL_MAX_TOBACCO_LOOKBACK_MONTHS;
  return members.map((m) => {
    const current = m.input.current_enrollment;
    const tobacco = options.ignoreTobacco
      ? false
      : current && current.plan_id === plan.id && current.uses_tobacco !== undefined
        ? current.uses_tobacco
        : ratedAsTobaccoUser(m.input, household.effectiveDate, lookback);
    return {
      age: m.age,
      tobacco,
      hasMec: m.input.has_mec ?? false,
      doesNotCohabitate: m.input.does_not_cohabitate ?? false,
      aptcEligible: aptcEligible(m),
      relationship: m.input.relationship ?? (m.index === 0 ? 'Self' : null),
    };
  });
}

/** One plan's premium for priced members, or unavailable (no rates for the date, or a missing row). */
export function pricePlan(
  plan: MarketPlan,
  year: number,
  effectiveDate: string,
  members: PricedMember[],
): HouseholdPremium {
  const rates = plan.ratesOn(effectiveDate);
  if (!rates) return { available: false, missing: [] };
  const state = plan.id.slice(5, 7);
  return householdPremium(members, {
    planYear: year,
    rates,
    // Landscape files of 2014–2015 publish no EHB share: the whole premium counts (see README).
    ehbShare: plan.ehbShare ?? 1,
    catastrophic: plan.catastrophic,
    familyTierState: plan.rateSource === 'rate-puf' && TIER_STATES.has(state) ? (state as TierState) : null,
  });
}

/** Silver medical plans of the individual market: the plans a benchmark is chosen from. */
function benchmarkCandidates(plans: readonly MarketPlan[]): MarketPlan[] {
  return plans.filter((p) => p.metalLevel === 'Silver' && !p.dental && p.market === 'Individual');
}

export interface RankedPlan {
  plan: MarketPlan;
  /** The amount the plan was ranked by, cents a month. */
  amount: Cents;
}

/**
 * Silver plans ranked by the EHB premium of `members`, tobacco ignored (26 U.S.C. 36B(b)(3)(B); 26 CFR
 * 1.36B-3(f)), cheapest first, ties by plan id; plans without a rate for the members are left out.
 */
export function rankSilverByEhb(
  plans: readonly MarketPlan[],
  year: number,
  household: SettledHousehold,
  members: readonly Member[],
): RankedPlan[] {
  const ranked: RankedPlan[] = [];
  for (const plan of benchmarkCandidates(plans)) {
    const priced = pricePlan(
      plan,
      year,
      household.effectiveDate,
      membersFor(plan, household, members, () => true, { ignoreTobacco: true }).map((m) => ({
        ...m,
        hasMec: false,
      })),
    );
    if (priced.available) ranked.push({ plan, amount: priced.ehbPremium });
  }
  return ranked.sort((a, b) => a.amount - b.amount || (a.plan.id < b.plan.id ? -1 : 1));
}

/** The SLCSP benchmark for `members`: the second-lowest distinct silver EHB premium (aptc.ts), with its plan. */
export function benchmarkPlan(
  plans: readonly MarketPlan[],
  year: number,
  household: SettledHousehold,
  members: readonly Member[],
): RankedPlan | undefined {
  const ranked = rankSilverByEhb(plans, year, household, members);
  const amount = secondLowestCost(ranked.map((r) => r.amount));
  return amount === undefined ? undefined : ranked.find((r) => r.amount === amount);
}

/** A plan priced for the household, with the credit applied. */
export interface PricedPlan {
  plan: MarketPlan;
  /** The cost-sharing variant the household sees (csr.ts). */
  csr: CsrVariant;
  premium: HouseholdPremium;
  credit: Cents;
  premiumWithCredit: Cents;
}

/** Prices every plan of the list for the household and applies the credit of its eligibility. */
export function priceAll(
  plans: readonly MarketPlan[],
  year: number,
  household: SettledHousehold,
  eligibility: HouseholdEligibility,
  csrOverride: CsrOverride | undefined,
): PricedPlan[] {
  const eligibleOf = (m: Member) => eligibility.people[m.index]?.aptcEligible ?? false;
  return plans.map((plan) => {
    const premium = pricePlan(
      plan,
      year,
      household.effectiveDate,
      membersFor(plan, household, household.members, eligibleOf),
    );
    const csr = csrVariantForPlan(eligibility.csr, plan.metalLevel, csrOverride);
    if (!premium.available) return { plan, csr, premium, credit: 0, premiumWithCredit: 0 };
    const { credit, premiumWithCredit } = applyCredit(eligibility.aptc.aptc, {
      premium: premium.premium,
      aptcEligiblePremium: premium.aptcEligiblePremium,
      catastrophic: plan.catastrophic,
    });
    return { plan, csr, premium, credit, premiumWithCredit };
  });
}
