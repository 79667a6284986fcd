import { Reject } from '../engine/tabular-format.js';
import { stateOfFips, stateOfName, FIPS_COUNTY, STATE } from './codes.js';

/** One row of `rating_areas` before the year is added. */
export interface AreaRow {
  state: string;
  /** '' = any county of the state (the state is rated by 3-digit ZIP). */
  fips: string;
  /** '' = the whole county. */
  zip3: string;
  area: number;
}

/** A published table of rating areas: the columns that identify it and how a row reads. */
export interface Layout {
  columns: readonly string[];
  /** An `AreaRow`, a Reject, or null for a row that carries no area by design. */
  read(cells: Record<string, string>): AreaRow | Reject | null;
}

const ZIP3 = /^\d{3}$/;

function cell(cells: Record<string, string>, column: string): string {
  return (cells[column] ?? '').trim();
}

function areaNumber(text: string, column: string): number | Reject {
  // CMS numbers areas 1..67 (Florida); "Rating Area 6" is how the PUFs write them.
  const match = /^(?:rating area\s*)?(\d{1,3})$/i.exec(text);
  const n = match ? Number(match[1]) : 0;
  return n >= 1 ? n : new Reject(`${column} "${text}" is not a rating area number`);
}

function zip3(text: string): string | Reject {
  return ZIP3.test(text) ? text : new Reject(`zip3 "${text}" is not a three-digit ZIP prefix`);
}

/** The USPS code of a two-digit state FIPS, checked against the state the row names. */
function stateOf(stateFips: string, named: string, column: string): string | Reject {
  const usps = stateOfFips(stateFips.padStart(2, '0'));
  if (!usps) return new Reject(`state FIPS "${stateFips}" is not a state`);
  const namedUsps = STATE.test(named) ? named : stateOfName(named);
  if (namedUsps !== usps) return new Reject(`${column} "${named}" is not the state of FIPS ${stateFips}`);
  return usps;
}

// States CMS rated by 3-digit ZIP in 2014 (AK, ID, MA, NE: CMS "State Gross Premium Rating Areas"
// pages); hrecht's county table leaves their areas empty, and so does it for Los Angeles County.
const ZIP3_RATED = new Set(['AK', 'ID', 'MA', 'NE']);
const LOS_ANGELES = '06037';
// In California only Los Angeles County is split by 3-digit ZIP (CMS California GRA page; 45 CFR
// 147.102(b)): its ZIP3 rows belong to that county, not to "any county of CA" — ZIP 906xx also serves
// Orange County, which is a rating area of its own.
const ZIP3_COUNTY: Record<string, string> = { CA: LOS_ANGELES };

/**
 * PolicyEngine's county table (`policyengine_us/parameters/gov/hhs/medicaid/geography/
 * aca_rating_areas.csv`, as derived in `premiums/policyengine_derived/county_rating_area_2025_…csv`).
 */
const policyEngineCounties: Layout = {
  columns: ['county_fips', 'state', 'rating_area'],
  read(cells) {
    const fips = cell(cells, 'county_fips');
    if (!FIPS_COUNTY.test(fips)) {
      return new Reject(`county_fips "${fips}" is not a five-digit county FIPS code`);
    }
    const state = stateOf(fips.slice(0, 2), cell(cells, 'state'), 'state');
    if (state instanceof Reject) return state;
    const area = areaNumber(cell(cells, 'rating_area'), 'rating_area');
    return area instanceof Reject ? area : { state, fips, zip3: '', area };
  },
};

/** hrecht/marketplace-data `ratingareas/CountyRAs.csv` (2014): FIPS without leading zeros, state in full. */
const hrechtCounties: Layout = {
  columns: ['statefip', 'state', 'countyfip', 'ratingarea'],
  read(cells) {
    const stateFips = cell(cells, 'statefip').padStart(2, '0');
    const state = stateOf(stateFips, cell(cells, 'state'), 'state');
    if (state instanceof Reject) return state;
    const fips = cell(cells, 'countyfip').padStart(5, '0');
    if (!FIPS_COUNTY.test(fips) || !fips.startsWith(stateFips)) {
      return new Reject(`countyfip "${cell(cells, 'countyfip')}" is not a county of state ${stateFips}`);
    }
    const text = cell(cells, 'ratingarea');
    // Empty = "by 3-digit ZIP": the ZipCodeRAs table of the same source holds these counties' areas.
    if (text === '' && (ZIP3_RATED.has(state) || fips === LOS_ANGELES)) return null;
    const area = areaNumber(text, 'ratingarea');
    return area instanceof Reject ? area : { state, fips, zip3: '', area };
  },
};

/**
 * hrecht/marketplace-data `ratingareas/ZipCodeRAs.csv` (2014): states rated by 3-digit ZIP. Stored with
 * fips '' ("any county of the state") since the ZIP prefix alone decides the area, except California,
 * where the rows are Los Angeles County's.
 */
const hrechtZip3: Layout = {
  columns: ['statefip', 'state', 'ratingarea', 'zip3'],
  read(cells) {
    const state = stateOf(cell(cells, 'statefip'), cell(cells, 'state'), 'state');
    if (state instanceof Reject) return state;
    const prefix = zip3(cell(cells, 'zip3'));
    if (prefix instanceof Reject) return prefix;
    const area = areaNumber(cell(cells, 'ratingarea'), 'ratingarea');
    if (area instanceof Reject) return area;
    return { state, fips: ZIP3_COUNTY[state] ?? '', zip3: prefix, area };
  },
};

/**
 * Los Angeles County by 3-digit ZIP (PolicyEngine `la_county_rating_area.yaml`, from the CMS California
 * GRA page): `zip3,rating_area,effective`. The file names no state or county: it is LA County's.
 */
const losAngelesZip3: Layout = {
  columns: ['zip3', 'rating_area'],
  read(cells) {
    const prefix = zip3(cell(cells, 'zip3'));
    if (prefix instanceof Reject) return prefix;
    const area = areaNumber(cell(cells, 'rating_area'), 'rating_area');
    return area instanceof Reject ? area : { state: 'CA', fips: LOS_ANGELES, zip3: prefix, area };
  },
};

// Tried in order; the Los Angeles table, with the fewest columns, last.
export const LAYOUTS: readonly Layout[] = [policyEngineCounties, hrechtCounties, hrechtZip3, losAngelesZip3];

/** The layout whose columns `header` has, if any. */
export function layoutOf(header: Iterable<string>): Layout | undefined {
  const names = new Set(header);
  return LAYOUTS.find((layout) => layout.columns.every((c) => names.has(c)));
}
