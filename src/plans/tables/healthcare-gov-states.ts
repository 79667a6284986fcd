/**
 * Which states use HealthCare.gov (the federal platform: federally-facilitated marketplaces and
 * state-based marketplaces on the federal platform) for each plan year we can cite. A state not listed
 * for a listed year runs its own exchange. Years not listed are decided from the data loaded for them
 * (see `src/plans/store/marketplace.ts`): the national Plan Attributes PUF covers exactly these states.
 */

// CMS Exchange Public Use Files, PY2025 Plan Attributes PUF (`plan-attributes-puf.zip`,
// https://www.cms.gov/marketplace/resources/data/public-use-files): the states with Individual-market
// rows, the 31 states whose plans HealthCare.gov sells. test/plans/marketplace.test.ts checks it against
// the `in_2025_healthcare_gov_puf` column it reads from ../shared/data/geo/states.csv, derived from that PUF.
const PY2025 = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'DE',
  'FL',
  'HI',
  'IL',
  'IN',
  'IA',
  'KS',
  'LA',
  'MI',
  'MS',
  'MO',
  'MT',
  'NE',
  'NH',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'WV',
  'WI',
  'WY',
] as const;

// PY2026: the 2025 list without Illinois, which left HealthCare.gov for its own state-based platform, Get
// Covered Illinois, for plan year 2026 (https://getcovered.illinois.gov;
// docs/decisions.md#own-exchange-states; the live service answers IL with 1003 "state is not a valid
// marketplace state", and counts 28 FFM states plus AR and OR, state-based marketplaces on the federal
// platform: 30).
const PY2026 = PY2025.filter((state) => state !== 'IL');

/** USPS abbreviations of the HealthCare.gov states, by plan year. */
export const HEALTHCARE_GOV_STATES: Readonly<Record<number, readonly string[]>> = {
  2025: PY2025,
  2026: PY2026,
};

/** The HealthCare.gov states of a plan year, or undefined when this table has no row for the year. */
export function healthcareGovStates(year: number): ReadonlySet<string> | undefined {
  const states = HEALTHCARE_GOV_STATES[year];
  return states ? new Set(states) : undefined;
}
