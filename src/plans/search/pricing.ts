import { applyCredit, creditOn, premiumAfterCredit, secondLowestCost } from '../eligibility/aptc.js';
import { csrVariantForPlan, type CsrOverride } from '../eligibility/csr.js';
import type { HouseholdEligibility, Member, SettledHousehold } from '../household/household.js';
import type { MarketPlan } from '../market/county-market.js';
import type { TierState } from '../pricing/family-tier.js';
import {
  householdPremium,
  rateHousehold,
  ratedPremium,
  type HouseholdPremium,
  type PricedMember,
  type RatedHousehold,
} from '../pricing/premium.js';
import { rateAgeKey, ratingAge, type AgeRule } from '../pricing/age.js';
import { applyScaledShare, scaledShare, type Cents } from '../pricing/money.js';
import { FEDERAL_MAX_TOBACCO_LOOKBACK_MONTHS, ratedAsTobaccoUser } from '../pricing/tobacco.js';
import type { CsrVariant } from '../store/plan-detail.js';
import { perObject } from '../../shared/memo.js';

const TIER_STATES = new Set<string>(['NY', 'VT']);

/** `premium_unavailable` when the request names nobody: a sum over no one is no premium of $0. */
const NO_HOUSEHOLD = 'no household: give household.people (an age or dob each) to price the plan';
const NO_ENROLLEE =
  'nobody enrols: every person of household.people has other minimum essential coverage (has_mec)';

/** Why a plan has no premium for the household, in words (the answer's `premium_unavailable`). */
function unavailableReason(
  plan: MarketPlan,
  premium: HouseholdPremium & { available: false },
  effectiveDate: string,
): string {
  if (plan.rateSource === 'none') return 'no rates are loaded for this plan in the rating area';
  const first = premium.missing[0];
  // No member's row is missing: the plan has no rates in force that day (`ratesOn`).
  if (!first) return `no rate of this plan is in force on the effective date ${effectiveDate}`;
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
  /** Keep each member's premium in the result (`members`); searches need only the sums. */
  memberDetail?: boolean;
  /** Everyone given is rated, `has_mec` or not: they are a benchmark's coverage family (26 CFR 1.36B-3(b)). */
  coverageFamily?: boolean;
}

