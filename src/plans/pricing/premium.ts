import { rateAgeKey } from './age.js';
import { FAMILY_OPTION_AGE_KEY, familyTierPremium, type TierState } from './family-tier.js';
import { applyShare, type Cents } from './money.js';
import { FEDERAL_RATED_CHILDREN, ratedChildrenLimit } from './rated-children.js';
import type { RatedChildrenRule } from '../store/business-rules.js';

/** One Rate PUF row's rates in cents; `tobaccoRate` null when the row says `No Preference`. */
export interface RateRow {
  individualRate: Cents;
  tobaccoRate: Cents | null;
}

/** The plan's rate for (Rate PUF `Age`, tobacco user) in the household's rating area; undefined = no row. */
export type RateLookup = (ageKey: string, tobacco: boolean) => RateRow | undefined;

/** A household member as priced: age and tobacco status already settled for this plan (age.ts, tobacco.ts). */
export interface PricedMember {
  age: number;
  tobacco: boolean;
  /** Has other minimum essential coverage: not enrolling, so not in the premium household. */
  hasMec?: boolean;
  /** Lives apart from the subscriber (`does_not_cohabitate`). */
  doesNotCohabitate?: boolean;
  /** May receive APTC (not Medicaid/CHIP-eligible, `aptc_eligible` not false, …): settled by eligibility/. */
  aptcEligible: boolean;
  /** The API's `relationship` to the subscriber; the first member is the subscriber. */
  relationship?: string | null;
}

/** What one plan needs to price a household. */
export interface PlanRating {
  planYear: number;
  rates: RateLookup;
  /** `EHBPercentTotalPremium` of the Plan Attributes PUF, 0…1. */
  ehbShare: number;
  catastrophic: boolean;
  /**
   * A stand-alone dental plan's pediatric dental EHB apportionment (Plan Attributes PUF
   * `EHBPediatricDentalApportionmentQuantity`): the share of its covered children's (under 19) premium
   * that is the pediatric dental essential health benefit; null or absent when the plan states none.
   */
  pediatricDentalShare?: number | null;
  /** NY or VT: family tiers instead of age rating. */
  familyTierState?: TierState | null;
  /**
   * The issuer's `CohabitationRule`: whether a dependant of this relationship must live with the
   * subscriber to be covered. Without it, living apart changes nothing in the premium.
   */
  cohabitationRequired?: (relationship: string | null | undefined) => boolean;
  /** The issuer's limits on rated children below the federal three (Business Rules PUF), when stated. */
  ratedChildren?: RatedChildrenRule | null;
}

export type MemberStatus = 'rated' | 'child-beyond-three' | 'has-mec' | 'does-not-cohabitate';

export interface MemberPremium {
  index: number;
  ageKey: string;
  tobacco: boolean;
  status: MemberStatus;
  /** This member's own rate in the sum (0 unless `rated`; tier states price the policy, not members). */
  premium: Cents;
}

export type HouseholdPremium =
  | {
      available: true;
      premium: Cents;
      ehbPremium: Cents;
      aptcEligiblePremium: Cents;
      pediatricEhbPremium: Cents | null;
      members: MemberPremium[];
    }
  | { available: false; missing: MissingRate[] };

/** Why a plan has no price for the household: no Rate PUF row for the member, or no tier that fits. */
export interface MissingRate {
  index: number;
  ageKey: string;
  tobacco: boolean;
  reason: 'no-rate-row' | 'no-tier-factor';
}

/** Children under 21 whose rates enter a family premium: the three oldest (45 CFR 147.102(c)(1)). */
export const RATED_CHILDREN_LIMIT = FEDERAL_RATED_CHILDREN;
const CHILD_AGE_LIMIT = 21;
/** Pediatric EHB services run to age 19 (45 CFR 156.115(a)(6)). */
const PEDIATRIC_AGE_LIMIT = 19;
const SPOUSES = new Set(['Spouse', 'Life Partner']);

/**
 * Who enrols. `has_mec` members, who have other minimum essential coverage, are left out of the premium
 * household (docs/decisions.md#premium-household); a member living apart is left out only where the issuer's
 * cohabitation rule requires living together for that relationship (Business Rules PUF `CohabitationRule`).
 */
