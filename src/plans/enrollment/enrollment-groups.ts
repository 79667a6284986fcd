import { planError } from '../errors.js';
import { ineligibleReasons, type Applicant } from '../household/enrollment-rules.js';
import { relationshipValidIn, type Relationship } from '../household/relationships.js';
import type { MarketPlan, Place } from '../market/county-market.js';
import { ratingAge } from '../pricing/age.js';
import { parseCalendarDate } from '../pricing/calendar-date.js';

/**
 * POST /enrollment/validate (CMS `ExtendedEnrollment` in, `FlattenedEnrollmentGroup`s out): whether each
 * enrollment group can enrol together, and how to regroup it when it cannot (docs/decisions.md#enrollment-validate).
 * Every group is checked for the conflicts the CMS document names — members living in different counties
 * (plans are sold by county), different cost-sharing reductions, a hardship exemption beside members who
 * cannot buy a catastrophic plan — and, with `is_custom`, for a plan its members may enrol in together: sold
 * at the subscriber's address, allowed by every member's `allowed_plan_ids` / `allowed_metal_levels`, and
 * whose issuer's business rules accept the group (household/enrollment-rules.ts).
 */

export interface Address {
  city?: string;
  state?: string;
  street_1?: string;
  street_2?: string;
  zipcode?: string;
  countyfips?: string;
}

export interface Enrollee {
  id: string;
  dob?: string;
  effective_age?: number;
  location?: Address;
  csr?: string;
  has_hardship?: boolean;
  relationship?: string;
  allowed_metal_levels?: string[];
  allowed_plan_ids?: string[];
  [field: string]: unknown;
}

export interface RelationshipEdge {
  super_id?: string;
  sub_id?: string;
  relationship?: string;
}

export interface EnrollmentGroup {
  id?: string;
  csr?: string;
  enrollees?: string[];
  subscriber_id?: string;
  relationships?: RelationshipEdge[];
  effective_date?: string;
}

export interface ExtendedEnrollment {
  year?: number;
  is_custom?: boolean;
  division?: 'HealthCare' | 'Dental';
  enrollment_groups: EnrollmentGroup[];
  enrollees: Enrollee[];
}

/** CMS `FlattenedEnrollmentGroup`: a group with its enrollees in full and why it is grouped so. */
export interface FlattenedGroup {
  id: string;
  csr: string;
  enrollees: Enrollee[];
  grouping_reason: string;
  year: number;
  subscriber_id: string;
  relationships: RelationshipEdge[];
  effective_date: string;
}

export interface ValidationAnswer {
  valid: boolean;
  suggested_groups: FlattenedGroup[];
}

/** The plans sold at a place in the year (the county market as a ZIP sees it). */
export type PlansAt = (place: Place) => Promise<readonly MarketPlan[]>;

const NO_CSR = 'Exchange variant (no CSR)';
/** Catastrophic plans: under 30, or with a hardship exemption (45 CFR 156.155(a)). */
const CATASTROPHIC_AGE_LIMIT = 30;
const VALID = 'valid: no address, CSR or hardship conflict';

function invalid(fix: string): never {
  throw planError(1003, fix, 'invalid enrollment validate request');
}

/** A member of a group as the checks see them. */
interface Member {
  enrollee: Enrollee;
  at: string;
  age: number | null;
  relationship: string | null;
  csr: string;
}

/** Whether `dob` is a calendar date of `year`. */
function bornIn(dob: string, year: number): boolean {
  try {
    return parseCalendarDate(dob).year === year;
  } catch {
    return false;
  }
}

function ageOf(enrollee: Enrollee, at: string, year: number): number | null {
  if (enrollee.effective_age !== undefined) return enrollee.effective_age;
  if (!enrollee.dob) return null;
  try {
    // The CMS document: ages are taken on 1 January of the year unless `effective_age` is given.
    return ratingAge({ dob: enrollee.dob }, `${year}-01-01`);
  } catch {
    // Born after 1 January: not yet a year old. A dob that is no date (2014-02-30) is not born then.
    if (bornIn(enrollee.dob, year)) return 0;
    return invalid(`${at}.dob: ${enrollee.dob} is not a date of birth before the end of ${year}`);
  }
}

/** The relationship of `id` to the subscriber: the group's edge from the subscriber, else the enrollee's own. */
function relationshipTo(
  group: EnrollmentGroup,
  subscriber: string,
  enrollee: Enrollee,
  at: string,
  year: number,
) {
  const edge = group.relationships?.find((e) => e.super_id === subscriber && e.sub_id === enrollee.id);
  const value = edge?.relationship || enrollee.relationship || '';
  if (value === '') return null;
  if (!relationshipValidIn(value as Relationship, year)) {
    invalid(`${at}: relationship "${value}" is not valid for market year ${year}`);
  }
  return value;
}

