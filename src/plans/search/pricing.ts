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
}

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
  private readonly byRules = new Map<number, PricedMember[]>();

  constructor(
    private readonly year: number,
    private readonly household: SettledHousehold,
    private readonly members: readonly Member[],
    private readonly aptcEligible: (member: Member) => boolean,
    private readonly options: PricingOptions = {},
  ) {
    this.enrolledIn = new Set(
      members.flatMap((m) => (m.input.current_enrollment ? [m.input.current_enrollment.plan_id] : [])),
    );
    this.apart = members.some((m) => m.input.does_not_cohabitate === true);
  }

  private build(tobaccoOf: (m: Member) => boolean, ageRule: AgeRule): PricedMember[] {
    const date = this.household.effectiveDate;
    return this.members.map((m) => ({
      // `age` as given wins; a `dob` is read on the date the issuer's rule names (pricing/age.ts).
      age: ageRule === 'effective-date' ? m.age : ageOnJanuary1(m, date),
      tobacco: this.options.ignoreTobacco ? false : tobaccoOf(m),
      hasMec: m.input.has_mec ?? false,
      doesNotCohabitate: m.input.does_not_cohabitate ?? false,
      aptcEligible: this.aptcEligible(m),
      relationship: m.input.relationship ?? (m.index === 0 ? 'Self' : null),
    }));
  }

  /** Plans someone is enrolled in (`current_enrollment`): priced with that person's enrolment status. */
  private readonly enrolledIn: Set<string>;

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

  private readonly premiums = new Map<MarketPlan, HouseholdPremium>();

  /** The plan's premium for the household, or unavailable (no rates in force that day, or a missing row). */
  price(plan: MarketPlan): HouseholdPremium {
    let premium = this.premiums.get(plan);
    if (!premium) {
      premium = this.priceOnce(plan);
      this.premiums.set(plan, premium);
    }
    return premium;
  }

  private priceOnce(plan: MarketPlan): HouseholdPremium {
    const date = this.household.effectiveDate;
    const members = this.membersFor(plan);
    const tier = tierStateOf(plan);
    const cohabitation = plan.cohabitationRequired && members.some((m) => m.doesNotCohabitate);
    const detail = this.options.memberDetail ?? false;
    if (!tier && !cohabitation && !detail) {
      // The common case, from the plan's dense rates; anything unusual goes the reference way below.
      const terms = termsOf(plan, date, this.year);
      if (terms.rates === null) return { available: false, missing: [] };
      const sums: PlanSums = { premium: 0, ehbPremium: 0, aptcEligiblePremium: 0 };
      if (this.quick(terms, sums)) {
        // The county market carries no pediatric dental apportionment (premium.ts `pediatricDentalEhb`).
        return { available: true, ...sums, pediatricEhbPremium: null, members: [] };
      }
    }
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
    if (tier) {
      return householdPremium(members, { ...rating, cohabitationRequired: plan.cohabitationRequired });
    }
    // Living apart changes who is rated only under the plan's own cohabitation rule: prepared per plan.
    return ratedPremium(rateHousehold(members, this.year, plan.cohabitationRequired), rating, detail);
  }

  /** Someone lives apart from the subscriber (`does_not_cohabitate`): plans with a cohabitation rule differ. */
  private readonly apart: boolean;
  /** Per issuer rules (`PlanTerms.rules`): the rated members as `quick` reads them. */
  private readonly dense = new Map<number, DenseMembers>();
  private lastRules = -1;
  private lastDense: DenseMembers | undefined;

  private denseMembers(terms: PlanTerms): DenseMembers {
    if (terms.rules === this.lastRules) return this.lastDense!;
    let found = this.dense.get(terms.rules);
    if (!found) {
      found = denseMembersOf(rateHousehold(this.membersFor(terms.plan), this.year));
      this.dense.set(terms.rules, found);
    }
    this.lastRules = terms.rules;
    this.lastDense = found;
    return found;
  }

  /**
   * The plan's premium, EHB premium and APTC-eligible premium for the household into `out`, read from its
   * dense rates: `ratedPremium`'s sums and EHB steps without allocating. False when the plan must be priced
   * by `price` instead (family tiers, a cohabitation rule with someone living apart, a plan someone is
   * enrolled in, no rates in force, a member without a rate), which also says why.
   */
  quick(terms: PlanTerms, out: PlanSums): boolean {
    const rates = terms.rates;
    if (rates === null || terms.tier || (this.apart && terms.cohabitationRule)) return false;
    if (this.enrolledIn.size > 0 && this.enrolledIn.has(terms.plan.id)) return false;
    const { count, ages, tobacco, eligible } = this.denseMembers(terms);
    let total = 0;
    let eligibleTotal = 0;
    for (let i = 0; i < count; i += 1) {
      const rate = tobacco[i] === 1 ? rates.tobacco[ages[i]!]! : rates.individual[ages[i]!]!;
      if (rate < 0) return false;
      total += rate;
      if (eligible[i] === 1) eligibleTotal += rate;
    }
    out.premium = total;
    out.ehbPremium = applyScaledShare(total, terms.ehbShare);
    out.aptcEligiblePremium = terms.creditable ? applyScaledShare(eligibleTotal, terms.ehbShare) : 0;
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
  ages: Int32Array;
  tobacco: Uint8Array;
  eligible: Uint8Array;
}

