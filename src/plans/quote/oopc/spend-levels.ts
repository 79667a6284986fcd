import { perObject } from '../../../shared/memo.js';
import {
  CLASSES,
  CLASS_DEDUCTIBLE,
  CLASS_DRUG,
  CLASS_MOOP,
  OTHER_CLASS,
  termClasses,
  type PersonCosts,
} from './person-costs.js';
import type { LimitKind, OopcPlanTerms } from './plan-terms.js';

/**
 * Step 3 of the model: the household's spending grows from 0 to 100 % of every service's yearly allowed
 * cost at once, and at each spend level where some deductible is met or some MOOP reached, the services
 * that count toward it change phase (deductible → cost sharing → MOOP). Between two such levels every
 * payment is linear, so the levels are found in closed form, one per iteration (`oopc.go`
 * `runCalculation`; the workbook's "Solution Procedure", steps 3a–3g).
 *
 * The limits are groups: for each of medical, drug and combined, a deductible and a MOOP for the whole
 * household (Individual for a household of one, Family for more) and one per member (Family Per Person).
 * A service counts in a group when its kind matches and it is subject to that deductible / counts toward
 * that MOOP. Its phase is the most advanced phase of its groups: MOOP over cost sharing over deductible,
 * so an embedded deductible met ends the deductible for that member while the family one still runs.
 *
 * How deductible-phase money accrues: CMS's code (and the workbook's stored setting, "CS Does Not
 * Accrue") counts toward a deductible only what was paid in its deductible phase; LMI's written procedure
 * counts copays and coinsurance too. We follow CMS's code (`deductible-payments`); the other reading is
 * kept as an option (docs/decisions.md#oopc-method).
 *
 * A plan search runs this for every plan, so it allocates nothing but its answer: the groups of a plan
 * for a household size are laid out once and kept, and the working arrays are reused.
 */

export type DeductibleAccrual = 'deductible-payments' | 'all-payments';

/** Phases, numbered as CMS numbers them: a service takes the highest of its groups. */
const CS_NO_DEDUCTIBLE = 0;
const DEDUCTIBLE = 1;
const COST_SHARING = 2;
const MOOP = 3;

/** Past this many iterations CMS's code gives up (it has never been seen to need more than a few). */
const MAX_ITERATIONS = 100;

export interface SpendResult {
  /** Unrounded dollars the household pays in the year. */
  oopc: number;
  /** The household's yearly allowed cost, free primary care visits included, $. */
  allowed: number;
  /** `op_other`'s rate: the allowed-cost-weighted average rate of every other line of the household. */
  averageRate: number;
  iterations: number;
}

/** The deductible and MOOP groups of a plan for a household size, members as indexes person × 8 + class. */
interface Layout {
  count: number;
  deductible: Uint8Array;
  amount: Float64Array;
  /** Members of group g: `members[start[g]]` … `members[start[g + 1] - 1]`. */
  start: Int32Array;
  members: Int32Array;
}

const KINDS: readonly (readonly [LimitKind, (cls: number) => boolean])[] = [
  ['medical', (cls) => (cls & CLASS_DRUG) === 0],
  ['drug', (cls) => (cls & CLASS_DRUG) !== 0],
  ['combined', () => true],
];

function layOut(terms: OopcPlanTerms, people: number): Layout {
  const used = termClasses(terms);
  const groups: { deductible: boolean; amount: number; members: number[] }[] = [];
  const add = (
    person: number,
    deductible: boolean,
    counts: (cls: number) => boolean,
    amount: number | undefined,
  ) => {
    if (amount === undefined) return;
    const members: number[] = [];
    const [first, last] = person < 0 ? [0, people - 1] : [person, person];
    for (let p = first; p <= last; p++) {
      for (const cls of used) {
        if (counts(cls) && (cls & (deductible ? CLASS_DEDUCTIBLE : CLASS_MOOP)) !== 0)
          members.push(p * CLASSES + cls);
      }
    }
    // A group nothing counts toward changes nobody's phase.
    if (members.length > 0) groups.push({ deductible, amount, members });
  };
  const sides = [
    [terms.deductibles, true],
    [terms.moops, false],
  ] as const;
  for (const [limits, deductible] of sides) {
    const whole = people === 1 ? limits.individual : limits.family;
    for (const [kind, counts] of KINDS) add(-1, deductible, counts, whole[kind]);
  }
  for (let p = 0; p < people; p++) {
    for (const [limits, deductible] of sides) {
      for (const [kind, counts] of KINDS) add(p, deductible, counts, limits.familyPerPerson[kind]);
    }
  }
  const start = new Int32Array(groups.length + 1);
  groups.forEach((g, i) => (start[i + 1] = start[i]! + g.members.length));
  return {
    count: groups.length,
    deductible: Uint8Array.from(groups, (g) => (g.deductible ? 1 : 0)),
    amount: Float64Array.from(groups, (g) => g.amount),
    start,
    members: Int32Array.from(groups.flatMap((g) => g.members)),
  };
}

