import { secondLowestCost, applyCredit } from '../eligibility/aptc.js';
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
import { applyShare, type Cents } from '../pricing/money.js';
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
  private readonly rated = new Map<PricedMember[], RatedHousehold>();

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
    const key = lookback * 2 + (plan.ageRule === 'january-1' ? 1 : 0);
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

  /** Whether `plan` rates anyone of the household as a tobacco user. */
  ratesTobacco(plan: MarketPlan): boolean {
    return this.membersFor(plan).some((m) => m.tobacco);
  }

  /** Whether every person of the household is priced (no `has_mec`), all of them APTC-eligible. */
  get everyoneEligible(): boolean {
    return this.members.every((m) => !m.input.has_mec && this.aptcEligible(m));
  }

  private priceOnce(plan: MarketPlan): HouseholdPremium {
    const date = this.household.effectiveDate;
    const members = this.membersFor(plan);
    const tier = tierStateOf(plan);
    const cohabitation = plan.cohabitationRequired && members.some((m) => m.doesNotCohabitate);
    const detail = this.options.memberDetail ?? false;
    let prepared: RatedHousehold | undefined;
    if (!tier && !cohabitation) {
      prepared = this.rated.get(members);
      if (!prepared) {
        prepared = rateHousehold(members, this.year);
        this.rated.set(members, prepared);
      }
      // The common case, read from dense rate arrays; anything unusual goes the reference way below.
      if (!detail) {
        const table = denseRates(plan, date, this.year);
        if (table === null) return { available: false, missing: [] };
        const fast = densePremium(prepared, table, plan);
        if (fast) return fast;
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
    if (cohabitation) {
      return ratedPremium(rateHousehold(members, this.year, plan.cohabitationRequired), rating, detail);
    }
    return ratedPremium(prepared!, rating, detail);
  }
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

/** Per plan, its dense rates of the last effective date asked for (null: no rates in force that day). */
const dense = new WeakMap<MarketPlan, { date: string; table: DenseRates | null }>();

function denseRates(plan: MarketPlan, date: string, year: number): DenseRates | null {
  const last = dense.get(plan);
  if (last && last.date === date) return last.table;
  const rates = plan.ratesOn(date);
  let table: DenseRates | null = null;
  if (rates) {
    table = { individual: new Int32Array(LAST_BAND_AGE + 1), tobacco: new Int32Array(LAST_BAND_AGE + 1) };
    for (let age = 0; age <= LAST_BAND_AGE; age += 1) {
      const key = rateAgeKey(age, year);
      const plain = rates(key, false);
      const user = rates(key, true);
      table.individual[age] = plain ? plain.individualRate : -1;
      table.tobacco[age] = user ? (user.tobaccoRate ?? user.individualRate) : -1;
    }
  }
  dense.set(plan, { date, table });
  return table;
}

/**
 * `ratedPremium` over dense rates, without per-member detail; undefined when a rated member has no rate
 * (the caller then lets `ratedPremium` say which). The sums and the EHB steps are the same.
 */
function densePremium(
  household: RatedHousehold,
  rates: DenseRates,
  plan: MarketPlan,
): HouseholdPremium | undefined {
  const { members, statuses } = household;
  let total = 0;
  let eligible = 0;
  for (let i = 0; i < members.length; i += 1) {
    if (statuses[i] !== 'rated') continue;
    const member = members[i]!;
    const age = member.age > LAST_BAND_AGE ? LAST_BAND_AGE : member.age;
    const rate = member.tobacco ? rates.tobacco[age]! : rates.individual[age]!;
    if (rate < 0) return undefined;
    total += rate;
    if (member.aptcEligible) eligible += rate;
  }
  // Landscape files of 2014–2015 publish no EHB share: the whole premium counts (see README).
  const share = plan.ehbShare ?? 1;
  return {
    available: true,
    premium: total,
    ehbPremium: applyShare(total, share),
    aptcEligiblePremium: creditable(plan) ? applyShare(eligible, share) : 0,
    // The county market carries no pediatric dental apportionment (premium.ts `pediatricDentalEhb`).
    pediatricEhbPremium: null,
    members: [],
  };
}

/** Silver medical plans of the individual market: the plans a benchmark is chosen from (kept per list). */
const silverOf = new WeakMap<readonly MarketPlan[], MarketPlan[]>();
function benchmarkCandidates(plans: readonly MarketPlan[]): MarketPlan[] {
  let silver = silverOf.get(plans);
  if (!silver) {
    silver = plans.filter((p) => p.metalLevel === 'Silver' && !p.dental && p.market === 'Individual');
    silverOf.set(plans, silver);
  }
  return silver;
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
function rankSilverByEhb(
  plans: readonly MarketPlan[],
  year: number,
  household: SettledHousehold,
  members: readonly Member[],
  shared?: HouseholdPricer,
): RankedPlan[] {
  const ranked: RankedPlan[] = [];
  // Members of the coverage family have no other MEC by definition; everyone given is rated.
  let own: HouseholdPricer | undefined;
  const ownPrice = (plan: MarketPlan) =>
    (own ??= new HouseholdPricer(
      year,
      household,
      members.map((m) => ({ ...m, input: { ...m.input, has_mec: false } })),
      () => true,
      { ignoreTobacco: true },
    )).price(plan);
  // When the coverage family is the whole household, a plan that rates nobody as a tobacco user has the
  // same EHB premium in the household's own pricing: reuse it rather than price the plan twice.
  const reuse = shared && members.length === household.members.length && shared.everyoneEligible;
  for (const plan of benchmarkCandidates(plans)) {
    const priced = reuse && !shared.ratesTobacco(plan) ? shared.price(plan) : ownPrice(plan);
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
  shared?: HouseholdPricer,
): RankedPlan | undefined {
  const ranked = rankSilverByEhb(plans, year, household, members, shared);
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
  /** Why there is no premium (`premium_unavailable`); set exactly when `premium` is unavailable. */
  unavailable?: string;
}

/** Prices every plan of the list for the household and applies the credit of its eligibility. */
export function priceAll(
  plans: readonly MarketPlan[],
  year: number,
  household: SettledHousehold,
  eligibility: HouseholdEligibility,
  csrOverride: CsrOverride | undefined,
  shared?: HouseholdPricer,
): PricedPlan[] {
  const eligibleOf = (m: Member) => eligibility.people[m.index]?.aptcEligible ?? false;
  const pricer = shared ?? new HouseholdPricer(year, household, household.members, eligibleOf);
  const aptc = eligibility.aptc.aptc;
  // Nobody to price: no people, or everyone has other coverage (`has_mec`) and so does not enrol.
  const nobody =
    household.members.length === 0
      ? NO_HOUSEHOLD
      : household.members.every((m) => m.input.has_mec)
        ? NO_ENROLLEE
        : undefined;
  return plans.map((plan) => {
    const csr = csrVariantForPlan(eligibility.csr, plan.metalLevel, csrOverride);
    if (nobody) {
      const premium: HouseholdPremium = { available: false, missing: [] };
      return { plan, csr, premium, credit: 0, premiumWithCredit: 0, unavailable: nobody };
    }
    const premium = pricer.price(plan);
    if (!premium.available) {
      const unavailable = unavailableReason(plan, premium, household.effectiveDate);
      return { plan, csr, premium, credit: 0, premiumWithCredit: 0, unavailable };
    }
    const { credit, premiumWithCredit } = applyCredit(aptc, {
      premium: premium.premium,
      aptcEligiblePremium: premium.aptcEligiblePremium,
      catastrophic: !creditable(plan),
    });
    return { plan, csr, premium, credit, premiumWithCredit };
  });
}
