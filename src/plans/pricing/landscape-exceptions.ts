/**
 * Where the QHP Landscape files (2014–2017) do not reproduce from their age-21 column: the published
 * cells that differ from `derivedAgePremium(age21, age)` by more than the file's rounding bound
 * (`roundingToleranceCents` at the plan's publishing step), listed by plan — or by issuer where the
 * pattern runs through the issuer's whole filing — with the number of such cells, so that
 * landscape-derivation.test.ts fails on any new mismatch and on any listed one that goes away.
 *
 * One class explains every listed cell: the issuer's published age-21 premium is one rounding step (a
 * cent; a dollar in a whole-dollar filing) off the base rate the row's other six columns share, so
 * age-21 × factor drifts from the published figure by up to 3 steps at the older ages. The curve itself
 * holds: the age-21 rate reconstructed from all seven columns (`reconstructedAge21`) reproduces every
 * cell of these rows within the rounding bound, which the test checks too.
 */

export const AGE_21_OFF_BASE =
  "the issuer's published age-21 premium is one rounding step off the base rate its other columns share";

export interface LandscapeException {
  /** File name under `premiums/qhp_landscape_2014_2017/`. */
  file: string;
  /** A standard-component plan ID, or a 5-digit HIOS issuer ID for all of that issuer's plans in the file. */
  scope: string;
  /** Published cells (child and adult-age columns) outside the rounding bound of the age-21 derivation. */
  cells: number;
  reason: typeof AGE_21_OFF_BASE;
  /** One such cell, as evidence: county, column age (0 = child), published and derived cents. */
  example: { county: string; age: number; published: number; derived: number };
}

const ID_2014 = '2014_QHP_Landscape_ID_Individual_Market_Medical.csv';
const NM_2014 = '2014_QHP_Landscape_NM_Individual_Market_Medical.csv';
const NM_2015 = '2015_QHP_Landscape_NM_Individual_Market_Medical.csv';
const OR_2015 = '2015_QHP_Landscape_OR_Individual_Market_Medical.csv';
const NV_2016 = '2016_QHP_Landscape_NV_Individual_Market_Medical.csv';

function entry(
  file: string,
  scope: string,
  cells: number,
  [county, age, published, derived]: [string, number, number, number],
): LandscapeException {
  return { file, scope, cells, reason: AGE_21_OFF_BASE, example: { county, age, published, derived } };
}

/** 1,371 cells in 792 of the 12,548 rows; every other published cell is within the rounding bound. */
export const LANDSCAPE_EXCEPTIONS: readonly LandscapeException[] = [
  // Blue Cross of Idaho, one catastrophic plan: age 21 a cent below the base.
  entry(ID_2014, '61589ID1700001', 34, ['BLAINE', 50, 25348, 25345]),
  // Blue Cross Blue Shield of New Mexico, four of 24 plans, a few rating areas each.
  entry(NM_2014, '75605NM0330001', 5, ['BERNALILLO', 0, 15138, 15140]),
  entry(NM_2014, '75605NM0350001', 2, ['DONA ANA', 60, 72182, 72179]),
  entry(NM_2014, '75605NM0350002', 2, ['DONA ANA', 50, 46978, 46975]),
  entry(NM_2014, '75605NM0390006', 1, ['DONA ANA', 60, 42182, 42178]),
  // Presbyterian Health Plan: age 21 a cent below the base.
  entry(NM_2014, '57173NM0120001', 26, ['CATRON', 60, 74149, 74146]),
  entry(NM_2014, '57173NM0140003', 1, ['SANTA FE', 60, 43682, 43679]),
  // Molina Healthcare of New Mexico: age 21 a cent above the base.
  entry(NM_2015, '19722NM0010001', 1, ['Santa Fe', 60, 61004, 61008]),
  entry(NM_2015, '19722NM0010002', 52, ['Catron', 60, 55041, 55045]),
  // BridgeSpan (OR), one catastrophic plan: age 21 a cent below the base.
  entry(OR_2015, '63474OR0040004', 45, ['Baker', 0, 15003, 15001]),
  // Health Republic: every one of its 549 rows has age 21 a cent above the base (17 plans).
  entry(OR_2015, '96383', 649, ['Baker', 60, 57724, 57727]),
  // Oregon's Health CO-OP, a whole-dollar filing: age 21 a dollar above the base (162 of 345 rows).
  entry(OR_2015, '99389', 486, ['Baker', 27, 28500, 28610]),
  // Prominence HealthFirst: age 21 a cent above the base (67 of 75 rows, 17 of 21 plans).
  entry(NV_2016, '16698', 67, ['Carson City', 60, 87635, 87638]),
];

/** Whether an exception's scope covers a plan: the plan itself, or its issuer (the ID's first 5 digits). */
export function inScope(exception: LandscapeException, file: string, planId: string): boolean {
  if (exception.file !== file) return false;
  return exception.scope.length === 5 ? planId.startsWith(exception.scope) : planId === exception.scope;
}
