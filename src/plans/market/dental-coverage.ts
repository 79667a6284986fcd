/**
 * Whether a plan covers dental care for children and for adults, from the benefits it lists (Benefits and
 * Cost Sharing PUF `BenefitName`, `IsCovered`): what the `child_dental_coverage` / `adult_dental_coverage`
 * filters of plan search and the credit's pediatric dental rule read (docs/decisions.md#dental-coverage).
 */

/** The Benefits PUF's dental benefits for children ("Accidental Dental" is neither kind of coverage). */
export const CHILD_DENTAL_BENEFITS: readonly string[] = [
  'Dental Check-Up for Children',
  'Basic Dental Care - Child',
  'Major Dental Care - Child',
  'Orthodontia - Child',
];

/** The Benefits PUF's dental benefits for adults. */
export const ADULT_DENTAL_BENEFITS: readonly string[] = [
  'Routine Dental Services (Adult)',
  'Basic Dental Care - Adult',
  'Major Dental Care - Adult',
  'Orthodontia - Adult',
];

/** true: the plan covers one of the benefits; false: it lists its benefits and covers none; null: unknown. */
export interface DentalCoverage {
  child: boolean | null;
  adult: boolean | null;
}

/**
 * A plan's dental coverage from its benefits. A plan that lists no benefits at all (no Benefits PUF
 * loaded, or none for the plan) is unknown, never "not covered".
 */
export function dentalCoverageOf(benefits: readonly { name: string; covered: boolean }[]): DentalCoverage {
  if (benefits.length === 0) return { child: null, adult: null };
  const covers = (names: readonly string[]) => benefits.some((b) => b.covered && names.includes(b.name));
  return { child: covers(CHILD_DENTAL_BENEFITS), adult: covers(ADULT_DENTAL_BENEFITS) };
}
