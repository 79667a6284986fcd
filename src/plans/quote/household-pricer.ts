import type { Member, SettledHousehold } from '../household/household.js';
import type { MarketPlan } from '../market/county-market.js';
import { ratingAge, type AgeRule } from '../pricing/age.js';
import { applyScaledShare, type Cents } from '../pricing/money.js';
import {
  householdPremium,
  rateHousehold,
  ratedPremium,
  type HouseholdPremium,
  type PricedMember,
  type RatedHousehold,
} from '../pricing/premium.js';
import { FEDERAL_MAX_TOBACCO_LOOKBACK_MONTHS, ratedAsTobaccoUser } from '../pricing/tobacco.js';
import { ineligibleReasons, type IneligibleReason } from '../household/enrollment-rules.js';
import type { ListTerms } from './rate-matrix.js';
import { creditable, LAST_BAND_AGE, rulesOf, tierStateOf } from './rating-rules.js';

export interface PricingOptions {
  /** Rate everyone as a non-user (the benchmark ignores the tobacco surcharge, 26 CFR 1.36B-3(e)). */
  ignoreTobacco?: boolean;
  /** Keep each member's premium in the result (`members`); searches need only the sums. */
  memberDetail?: boolean;
  /** Everyone given is rated, `has_mec` or not: they are a benchmark's coverage family (26 CFR 1.36B-3(b)). */
  coverageFamily?: boolean;
}

const NOBODY_ENROLLED: ReadonlySet<string> = new Set();
const NO_REASONS: readonly IneligibleReason[] = [];

/** Age on 1 January of the effective date's year; a child born since then is 0 (not yet born on 1 January). */
function ageOnJanuary1(member: Member, effectiveDate: string): number {
  try {
    return ratingAge(member.input, effectiveDate, 'january-1');
  } catch {
    return 0;
  }
}

/**
 * The household's members as each plan rates them, and their premium for each plan. Tobacco use follows
 * the plan's look-back (Business Rules PUF, else the federal 6 months) — or, for the plan a person is
 * enrolled in (`current_enrollment`), the tobacco status they enrolled with (CMS Marketplace API, POST
 * /plans/{plan_id}). Everything that does not depend on the plan (ages, bands, who is rated under the
 * three-child rule) is settled once per distinct tobacco status and reused for every plan of a search.
 */
export class HouseholdPricer {
  /** Per issuer rules (`rulesOf`): the members as those plans rate them… */
  private readonly byRules = new Map<number, PricedMember[]>();
  /** …who is rated at which band (`ratedPremium` reads it)… */
  private readonly prepared = new Map<number, RatedHousehold>();
  /** …and the same as arrays, for `quick` (the last one asked for at hand: plans mostly share rules). */
  private readonly dense = new Map<number, DenseMembers>();
  private lastRules = -1;
  private lastDense: DenseMembers | undefined;
  private readonly premiums = new Map<MarketPlan, HouseholdPremium>();
  /** Plans someone is enrolled in (`current_enrollment`): priced with that person's enrolment status. */
  private readonly enrolledIn: ReadonlySet<string>;
  /** Someone lives apart from the subscriber (`does_not_cohabitate`): plans with a cohabitation rule differ. */
  private readonly apart: boolean;
  /** Someone besides the first person states a relationship: only then can an issuer's rules refuse them. */
  private readonly dependentsNamed: boolean;
  private readonly reasons = new Map<MarketPlan, readonly IneligibleReason[]>();

  constructor(
    private readonly year: number,
    private readonly household: SettledHousehold,
    private readonly members: readonly Member[],
    private readonly aptcEligible: (member: Member) => boolean,
    private readonly options: PricingOptions = {},
  ) {
    let enrolledIn: Set<string> | undefined;
    let apart = false;
    for (const { input } of members) {
      if (input.current_enrollment) (enrolledIn ??= new Set()).add(input.current_enrollment.plan_id);
      if (input.does_not_cohabitate === true) apart = true;
    }
    this.enrolledIn = enrolledIn ?? NOBODY_ENROLLED;
    this.apart = apart;
    this.dependentsNamed = members.some((m) => m.index > 0 && !!m.input.relationship);
  }

