/**
 * State and territory codes: Census FIPS state code, USPS abbreviation, name. Public facts (Census
 * "State FIPS codes", ANSI INCITS 38), the same rows as `shared/data/geo/states.csv`. Kept as code, not
 * loaded, because the formats need them to validate and to fill a state that a file leaves out (HUD
 * vintages without the preferred-state column, the hrecht tables that name the state in full).
 */
const STATES: readonly (readonly [fips: string, usps: string, name: string])[] = [
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
  ['60', 'AS', 'American Samoa'],
  ['66', 'GU', 'Guam'],
  ['69', 'MP', 'Northern Mariana Islands'],
  ['72', 'PR', 'Puerto Rico'],
  ['78', 'VI', 'U.S. Virgin Islands'],
];

const byFips = new Map(STATES.map(([fips, usps]) => [fips, usps]));
const byName = new Map(STATES.map(([, usps, name]) => [name.toLowerCase(), usps]));
const known = new Set(STATES.map(([, usps]) => usps));

/** USPS code of a two-digit state FIPS code (`'06'` → `'CA'`), or undefined. */
export function stateOfFips(stateFips: string): string | undefined {
  return byFips.get(stateFips);
}

/** USPS code of a state's full name, any case (`'New Mexico'` → `'NM'`), or undefined. */
export function stateOfName(name: string): string | undefined {
  return byName.get(name.trim().toLowerCase());
}

/** Whether `usps` is a state, DC or territory code. */
export function isStateCode(usps: string): boolean {
  return known.has(usps);
}