const NOBODY_ENROLLED: ReadonlySet<string> = new Set();

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
    };
    const detail = this.options.memberDetail ?? false;
    if (tier) {
      return householdPremium(members, { ...rating, cohabitationRequired: plan.cohabitationRequired });
    }
    // Living apart changes who is rated only under the plan's own cohabitation rule: prepared per plan.
    if (plan.cohabitationRequired && this.apart) {
      return ratedPremium(rateHousehold(members, this.year, plan.cohabitationRequired), rating, detail);
    }
    const prepared = this.enrolledIn.has(plan.id)
      ? rateHousehold(members, this.year)
      : this.preparedFor(rulesOf(plan), plan);
    return ratedPremium(prepared, rating, detail);
  }

  /** The prepared household of plans with these rules (`plan` is one of them; nobody is enrolled in it). */
  private preparedFor(rules: number, plan: MarketPlan): RatedHousehold {
    let prepared = this.prepared.get(rules);
    if (!prepared) {
      prepared = rateHousehold(this.membersFor(plan), this.year);
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

/**
 * Whether the credit can pay for the plan: a qualified health plan of the individual market
 * (26 U.S.C. 36B(c)(3)(A)) that is not catastrophic. SHOP plans are employer coverage; a stand-alone
 * dental plan could take the credit only for its pediatric EHB portion, which no file we load states,
 * so it takes none here.
 */
function creditable(plan: MarketPlan): boolean {
  return plan.market === 'Individual' && !plan.catastrophic && !plan.dental;
}

/** NY and VT rate Rate PUF plans by family tier (family-tier.ts); landscape years have no such rows. */
function tierStateOf(plan: MarketPlan): TierState | null {
  if (plan.rateSource !== 'rate-puf') return null;
  const state = plan.id.slice(5, 7);
  return TIER_STATES.has(state) ? (state as TierState) : null;
}

/** Ages past this share the last Rate PUF band (`64 and over`). */
const LAST_BAND_AGE = 64;

/** A plan's issuer rules that change who is rated how, as one number: tobacco look-back × 2 (+1: 1 January ages). */
function rulesOf(plan: MarketPlan): number {
  const lookback = plan.tobaccoLookback ?? FEDERAL_MAX_TOBACCO_LOOKBACK_MONTHS;
  return lookback * 2 + (plan.ageRule === 'january-1' ? 1 : 0);
}

/**
 * What pricing needs of a list of plans (a county market's) on one effective date, worked out once per
 * list and date and shared by every household priced against it. The rates form a matrix by age band,
 * then plan — `individual[age × plans + i]`, cents, -1 where plan `i` has no row — so a member's rates
 * for all the plans lie side by side; `tobacco` holds a user's rate (the tobacco rate, or the individual
 * rate on a `No Preference` row). `ratedPremium` stays the reference and takes over for any plan the
 * matrix does not price.
 */
export interface ListTerms {
  plans: readonly MarketPlan[];
  individual: Int32Array;
  tobacco: Int32Array;
  /** `EHBPercentTotalPremium` in billionths; landscape files of 2014–2015 publish none: the whole premium counts (see README). */
  ehbShare: Float64Array;
  /** 1 where the credit can pay for the plan (`creditable`). */
  creditable: Uint8Array;
  /** `rulesOf(plan)`: who is rated how. */
  rules: Int32Array;
  /** 1 where only the reference path prices the plan: NY/VT family tiers, or no rates in force that day. */
  reference: Uint8Array;
  /** 1 where the issuer has a cohabitation rule (Business Rules PUF). */
  cohabitationRule: Uint8Array;
  /** Indexes of the silver medical plans of the individual market: the plans a benchmark is chosen from. */
  silver: number[];
}

/** Ages 0–64: the Rate PUF bands a person is rated in (`rateAgeKey`); older ages share the last. */
const AGES = LAST_BAND_AGE + 1;

function readTerms(plans: readonly MarketPlan[], date: string, year: number): ListTerms {
  const n = plans.length;
  const terms: ListTerms = {
    plans,
    individual: new Int32Array(AGES * n).fill(-1),
    tobacco: new Int32Array(AGES * n).fill(-1),
    ehbShare: new Float64Array(n),
    creditable: new Uint8Array(n),
    rules: new Int32Array(n),
    reference: new Uint8Array(n),
    cohabitationRule: new Uint8Array(n),
    silver: [],
  };
  const keys = Array.from({ length: AGES }, (_, age) => rateAgeKey(age, year));
  plans.forEach((plan, i) => {
    const lookup = tierStateOf(plan) === null ? plan.ratesOn(date) : undefined;
    if (lookup) {
      for (let age = 0; age < AGES; age += 1) {
        const plain = lookup(keys[age]!, false);
        const user = lookup(keys[age]!, true);
        if (plain) terms.individual[age * n + i] = plain.individualRate;
        if (user) terms.tobacco[age * n + i] = user.tobaccoRate ?? user.individualRate;
      }
    }
    terms.reference[i] = lookup ? 0 : 1;
    terms.ehbShare[i] = scaledShare(plan.ehbShare ?? 1);
    terms.creditable[i] = creditable(plan) ? 1 : 0;
    terms.rules[i] = rulesOf(plan);
    terms.cohabitationRule[i] = plan.cohabitationRequired ? 1 : 0;
    if (plan.metalLevel === 'Silver' && !plan.dental && plan.market === 'Individual') terms.silver.push(i);
  });
  return terms;
}

/** Effective dates whose terms are kept per list (a year has at most a few rate periods). */
const MAX_TERM_DATES = 8;
const termsByList = perObject<readonly MarketPlan[], string, ListTerms>(MAX_TERM_DATES);

/** The terms of a list of plans on a date, cached per list (lists live in cached county markets). */
export function termsOfAll(plans: readonly MarketPlan[], date: string, year: number): ListTerms {
  return termsByList(plans, `${year}|${date}`, () => readTerms(plans, date, year));
}

const EVERYONE = () => true;

export interface RankedPlan {
  plan: MarketPlan;
  /** The amount the plan was ranked by, cents a month. */
  amount: Cents;
}

/**
 * The SLCSP benchmark for `members`: silver plans by the EHB premium of the members, tobacco ignored
 * (26 U.S.C. 36B(b)(3)(B); 26 CFR 1.36B-3(f)), plans without a rate for them left out; the second-lowest
 * distinct amount (aptc.ts `secondLowestCost`), with the plan of that amount that comes first by id.
 */
export function benchmarkPlan(
  plans: readonly MarketPlan[],
  year: number,
  household: SettledHousehold,
  members: readonly Member[],
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
    if (pricer.quick(terms, i, sums)) {
      amounts.push(sums.ehbPremium);
    } else {
      const priced = pricer.price(terms.plans[i]!);
      if (!priced.available) continue;
      amounts.push(priced.ehbPremium);
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

/** A plan priced for the household, with the credit applied. */
export interface PricedPlan {
  plan: MarketPlan;
  /** The cost-sharing variant the household sees (csr.ts). */
  csr: CsrVariant;
  premium: HouseholdPremium;
  credit: Cents;
  premiumWithCredit: Cents;
  /** Why there is no premium (`premium_unavailable`); set exactly when `premium` is unavailable. */
  unavailable?: string;
}

/** A plan's sums with the credit applied (`CreditPricer.quick`), cents. */
export interface CreditedSums extends PlanSums {
  credit: Cents;
  premiumWithCredit: Cents;
}

/**
 * A household's plans priced and credited one at a time: the variant each shows, its premium (`price`, or
 * the allocation-free `quick` that searches use for most plans), and the credit of its eligibility.
 */
export class CreditPricer {
  readonly pricer: HouseholdPricer;
  private readonly aptc: Cents;
  /** Why nobody is priced: no people, or everyone has other coverage (`has_mec`) and so does not enrol. */
  private readonly nobody: string | undefined;
  private readonly silverCsr: CsrVariant;
  private readonly otherCsr: CsrVariant;

  constructor(
    year: number,
    private readonly household: SettledHousehold,
    eligibility: HouseholdEligibility,
    csrOverride: CsrOverride | undefined,
  ) {
    const eligibleOf = (m: Member) => eligibility.people[m.index]?.aptcEligible ?? false;
    this.pricer = new HouseholdPricer(year, household, household.members, eligibleOf);
    this.aptc = eligibility.aptc.aptc;
    this.nobody =
      household.members.length === 0
        ? NO_HOUSEHOLD
        : household.members.every((m) => m.input.has_mec)
          ? NO_ENROLLEE
          : undefined;
    // The variant depends on the metal level only as silver or not (csr.ts).
    this.silverCsr = csrVariantForPlan(eligibility.csr, 'Silver', csrOverride);
    this.otherCsr = csrVariantForPlan(eligibility.csr, 'Gold', csrOverride);
  }

  /** The cost-sharing variant of `plan` the household sees. */
  csrFor(plan: MarketPlan): CsrVariant {
    return plan.metalLevel === 'Silver' ? this.silverCsr : this.otherCsr;
  }

  /** The plan priced in full, with the reason when it has no premium. */
  full(plan: MarketPlan): PricedPlan {
    const csr = this.csrFor(plan);
    if (this.nobody) {
      const premium: HouseholdPremium = { available: false, missing: [] };
      return { plan, csr, premium, credit: 0, premiumWithCredit: 0, unavailable: this.nobody };
    }
    const premium = this.pricer.price(plan);
    if (!premium.available) {
      const unavailable = unavailableReason(plan, premium, this.household.effectiveDate);
      return { plan, csr, premium, credit: 0, premiumWithCredit: 0, unavailable };
    }
    const { credit, premiumWithCredit } = applyCredit(this.aptc, {
      premium: premium.premium,
      aptcEligiblePremium: premium.aptcEligiblePremium,
      catastrophic: !creditable(plan),
    });
    return { plan, csr, premium, credit, premiumWithCredit };
  }

  /** `full`'s figures into `out` without allocating; false when the plan needs `full` (HouseholdPricer.quick). */
  quick(terms: ListTerms, i: number, out: CreditedSums): boolean {
    if (this.nobody || !this.pricer.quick(terms, i, out)) return false;
    out.credit = creditOn(this.aptc, out.aptcEligiblePremium, terms.creditable[i] !== 1);
    out.premiumWithCredit = premiumAfterCredit(out.premium, out.credit);
    return true;
  }
}

/** Prices every plan of the list for the household and applies the credit of its eligibility. */
export function priceAll(
  plans: readonly MarketPlan[],
  year: number,
  household: SettledHousehold,
  eligibility: HouseholdEligibility,
  csrOverride: CsrOverride | undefined,
): PricedPlan[] {
  const pricer = new CreditPricer(year, household, eligibility, csrOverride);
  return plans.map((plan) => pricer.full(plan));
}
