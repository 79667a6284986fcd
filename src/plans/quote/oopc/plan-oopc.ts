import { perObject } from '../../../shared/memo.js';
import type { CsrVariant } from '../../store/plan-detail.js';
import type { PlanDetails } from '../../store/plan-details.js';
import { bandRange, type BandPerson, type OopcRange } from './bands.js';
import { estimate, type EstimateOptions } from './estimate.js';
import { oopcVariant, planOopcTerms, type OopcNote } from './plan-oopc-terms.js';
import { ageGroupOf, levelDecile, tableUse, type ServiceUse, type UtilizationLevel } from './utilization.js';

/**
 * The estimated yearly out-of-pocket cost of a plan for a household (CMS's `oopc`), and our range around
 * it. How to call it, once per request and then per plan:
 *
 *   const household = oopcHousehold(members, year);   // the members who enrol (not has_mec)
 *   const answer = planOopc(household, plan.details, csr); // csr: the variant the plan is quoted in
 *   answer.oopc                                         // dollars to the cent, or -1
 *   planOopcRange(household, plan.details, csr)         // our range: expected, p10, p90
 *
 * Answers are kept per plan, variant and household composition, so a search over a cached market
 * prices each plan once per kind of household.
 *
 * `answer.computed` says whether it is an estimate; when not, `reason` says why in words (docs/decisions.md#oopc-method).
 */

/** A member as a request gives them (CMS `Person`: `age`, `gender`, `utilization_level` or `utilization`). */
export interface OopcPersonInput {
  age?: number | null;
  gender?: string | null;
  utilization?: string | null;
  /** The person's index in `household.people`, for the reason (default: the position in the list given). */
  index?: number;
}

export type OopcUnavailableCode =
  'no-people' | 'person-incomplete' | 'dental-plan' | 'no-benefits' | 'no-cost-limits' | 'not-settled';

/** A stand-alone dental plan covers none of the model's medical services: no estimate, not a made-up one. */
const DENTAL: OopcUnavailable = {
  computed: false,
  oopc: -1,
  code: 'dental-plan',
  reason: 'a stand-alone dental plan: the model estimates medical and drug costs only',
};

export interface OopcUnavailable {
  computed: false;
  /** CMS's value for "not computed". */
  oopc: -1;
  code: OopcUnavailableCode;
  reason: string;
}

export interface OopcEstimate {
  computed: true;
  /** Estimated yearly out-of-pocket cost, dollars to the cent. */
  oopc: number;
  /** The household's yearly allowed cost under the model, dollars to the cent. */
  allowed: number;
  /** The variant whose cost sharing priced it. */
  variant: CsrVariant;
  /** What the estimate assumed where the plan's data did not say. */
  notes: readonly OopcNote[];
}

export type PlanOopc = OopcEstimate | OopcUnavailable;

/** The household as the model sees it: one table row per member, or why it cannot be priced. */
export type OopcHousehold =
  | {
      ok: true;
      uses: readonly ServiceUse[];
      band: readonly BandPerson[];
      /** Names the household's composition in caches (its members' table rows, in one order). */
      key: string;
    }
  | { ok: false; unavailable: OopcUnavailable };

const LEVELS = new Set<string>(['Low', 'Medium', 'High']);
const SEX: Readonly<Record<string, 'F' | 'M'>> = { Female: 'F', Male: 'M' };

const unavailable = (code: OopcUnavailableCode, reason: string): OopcUnavailable => ({
  computed: false,
  oopc: -1,
  code,
  reason,
});

/**
 * The members who enrol, for market year `year`. CMS prices no one it cannot place in the table: a member
 * without an age, a sex or a utilization level makes the answer -1, as CMS's does.
 */
export function oopcHousehold(people: readonly OopcPersonInput[], year: number): OopcHousehold {
  if (people.length === 0) {
    return { ok: false, unavailable: unavailable('no-people', 'nobody in the household enrols') };
  }
  const uses: ServiceUse[] = [];
  const band: BandPerson[] = [];
  for (const [index, person] of people.entries()) {
    const missing = [
      typeof person.age === 'number' && person.age >= 0 ? undefined : 'age',
      person.gender && SEX[person.gender] ? undefined : 'gender',
      person.utilization && LEVELS.has(person.utilization) ? undefined : 'utilization level',
    ].filter((m) => m !== undefined);
    if (missing.length > 0) {
      const at = person.index ?? index;
      const reason = `household.people[${at}] has no ${missing.join(', ')}: the estimate needs each member's`;
      return { ok: false, unavailable: unavailable('person-incomplete', reason) };
    }
    const ageGroup = ageGroupOf(person.age!);
    const sex = SEX[person.gender!]!;
    const level = person.utilization as UtilizationLevel;
    uses.push(tableUse(ageGroup, sex, levelDecile(level, year, ageGroup, sex)));
    band.push({ ageGroup, sex, level });
  }
  const key = uses
    .map((u) => u.key)
    .sort()
    .join(',');
  return { ok: true, uses, band, key };
}

/** Answers per plan details: variant → household key → answer (the default options only). */
const answers = perObject<PlanDetails, CsrVariant, Map<string, PlanOopc>>();
/** Households kept per (plan, variant) before the list starts over. */
const KEPT_HOUSEHOLDS = 256;

/** CMS's estimate for the household under the plan, in the variant `csr` the household is quoted. */
export function planOopc(
  household: OopcHousehold,
  details: PlanDetails,
  csr: CsrVariant,
  options: EstimateOptions = {},
): PlanOopc {
  if (!household.ok) return household.unavailable;
  if (details.product_division === 'Dental') return DENTAL;
  const defaults = options.accrual === undefined && (options.allowedCostMultiplier ?? 1) === 1;
  if (!defaults) return price(household, details, csr, options);
  const kept = answers(details, csr, () => new Map());
  let answer = kept.get(household.key);
  if (!answer) {
    answer = price(household, details, csr, options);
    if (kept.size >= KEPT_HOUSEHOLDS) kept.clear();
    kept.set(household.key, answer);
  }
  return answer;
}

function price(
  household: OopcHousehold & { ok: true },
  details: PlanDetails,
  csr: CsrVariant,
  options: EstimateOptions,
): PlanOopc {
  const read = planOopcTerms(details, oopcVariant(details, details.metal_level, csr));
  if (!read.ok) return unavailable(read.code, read.reason);
  const result = estimate(read.terms, household.uses, options);
  if (!result) return unavailable('not-settled', 'the spend-level iteration did not settle');
  return {
    computed: true,
    oopc: result.oopc,
    allowed: result.allowed,
    variant: read.variant,
    notes: read.notes,
  };
}

/** Our range around it (docs/decisions.md#oopc-range): expected cost, 10th and 90th percentiles. */
export function planOopcRange(
  household: OopcHousehold,
  details: PlanDetails,
  csr: CsrVariant,
  options: EstimateOptions = {},
): (OopcRange & { computed: true; variant: CsrVariant }) | OopcUnavailable {
  if (!household.ok) return household.unavailable;
  if (details.product_division === 'Dental') return DENTAL;
  const read = planOopcTerms(details, oopcVariant(details, details.metal_level, csr));
  if (!read.ok) return unavailable(read.code, read.reason);
  const range = bandRange(read.terms, household.band, options);
  if (!range) return unavailable('not-settled', 'the spend-level iteration did not settle');
  return { computed: true, variant: read.variant, ...range };
}