/** The group's members, its subscriber first; 1003 for an id no enrollee has, or one the group lists twice. */
function membersOf(
  group: EnrollmentGroup,
  index: number,
  enrollees: ReadonlyMap<string, { enrollee: Enrollee; index: number }>,
  year: number,
): Member[] {
  const at = `enrollment_groups[${index}]`;
  const ids = group.enrollees ?? [];
  if (ids.length === 0) invalid(`${at}.enrollees: at least one enrollee id is required`);
  const twice = ids.find((id, k) => ids.indexOf(id) !== k);
  if (twice !== undefined) invalid(`${at}.enrollees: ${twice} is given twice`);
  const subscriber = group.subscriber_id ?? ids[0]!;
  if (!ids.includes(subscriber))
    invalid(`${at}.subscriber_id: ${subscriber} is not one of the group's enrollees`);
  const ordered = [subscriber, ...ids.filter((id) => id !== subscriber)];
  return ordered.map((id) => {
    const found = enrollees.get(id);
    if (!found) return invalid(`${at}.enrollees: no enrollee has the id ${id}`);
    const where = `enrollees[${found.index}]`;
    return {
      enrollee: found.enrollee,
      at: where,
      age: ageOf(found.enrollee, where, year),
      relationship:
        id === subscriber ? 'Self' : relationshipTo(group, subscriber, found.enrollee, where, year),
      csr: found.enrollee.csr ?? group.csr ?? NO_CSR,
    };
  });
}

/** A member's county: the 5-digit FIPS code names it alone (its first two digits are the state's). */
const placeKey = (m: Member) => m.enrollee.location?.countyfips ?? '';

const catastrophicAllowed = (m: Member) =>
  m.enrollee.has_hardship === true || (m.age !== null && m.age < CATASTROPHIC_AGE_LIMIT);

/**
 * The conflicts of a group and the parts that resolve them: members in different counties (those without
 * an address go with the subscriber), different CSR levels, and hardship-exempt members beside members who
 * may not buy a catastrophic plan (the exempt ones are put apart, so they keep that choice).
 */
function conflicts(members: Member[]): { reasons: string[]; parts: Member[][] } {
  const reasons: string[] = [];
  const home = placeKey(members[0]!);
  const places = new Set(members.map((m) => placeKey(m) || home).filter((p) => p !== ''));
  if (places.size > 1) {
    reasons.push(
      `address: the enrollees live in different counties (${[...places].join(', ')}); ` +
        'plans are sold by county, so each county is a group',
    );
  }
  const csrs = new Set(members.map((m) => m.csr));
  if (csrs.size > 1) {
    reasons.push(
      `csr: the enrollees have different cost-sharing reductions (${[...csrs].join(', ')}); together they ` +
        'would get only the level all share (45 CFR 155.305(g)(3)), so each level is a group',
    );
  }
  const hardship = members.some((m) => m.enrollee.has_hardship === true);
  const mixed = hardship && members.some((m) => !catastrophicAllowed(m));
  if (mixed) {
    reasons.push(
      'hardship: enrollees with a hardship exemption may buy a catastrophic plan, the others (30 or older ' +
        'without one) may not (45 CFR 156.155(a)), so the exempt ones are a group of their own',
    );
  }
  const key = (m: Member) =>
    `${places.size > 1 ? placeKey(m) || home : ''}|${csrs.size > 1 ? m.csr : ''}|${mixed ? m.enrollee.has_hardship === true : ''}`;
  const parts = new Map<string, Member[]>();
  for (const m of members) parts.set(key(m), [...(parts.get(key(m)) ?? []), m]);
  return { reasons, parts: [...parts.values()] };
}

/** Every member's list, intersected: null when no member restricts. */
function allowedBy<T extends string>(lists: (readonly T[] | undefined)[]): Set<T> | null {
  let allowed: Set<T> | null = null;
  for (const list of lists) {
    if (!list || list.length === 0) continue;
    allowed = allowed ? new Set(list.filter((x) => allowed!.has(x))) : new Set(list);
  }
  return allowed;
}

/**
 * With `is_custom`: the plans the group may enrol in together, and the people the issuers' rules refuse
 * on the plans otherwise allowed (when none accepts the whole group).
 */