  private build(tobaccoOf: (m: Member) => boolean, ageRule: AgeRule): PricedMember[] {
    const date = this.household.effectiveDate;
    return this.members.map((m) => ({
      // `age` as given wins; a `dob` is read on the date the issuer's rule names (pricing/age.ts).
      age: ageRule === 'effective-date' ? m.age : ageOnJanuary1(m, date),
      tobacco: this.options.ignoreTobacco ? false : tobaccoOf(m),
      // The coverage family of a benchmark has no other MEC by definition (`coverageFamily`).
      hasMec: this.options.coverageFamily ? false : (m.input.has_mec ?? false),
      doesNotCohabitate: m.input.does_not_cohabitate ?? false,
      aptcEligible: this.aptcEligible(m),
      relationship: m.input.relationship ?? (m.index === 0 ? 'Self' : null),
    }));
  }

  /** The members as `plan` rates them. */
  membersFor(plan: MarketPlan): PricedMember[] {
    const lookback = plan.tobaccoLookback ?? FEDERAL_MAX_TOBACCO_LOOKBACK_MONTHS;
    const date = this.household.effectiveDate;
    if (this.enrolledIn.has(plan.id)) {
      return this.build((m) => {
        const current = m.input.current_enrollment;
        return current?.plan_id === plan.id && current.uses_tobacco !== undefined
          ? current.uses_tobacco
          : ratedAsTobaccoUser(m.input, date, lookback);
      }, plan.ageRule);
    }
    const key = rulesOf(plan);
    let members = this.byRules.get(key);
    if (!members) {
      members = this.build((m) => ratedAsTobaccoUser(m.input, date, lookback), plan.ageRule);
      this.byRules.set(key, members);
    }
    return members;
  }

  /**
   * The people of the household the plan's issuer does not accept together with the others (Business
   * Rules PUF: relationships, dependent age under the plan's age rule); empty when all may enrol. People
   * with other coverage (`has_mec`) do not enrol and are not checked, unless this is a coverage family;
   * a policy without the first person is not checked (the relationships given are to that person).
   */
  ineligible(plan: MarketPlan): readonly IneligibleReason[] {
    if (!plan.enrollment || !this.dependentsNamed) return NO_REASONS;
    let reasons = this.reasons.get(plan);
    if (!reasons) {
      const members = this.membersFor(plan);
      const applicants = this.members.flatMap((m, k) =>
        members[k]!.hasMec
          ? []
          : [
              {
                index: m.index,
                label: `household.people[${m.index}]`,
                relationship: m.input.relationship,
                age: members[k]!.age,
                subscriber: m.index === 0,
              },
            ],
      );
      // Relationships are to the first person: without them on the policy, nobody's is to its subscriber.
      reasons = applicants.some((a) => a.subscriber)
        ? ineligibleReasons(applicants, plan.enrollment)
        : NO_REASONS;
      this.reasons.set(plan, reasons);
    }
    return reasons;
  }

  /** The plan's premium for the household, or unavailable (no rates in force that day, or a missing row). */
  price(plan: MarketPlan): HouseholdPremium {
    let premium = this.premiums.get(plan);
    if (!premium) {
      premium = this.priceOnce(plan);
      this.premiums.set(plan, premium);
    }
    return premium;
  }