function statusBeforeChildRule(member: PricedMember, index: number, plan: PlanRating): MemberStatus {
  if (member.hasMec) return 'has-mec';
  const subscriber = member.relationship === 'Self' || (!member.relationship && index === 0);
  if (!subscriber && member.doesNotCohabitate && plan.cohabitationRequired?.(member.relationship)) {
    return 'does-not-cohabitate';
  }
  return 'rated';
}

/**
 * 45 CFR 147.102(c)(1): a family premium is the sum of its members' premiums, but "the premiums for no
 * more than the three oldest covered children under age 21 must be taken into account". A child is any
 * covered member under 21 who is not a spouse or partner — whatever their place in the list, and the
 * subscriber too when the policy covers only children (a child-only policy, or a family whose parent has
 * other coverage); equal ages keep input order. The oldest are kept, so an adult subscriber (21+) is
 * never a child and a young subscriber outranks their younger siblings.
 */
function applyThreeChildRule(
  members: readonly PricedMember[],
  statuses: MemberStatus[],
  rule: RatedChildrenRule | null | undefined,
): void {
  const limit = ratedChildrenLimit(
    rule,
    members.filter((_, index) => statuses[index] === 'rated'),
  );
  const children = members
    .map((member, index) => ({ member, index }))
    .filter(({ index }) => statuses[index] === 'rated')
    .filter(({ member }) => member.age < CHILD_AGE_LIMIT && !SPOUSES.has(member.relationship ?? ''))
    .sort((a, b) => b.member.age - a.member.age || a.index - b.index);
  for (const { index } of children.slice(limit)) statuses[index] = 'child-beyond-three';
}

/**
 * A household's monthly premium for one plan in cents, with its EHB portions.
 * - Age-rated states: the sum of the covered members' Rate PUF rates under the three-child rule, the
 *   tobacco rate for users where the row has one (45 CFR 147.102(a)(1), (c)(1)).
 * - NY, VT: single-adult rate × tier factor (family-tier.ts).
 * - `ehb_premium` = premium × EHB share: the issuer's allocation of its rate to EHB (45 CFR 156.470;
 *   Plan Attributes PUF `EHBPercentTotalPremium`).
 * - `aptc_eligible_premium` = the EHB share of the APTC-eligible members' premium: a credit never pays
 *   for benefits beyond EHB (26 U.S.C. 36B(b)(3)(D); 26 CFR 1.36B-3(j)); 0 for catastrophic plans, which
 *   are not "qualified health plans" for the credit (26 U.S.C. 36B(c)(3)(A)).
 * - `pediatric_ehb_premium` = a stand-alone dental plan's pediatric dental EHB share × the premium of its
 *   rated children under 19 (45 CFR 156.110(a)(10), 156.115(a)(6); docs/decisions.md#pediatric-dental).
 * A missing rate makes the result unavailable, naming the member — never an invented rate.
 */
export function householdPremium(members: readonly PricedMember[], plan: PlanRating): HouseholdPremium {
  if (plan.familyTierState) {
    const statuses = members.map((member, index) => statusBeforeChildRule(member, index, plan));
    return tierHouseholdPremium(members, statuses, plan, plan.familyTierState);
  }
  return ratedPremium(
    rateHousehold(members, plan.planYear, plan.cohabitationRequired, plan.ratedChildren),
    plan,
  );
}

/**
 * The plan-independent half of age rating: who is rated (MEC, cohabitation, the three-child rule) and at
 * which Rate PUF age band. Plans of one year that share the issuer rules give the same answer, so a search
 * prepares it once and prices every plan with `ratedPremium`.
 */
export interface RatedHousehold {
  members: readonly PricedMember[];
  statuses: readonly MemberStatus[];
  ageKeys: readonly string[];
}

export function rateHousehold(
  members: readonly PricedMember[],
  planYear: number,
  cohabitationRequired?: PlanRating['cohabitationRequired'],
  ratedChildren?: RatedChildrenRule | null,
): RatedHousehold {
  const plan = { cohabitationRequired } as PlanRating;
  const statuses = members.map((member, index) => statusBeforeChildRule(member, index, plan));
  applyThreeChildRule(members, statuses, ratedChildren);
  return { members, statuses, ageKeys: members.map((m) => rateAgeKey(m.age, planYear)) };
}