const layouts = perObject<OopcPlanTerms, number, Layout>(16);

/** Working arrays, reused from call to call (the iteration is synchronous). */
let room = 0;
let allowed = new Float64Array(0);
let toDeductible = new Float64Array(0);
let costSharing = new Float64Array(0);
let paidToDeductible = new Float64Array(0);
let paidCostSharing = new Float64Array(0);
let phase = new Uint8Array(0);
let active = new Int32Array(0);
let groupRoom = 0;
let remainingDeductible = new Float64Array(0);
let remainingMoop = new Float64Array(0);
let status = new Uint8Array(0);
let next = new Float64Array(0);

function ensureRoom(size: number, groups: number): void {
  if (size > room) {
    room = size;
    allowed = new Float64Array(size);
    toDeductible = new Float64Array(size);
    costSharing = new Float64Array(size);
    paidToDeductible = new Float64Array(size);
    paidCostSharing = new Float64Array(size);
    phase = new Uint8Array(size);
    active = new Int32Array(size);
  }
  if (groups > groupRoom) {
    groupRoom = groups;
    remainingDeductible = new Float64Array(groups);
    remainingMoop = new Float64Array(groups);
    status = new Uint8Array(groups);
    next = new Float64Array(groups);
  }
}

/** Go's `roundFloat64`: half away from zero at 10^-places. */
function round(x: number, power: number): number {
  return Math.trunc(x * power + (x < 0 ? -0.5 : 0.5)) / power;
}

/**
 * The household's year under the plan: what it pays, or undefined when the levels do not settle (CMS:
 * an error). With `spans` (person × class × 3), the share of the year each class spent in the deductible,
 * cost-sharing and MOOP phases is added there: what a breakdown by service needs.
 */