async function availablePlans(
  members: Member[],
  division: 'HealthCare' | 'Dental',
  plansAt: PlansAt,
): Promise<{ plans: MarketPlan[]; refused: Map<Member, string>; reason?: string }> {
  const subscriber = members[0]!;
  const location = subscriber.enrollee.location;
  if (!location?.countyfips || !location.state || !location.zipcode) {
    invalid(`${subscriber.at}.location: countyfips, state and zipcode are required when is_custom is true`);
  }
  const place = { countyfips: location.countyfips, state: location.state, zipcode: location.zipcode };
  const ids = allowedBy(members.map((m) => m.enrollee.allowed_plan_ids));
  const metals = allowedBy(members.map((m) => m.enrollee.allowed_metal_levels));
  const catastrophic = members.every(catastrophicAllowed);
  const candidates = (await plansAt(place)).filter(
    (p) =>
      p.dental === (division === 'Dental') &&
      (!ids || ids.has(p.id)) &&
      (!metals || metals.has(p.metalLevel)) &&
      (catastrophic || !p.catastrophic),
  );
  const refused = new Map<Member, string>();
  if (candidates.length === 0) {
    return {
      plans: [],
      refused,
      reason:
        `no_plans: no ${division === 'Dental' ? 'dental' : 'medical'} plan sold in county ${place.countyfips} ` +
        'is allowed for every enrollee (allowed_plan_ids, allowed_metal_levels' +
        (catastrophic ? ')' : '; catastrophic plans need everyone under 30 or exempt)'),
    };
  }
  const applicants: Applicant[] = members.map((m, index) => ({
    index,
    label: `enrollee ${m.enrollee.id}`,
    relationship: m.relationship,
    // An unknown age is older than no limit: only the relationship is checked.
    age: m.age ?? -1,
    subscriber: index === 0,
  }));
  const plans: MarketPlan[] = [];
  // When no plan takes everyone: the plan that refuses the fewest (then the first by id) decides who is
  // put apart, so the others stay together where some plan takes them all.
  let fewest: readonly { person: number; reason: string }[] | undefined;
  for (const plan of [...candidates].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const reasons = ineligibleReasons(applicants, plan.enrollment);
    if (reasons.length === 0) plans.push(plan);
    else {
      const people = [...new Map(reasons.map((r) => [r.person, r])).values()];
      if (!fewest || people.length < fewest.length) fewest = people;
    }
  }
  if (plans.length === 0 && fewest) for (const r of fewest) refused.set(members[r.person]!, r.reason);
  return { plans, refused };
}

function flattened(
  group: EnrollmentGroup,
  members: Member[],
  id: string,
  reason: string,
  year: number,
): FlattenedGroup {
  const ids = new Set(members.map((m) => m.enrollee.id));
  const subscriber = members[0]!.enrollee.id;
  return {
    id,
    csr: members[0]!.csr,
    enrollees: members.map((m) => m.enrollee),
    grouping_reason: reason,
    year,
    subscriber_id: subscriber,
    relationships: (group.relationships ?? []).filter(
      (e) => ids.has(e.super_id ?? '') && ids.has(e.sub_id ?? ''),
    ),
    effective_date: group.effective_date ?? `${year}-01-01`,
  };
}

/** Validates every group; the suggested groups are the given ones when valid, else their parts. */
export async function validateEnrollment(
  input: ExtendedEnrollment,
  year: number,
  plansAt: PlansAt,
): Promise<ValidationAnswer> {
  const enrollees = new Map<string, { enrollee: Enrollee; index: number }>();
  input.enrollees.forEach((enrollee, index) => {
    if (enrollees.has(enrollee.id)) invalid(`enrollees[${index}].id: ${enrollee.id} is given twice`);
    enrollees.set(enrollee.id, { enrollee, index });
  });
  const division = input.division ?? 'HealthCare';
  const suggested: FlattenedGroup[] = [];
  let valid = true;
  for (const [index, group] of input.enrollment_groups.entries()) {
    const members = membersOf(group, index, enrollees, year);
    const id = group.id ?? String(index + 1);
    const { reasons, parts } = conflicts(members);
    if (reasons.length > 0) {
      valid = false;
      parts.forEach((part, n) =>
        suggested.push(flattened(group, part, n === 0 ? id : `${id}-${n + 1}`, reasons.join('; '), year)),
      );
      continue;
    }
    if (!input.is_custom) {
      suggested.push(flattened(group, members, id, VALID, year));
      continue;
    }
    const available = await availablePlans(members, division, plansAt);
    if (available.plans.length > 0) {
      suggested.push(
        flattened(
          group,
          members,
          id,
          `valid: ${available.plans.length} plan(s) accept the group together`,
          year,
        ),
      );
      continue;
    }
    valid = false;
    if (available.reason || available.refused.size === 0) {
      suggested.push(
        flattened(group, members, id, available.reason ?? 'no_plans: no plan accepts the group', year),
      );
      continue;
    }
    // The issuers' rules refuse some members with the others: they are groups of their own.
    const refused = members.filter((m) => available.refused.has(m));
    const rest = members.filter((m) => !available.refused.has(m));
    const why = `business_rules: ${refused.map((m) => available.refused.get(m)).join('; ')}`;
    suggested.push(flattened(group, rest, id, why, year));
    refused.forEach((m, n) => suggested.push(flattened(group, [m], `${id}-${n + 2}`, why, year)));
  }
  return { valid, suggested_groups: suggested };
}