/**
 * An age-rated plan's premium for a prepared household (`householdPremium` without family tiers). Without
 * `memberDetail` the result's `members` is empty: the sums are the same, with less to allocate per plan.
 */
export function ratedPremium(
  household: RatedHousehold,
  plan: PlanRating,
  memberDetail = true,
): HouseholdPremium {
  const { members, statuses, ageKeys } = household;
  const priced: MemberPremium[] = [];
  let missing: MissingRate[] | undefined;
  let total = 0;
  let eligible = 0;
  for (let index = 0; index < members.length; index += 1) {
    const member = members[index]!;
    const ageKey = ageKeys[index]!;
    const status = statuses[index]!;
    let premium = 0;
    if (status === 'rated') {
      const row = plan.rates(ageKey, member.tobacco);
      if (!row) (missing ??= []).push({ index, ageKey, tobacco: member.tobacco, reason: 'no-rate-row' });
      else premium = member.tobacco && row.tobaccoRate !== null ? row.tobaccoRate : row.individualRate;
    }
    total += premium;
    if (member.aptcEligible) eligible += premium;
    if (memberDetail || status === 'rated')
      priced.push({ index, ageKey, tobacco: member.tobacco, status, premium });
  }
  if (missing) return { available: false, missing };
  const result = withEhb(total, eligible, priced, members, plan);
  if (!memberDetail && result.available) result.members = [];
  return result;
}

function tierHouseholdPremium(
  members: readonly PricedMember[],
  statuses: MemberStatus[],
  plan: PlanRating,
  state: TierState,
): HouseholdPremium {
  const priced = members.map((member, index) => ({
    index,
    ageKey: FAMILY_OPTION_AGE_KEY,
    tobacco: false,
    status: statuses[index]!,
    premium: 0,
  }));
  const covered = priced.filter((m) => m.status === 'rated');
  if (covered.length === 0) return withEhb(0, 0, priced, members, plan);
  const row = plan.rates(FAMILY_OPTION_AGE_KEY, false);
  const policy = (list: typeof covered) =>
    row && list.length > 0
      ? familyTierPremium(
          state,
          row.individualRate,
          list.map((m, i) => ({
            age: members[m.index]!.age,
            subscriber: i === 0,
            relationship: members[m.index]!.relationship,
          })),
        )
      : 0;
  const total = policy(covered);
  if (!row || total === undefined) {
    return {
      available: false,
      missing: [
        {
          index: covered[0]!.index,
          ageKey: FAMILY_OPTION_AGE_KEY,
          tobacco: false,
          reason: row ? 'no-tier-factor' : 'no-rate-row',
        },
      ],
    };
  }
  // The APTC-eligible members' share: their own tier premium, never more than the whole policy's.
  const eligibleList = covered.filter((m) => members[m.index]!.aptcEligible);
  const eligible =
    eligibleList.length === covered.length ? total : Math.min(total, policy(eligibleList) ?? total);
  return withEhb(total, eligible, priced, members, plan);
}

function withEhb(
  total: Cents,
  eligible: Cents,
  priced: MemberPremium[],
  members: readonly PricedMember[],
  plan: PlanRating,
): HouseholdPremium {
  let pediatric: Cents | null = null;
  const share = plan.pediatricDentalShare;
  // Family tiers price the policy, not its members: no child's premium to take the share of.
  if (share !== undefined && share !== null && !plan.familyTierState) {
    let children = 0;
    for (const m of priced) {
      if (m.status === 'rated' && members[m.index]!.age < PEDIATRIC_AGE_LIMIT) children += m.premium;
    }
    pediatric = applyShare(children, share);
  }
  return {
    available: true,
    premium: total,
    ehbPremium: applyShare(total, plan.ehbShare),
    aptcEligiblePremium: plan.catastrophic ? 0 : applyShare(eligible, plan.ehbShare),
    pediatricEhbPremium: pediatric,
    members: priced,
  };
}
