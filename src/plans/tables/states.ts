/**
 * A state, DC or territory as the plan API names it: the `State` of the CMS document without its exchange
 * fields.
 */
export interface StateFacts {
  /** Census two-digit state FIPS code. */
  fips: string;
  /** USPS two-letter abbreviation. */
  abbrev: string;
  name: string;
}

type Row = readonly [fips: string, abbrev: string, name: string];

// U.S. Census Bureau, "State FIPS codes" (ANSI INCITS 38:2009, FIPS PUB 5-2) and USPS Publication 28,
// Appendix B. First the 50 states and the District of
// Columbia, the jurisdictions with a health insurance marketplace (42 U.S.C. 18031; 45 CFR 155.20 "State"
// includes DC).
const STATE_ROWS: readonly Row[] = [
  ['01', 'AL', 'Alabama'],
  ['02', 'AK', 'Alaska'],
  ['04', 'AZ', 'Arizona'],
  ['05', 'AR', 'Arkansas'],
  ['06', 'CA', 'California'],
  ['08', 'CO', 'Colorado'],
  ['09', 'CT', 'Connecticut'],
  ['10', 'DE', 'Delaware'],
  ['11', 'DC', 'District of Columbia'],
  ['12', 'FL', 'Florida'],
  ['13', 'GA', 'Georgia'],
  ['15', 'HI', 'Hawaii'],
  ['16', 'ID', 'Idaho'],
  ['17', 'IL', 'Illinois'],
  ['18', 'IN', 'Indiana'],
  ['19', 'IA', 'Iowa'],
  ['20', 'KS', 'Kansas'],
  ['21', 'KY', 'Kentucky'],
  ['22', 'LA', 'Louisiana'],
  ['23', 'ME', 'Maine'],
  ['24', 'MD', 'Maryland'],
  ['25', 'MA', 'Massachusetts'],
  ['26', 'MI', 'Michigan'],
  ['27', 'MN', 'Minnesota'],
  ['28', 'MS', 'Mississippi'],
  ['29', 'MO', 'Missouri'],
  ['30', 'MT', 'Montana'],
  ['31', 'NE', 'Nebraska'],
  ['32', 'NV', 'Nevada'],
  ['33', 'NH', 'New Hampshire'],
  ['34', 'NJ', 'New Jersey'],
  ['35', 'NM', 'New Mexico'],
  ['36', 'NY', 'New York'],
  ['37', 'NC', 'North Carolina'],
  ['38', 'ND', 'North Dakota'],
  ['39', 'OH', 'Ohio'],
  ['40', 'OK', 'Oklahoma'],
  ['41', 'OR', 'Oregon'],
  ['42', 'PA', 'Pennsylvania'],
  ['44', 'RI', 'Rhode Island'],
  ['45', 'SC', 'South Carolina'],
  ['46', 'SD', 'South Dakota'],
  ['47', 'TN', 'Tennessee'],
  ['48', 'TX', 'Texas'],
  ['49', 'UT', 'Utah'],
  ['50', 'VT', 'Vermont'],
  ['51', 'VA', 'Virginia'],
  ['53', 'WA', 'Washington'],
  ['54', 'WV', 'West Virginia'],
  ['55', 'WI', 'Wisconsin'],
  ['56', 'WY', 'Wyoming'],
];

// Then the five inhabited territories: they run no marketplace, but public geography files (HUD ZIP-county,
// the Census county list) carry their codes.
const TERRITORY_ROWS: readonly Row[] = [
  ['60', 'AS', 'American Samoa'],
  ['66', 'GU', 'Guam'],
  ['69', 'MP', 'Northern Mariana Islands'],
  ['72', 'PR', 'Puerto Rico'],
  ['78', 'VI', 'U.S. Virgin Islands'],
];

const toFacts = ([fips, abbrev, name]: Row): StateFacts => ({ fips, abbrev, name });

/** The 50 states and DC, in FIPS order: the jurisdictions with a marketplace, the ones `/states` lists. */
export const STATES: readonly StateFacts[] = STATE_ROWS.map(toFacts);

/** The 50 states, DC and the five inhabited territories, in FIPS order. */
export const STATES_AND_TERRITORIES: readonly StateFacts[] = [...STATES, ...TERRITORY_ROWS.map(toFacts)];

const byAbbrev = new Map(STATES.map((s) => [s.abbrev, s]));

/** The state or DC of a USPS abbreviation (upper case, as the API takes it), or undefined: no territory. */
export function findState(abbrev: string): StateFacts | undefined {
  return byAbbrev.get(abbrev);
}

// The federal platform's public addresses (CMS, HealthCare.gov): where a state whose plans are sold on the
// federally-facilitated marketplace sends people to enrol, small employers to the FF-SHOP, and anyone to
// local help. Only these are named; a state-based exchange's own site is not in our data, so it stays empty.
export const HEALTHCARE_GOV = {
  name: 'HealthCare.gov',
  url: 'https://www.healthcare.gov/',
  shopUrl: 'https://www.healthcare.gov/small-businesses/',
  localHelpUrl: 'https://localhelp.healthcare.gov/',
} as const;