export function spendLevels(
  terms: OopcPlanTerms,
  persons: readonly PersonCosts[],
  accrual: DeductibleAccrual = 'deductible-payments',
  spans?: Float64Array,
): SpendResult | undefined {
  const n = persons.length;
  const size = n * CLASSES;
  const layout = layouts(terms, n, () => layOut(terms, n));
  const { count, start, members } = layout;
  ensureRoom(size, count);
  let ratedAllowed = 0;
  let ratedCostSharing = 0;
  for (let p = 0; p < n; p++) {
    ratedAllowed += persons[p]!.ratedAllowed;
    ratedCostSharing += persons[p]!.ratedCostSharing;
  }
  const averageRate = ratedAllowed !== 0 ? ratedCostSharing / ratedAllowed : 0;
  let total = 0;
  let actives = 0;
  for (let p = 0; p < n; p++) {
    const person = persons[p]!;
    total += person.freeCare;
    for (let cls = 0; cls < CLASSES; cls++) {
      const i = p * CLASSES + cls;
      const a = person.allowed[cls]!;
      allowed[i] = a;
      toDeductible[i] = person.toDeductible[cls]!;
      costSharing[i] = person.costSharing[cls]! + (cls === OTHER_CLASS ? averageRate * person.other : 0);
      paidToDeductible[i] = 0;
      paidCostSharing[i] = 0;
      total += a;
      if (a > 0) active[actives++] = i;
    }
  }
  for (let g = 0; g < count; g++) {
    const deductible = layout.deductible[g] === 1;
    remainingDeductible[g] = deductible ? layout.amount[g]! : 0;
    remainingMoop[g] = deductible ? 0 : layout.amount[g]!;
  }
  const allPayments = accrual === 'all-payments';
  let spend = 0;
  let iteration = 0;
  while (spend < 1) {
    if (iteration > 0) {
      // 3a: the next level at which a group changes phase.
      let level = 1;
      const now = round(spend, 1e8);
      for (let g = 0; g < count; g++) {
        const at = next[g]!;
        if (round(at, 1e8) > now && at < level) level = at;
      }
      const step = level - spend;
      spend = level;
      // 3b: each class's payments over the step, by its phase.
      for (let k = 0; k < actives; k++) {
        const i = active[k]!;
        const at = phase[i];
        if (at === DEDUCTIBLE) {
          paidToDeductible[i] = paidToDeductible[i]! + toDeductible[i]! * step;
          paidCostSharing[i] = paidCostSharing[i]! + (allowed[i]! - toDeductible[i]!) * step;
        } else if (at !== MOOP) {
          paidCostSharing[i] = paidCostSharing[i]! + costSharing[i]! * step;
        }
        if (spans) {
          const slot = i * 3 + (at === DEDUCTIBLE ? 0 : at === MOOP ? 2 : 1);
          spans[slot] = spans[slot]! + step;
        }
      }
      // 3c: what each group has left.
      for (let g = 0; g < count; g++) {
        let deductiblePaid = 0;
        let paid = 0;
        for (let m = start[g]!; m < start[g + 1]!; m++) {
          const i = members[m]!;
          deductiblePaid += paidToDeductible[i]!;
          paid += paidToDeductible[i]! + paidCostSharing[i]!;
        }
        if (layout.deductible[g] === 1) {
          remainingDeductible[g] = round(layout.amount[g]! - (allPayments ? paid : deductiblePaid), 1e4);
        } else remainingMoop[g] = round(layout.amount[g]! - paid, 1e4);
      }
    }
    // 3d: each group's phase, then each class's: the highest of its groups'.
    phase.fill(CS_NO_DEDUCTIBLE, 0, size);
    for (let g = 0; g < count; g++) {
      const s =
        layout.deductible[g] === 1
          ? remainingDeductible[g]! > 0
            ? DEDUCTIBLE
            : COST_SHARING
          : remainingMoop[g]! <= 0
            ? MOOP
            : CS_NO_DEDUCTIBLE;
      status[g] = s;
      for (let m = start[g]!; m < start[g + 1]!; m++) {
        const i = members[m]!;
        if (s > phase[i]!) phase[i] = s;
      }
    }
    // 3e–3f: the spend level at which each group would next change phase.
    for (let g = 0; g < count; g++) {
      let deductibleRate = 0;
      let costSharingRate = 0;
      for (let m = start[g]!; m < start[g + 1]!; m++) {
        const i = members[m]!;
        const at = phase[i];
        if (at === DEDUCTIBLE) {
          deductibleRate += toDeductible[i]!;
          costSharingRate += allowed[i]! - toDeductible[i]!;
        } else if (at !== MOOP) costSharingRate += costSharing[i]!;
      }
      const s = status[g];
      let level = 1;
      const leftDeductible = remainingDeductible[g]!;
      if (s === DEDUCTIBLE && deductibleRate > 0 && leftDeductible > 0) {
        level = spend + leftDeductible / (allPayments ? deductibleRate + costSharingRate : deductibleRate);
      }
      const rate = deductibleRate + costSharingRate;
      const leftMoop = remainingMoop[g]!;
      if ((s === CS_NO_DEDUCTIBLE || s === COST_SHARING) && rate > 0 && leftMoop > 0) {
        const atMoop = spend + leftMoop / rate;
        if (atMoop < level) level = atMoop;
      }
      next[g] = level;
    }
    iteration++;
    if (iteration > MAX_ITERATIONS) return undefined;
  }
  let oopc = 0;
  for (let k = 0; k < actives; k++) {
    const i = active[k]!;
    oopc += paidToDeductible[i]! + paidCostSharing[i]!;
  }
  return { oopc, allowed: total, averageRate, iterations: iteration };
}