function denseMembersOf(household: RatedHousehold): DenseMembers {
  const rated = household.members.filter((_, i) => household.statuses[i] === 'rated');
  return {
    count: rated.length,
    ages: Int32Array.from(rated, (m) => Math.min(m.age, LAST_BAND_AGE)),
    tobacco: Uint8Array.from(rated, (m) => (m.tobacco ? 1 : 0)),
    eligible: Uint8Array.from(rated, (m) => (m.aptcEligible ? 1 : 0)),
  };
}

/**
 * Whether the credit can pay for the plan: a qualified health plan of the individual market
 * (26 U.S.C. 36B(c)(3)(A)) that is not catastrophic. SHOP plans are employer coverage; a stand-alone
 * dental plan could take the credit only for its pediatric EHB portion, which no file we load states,
 * so it takes none here.
 */
export function creditable(plan: MarketPlan): boolean {
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
 * A plan's rates on one date as two arrays indexed by age 0–64 (cents; -1 where the plan has no row):
 * the rate of a non-user, and of a tobacco user (the tobacco rate, or the individual rate on a `No
 * Preference` row). Read through the plan's own lookup once, so a search prices each plan with array
 * reads; `ratedPremium` stays the reference and takes over whenever a row is missing.
 */
interface DenseRates {
  individual: Int32Array;
  tobacco: Int32Array;
}

/**
 * What pricing needs of one plan on one effective date, worked out once per plan and date: its rates by
 * age, its EHB share in billionths, whether the credit applies, its issuer rules, and whether it is rated
 * by family tiers (which the reference path prices).
 */
export interface PlanTerms {
  plan: MarketPlan;
  /** Null when the plan has no rates in force that day. */
  rates: DenseRates | null;
  /** `EHBPercentTotalPremium` in billionths; landscape files of 2014–2015 publish none: the whole premium counts (see README). */
  ehbShare: number;
  creditable: boolean;
  /** `rulesOf(plan)`. */
  rules: number;
  tier: boolean;
  /** The issuer has a cohabitation rule (Business Rules PUF). */
  cohabitationRule: boolean;
}

function readTerms(plan: MarketPlan, date: string, year: number): PlanTerms {
  const tier = tierStateOf(plan) !== null;
  const lookup = tier ? undefined : plan.ratesOn(date);
  let rates: DenseRates | null = null;
  if (lookup) {
    rates = { individual: new Int32Array(LAST_BAND_AGE + 1), tobacco: new Int32Array(LAST_BAND_AGE + 1) };
    for (let age = 0; age <= LAST_BAND_AGE; age += 1) {
      const key = rateAgeKey(age, year);
      const plain = lookup(key, false);
      const user = lookup(key, true);
      rates.individual[age] = plain ? plain.individualRate : -1;
      rates.tobacco[age] = user ? (user.tobaccoRate ?? user.individualRate) : -1;
    }
  }
  return {
    plan,
    rates,
    ehbShare: scaledShare(plan.ehbShare ?? 1),
    creditable: creditable(plan),
    rules: rulesOf(plan),
    tier,
    cohabitationRule: plan.cohabitationRequired !== undefined,
  };
}

/** Effective dates whose terms are kept per plan (a year has at most a few rate periods). */
const MAX_TERM_DATES = 8;
const termsByPlan = new WeakMap<MarketPlan, Map<string, PlanTerms>>();

/** The plan's terms on the date (cached per plan: plans live in cached county markets). */
export function termsOf(plan: MarketPlan, date: string, year: number): PlanTerms {
  let byDate = termsByPlan.get(plan);
  if (!byDate) {
    byDate = new Map();
    termsByPlan.set(plan, byDate);
  }
  const key = `${year}|${date}`;
  let terms = byDate.get(key);
  if (!terms) {
    terms = readTerms(plan, date, year);
    if (byDate.size >= MAX_TERM_DATES) byDate.clear();
    byDate.set(key, terms);
  }
  return terms;
}

const termsByList = new WeakMap<readonly MarketPlan[], Map<string, PlanTerms[]>>();

/** `termsOf` every plan of a list, in its order (cached per list: one lookup per search, not per plan). */
export function termsOfAll(plans: readonly MarketPlan[], date: string, year: number): PlanTerms[] {
  let byDate = termsByList.get(plans);
  if (!byDate) {
    byDate = new Map();
    termsByList.set(plans, byDate);
  }
  const key = `${year}|${date}`;
  let all = byDate.get(key);
  if (!all) {
    all = plans.map((plan) => termsOf(plan, date, year));
    if (byDate.size >= MAX_TERM_DATES) byDate.clear();
    byDate.set(key, all);
  }
  return all;
}

/** Silver medical plans of the individual market, with their terms: the plans a benchmark is chosen from. */
const silverOf = new WeakMap<readonly PlanTerms[], PlanTerms[]>();
function benchmarkCandidates(all: readonly PlanTerms[]): PlanTerms[] {
  let silver = silverOf.get(all);
  if (!silver) {
    silver = all.filter(
      ({ plan }) => plan.metalLevel === 'Silver' && !plan.dental && plan.market === 'Individual',
    );
    silverOf.set(all, silver);
  }
  return silver;
}

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
  // Members of the coverage family have no other MEC by definition; everyone given is rated.
  const pricer = new HouseholdPricer(
    year,
    household,
    members.map((m) => ({ ...m, input: { ...m.input, has_mec: false } })),
    () => true,
    { ignoreTobacco: true },
  );
  const sums: PlanSums = { premium: 0, ehbPremium: 0, aptcEligiblePremium: 0 };
  const amounts: Cents[] = [];
  const offered: MarketPlan[] = [];
  for (const terms of benchmarkCandidates(termsOfAll(plans, household.effectiveDate, year))) {
    if (pricer.quick(terms, sums)) {
      amounts.push(sums.ehbPremium);
    } else {
      const priced = pricer.price(terms.plan);
      if (!priced.available) continue;
      amounts.push(priced.ehbPremium);
    }
    offered.push(terms.plan);
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
  quick(terms: PlanTerms, out: CreditedSums): boolean {
    if (this.nobody || !this.pricer.quick(terms, out)) return false;
    out.credit = creditOn(this.aptc, out.aptcEligiblePremium, !terms.creditable);
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