  /** The reference pricing (premium.ts), per member, for any plan; `quick` gives the same sums for most. */
  private priceOnce(plan: MarketPlan): HouseholdPremium {
    const date = this.household.effectiveDate;
    const members = this.membersFor(plan);
    const tier = tierStateOf(plan);
    const rates = plan.ratesOn(date);
    if (!rates) return { available: false, missing: [] };
    const rating = {
      planYear: this.year,
      rates,
      // Landscape files of 2014–2015 publish no EHB share: the whole premium counts (see README).
      ehbShare: plan.ehbShare ?? 1,
      catastrophic: !creditable(plan),
      familyTierState: tier,
      pediatricDentalShare: plan.pediatricDentalShare,
    };
    const detail = this.options.memberDetail ?? false;
    if (tier) {
      // Family tiers price the policy by its tier: the rated-children limits do not apply there.
      return householdPremium(members, { ...rating, cohabitationRequired: plan.cohabitationRequired });
    }
    // Living apart changes who is rated only under the plan's own cohabitation rule: prepared per plan.
    if (plan.cohabitationRequired && this.apart) {
      const rated = rateHousehold(members, this.year, plan.cohabitationRequired, plan.ratedChildren);
      return ratedPremium(rated, rating, detail);
    }
    const prepared = this.enrolledIn.has(plan.id)
      ? rateHousehold(members, this.year, undefined, plan.ratedChildren)
      : this.preparedFor(rulesOf(plan), plan);
    return ratedPremium(prepared, rating, detail);
  }

  /** The prepared household of plans with these rules (`plan` is one of them; nobody is enrolled in it). */
  private preparedFor(rules: number, plan: MarketPlan): RatedHousehold {
    let prepared = this.prepared.get(rules);
    if (!prepared) {
      prepared = rateHousehold(this.membersFor(plan), this.year, undefined, plan.ratedChildren);
      this.prepared.set(rules, prepared);
    }
    return prepared;
  }

  private denseMembers(rules: number, plan: MarketPlan): DenseMembers {
    if (rules === this.lastRules) return this.lastDense!;
    let found = this.dense.get(rules);
    if (!found) {
      found = denseMembersOf(this.preparedFor(rules, plan));
      this.dense.set(rules, found);
    }
    this.lastRules = rules;
    this.lastDense = found;
    return found;
  }

  /**
   * The premium, EHB premium and APTC-eligible premium of plan `i` of `terms` for the household into `out`,
   * read from the rate matrix: `ratedPremium`'s sums and EHB steps without allocating. False when the plan
   * must be priced by `price` instead (family tiers, a cohabitation rule with someone living apart, a plan
   * someone is enrolled in, no rates in force, a member without a rate), which also says why.
   */
  quick(terms: ListTerms, i: number, out: PlanSums): boolean {
    if (terms.reference[i] === 1 || (this.apart && terms.cohabitationRule[i] === 1)) return false;
    const plan = terms.plans[i]!;
    if (this.enrolledIn.size > 0 && this.enrolledIn.has(plan.id)) return false;
    const { count, ages, tobacco, eligible } = this.denseMembers(terms.rules[i]!, plan);
    const stride = terms.plans.length;
    let total = 0;
    let eligibleTotal = 0;
    for (let k = 0; k < count; k += 1) {
      const rate = (tobacco[k] ? terms.tobacco : terms.individual)[ages[k]! * stride + i]!;
      if (rate < 0) return false;
      total += rate;
      if (eligible[k]) eligibleTotal += rate;
    }
    const share = terms.ehbShare[i]!;
    out.premium = total;
    out.ehbPremium = applyScaledShare(total, share);
    out.aptcEligiblePremium = terms.creditable[i] === 1 ? applyScaledShare(eligibleTotal, share) : 0;
    return true;
  }
}

/** A plan's monthly premium sums for the household, cents (`HouseholdPricer.quick`). */
export interface PlanSums {
  premium: Cents;
  ehbPremium: Cents;
  aptcEligiblePremium: Cents;
}

/** The rated members of a prepared household as arrays: age (clamped to the last band), tobacco, APTC. */
interface DenseMembers {
  count: number;
  ages: number[];
  tobacco: boolean[];
  eligible: boolean[];
}

function denseMembersOf(household: RatedHousehold): DenseMembers {
  const dense: DenseMembers = { count: 0, ages: [], tobacco: [], eligible: [] };
  household.members.forEach((m, i) => {
    if (household.statuses[i] !== 'rated') return;
    dense.count += 1;
    dense.ages.push(Math.min(m.age, LAST_BAND_AGE));
    dense.tobacco.push(m.tobacco);
    dense.eligible.push(m.aptcEligible);
  });
  return dense;
}
