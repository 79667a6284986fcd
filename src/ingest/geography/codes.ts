import { STATES_AND_TERRITORIES } from '../../plans/tables/states.js';

/** A county's five-digit FIPS code (state and county), a USPS state code, a five-digit ZIP code. */
export const FIPS_COUNTY = /^\d{5}$/;
export const STATE = /^[A-Z]{2}$/;
export const ZIP5 = /^\d{5}$/;

// State and territory codes as the formats need them: to validate a state, and to fill one that a file
// leaves out (HUD vintages without the preferred-state column, the hrecht tables that name the state in
// full). The facts are the plan API's table (plans/tables/states.ts), territories included.
const byFips = new Map(STATES_AND_TERRITORIES.map((s) => [s.fips, s.abbrev]));
const byName = new Map(STATES_AND_TERRITORIES.map((s) => [s.name.toLowerCase(), s.abbrev]));
const known = new Set(STATES_AND_TERRITORIES.map((s) => s.abbrev));

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
