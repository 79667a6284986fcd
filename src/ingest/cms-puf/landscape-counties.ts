import type { Transaction } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { IngestError } from '../engine/report.js';

// Census county-equivalent name endings (Census "County and county-equivalent entities": counties,
// Louisiana parishes, Alaska boroughs, census areas, cities and boroughs, municipalities). The landscape
// files drop them ("ADA", "Carson City", "Dona Ana") or keep them ("Ada County").
const SUFFIXES = ['county', 'parish', 'borough', 'census area', 'city and borough', 'municipality'];
/** Longest first, so "Juneau City and Borough" loses "city and borough", not "borough". */
const ENDINGS = [...SUFFIXES].sort((a, b) => b.length - a.length);

/** Lower case, accents dropped, punctuation and spaces removed: "Doña Ana" and "DONA ANA" meet. */
function words(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\bsaint\b/g, 'st')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const compact = (text: string) => text.replace(/ /g, '');

/** Counties of one state: by FIPS, and by name in the spellings above. */
export interface StateCounties {
  has(fips: string): boolean;
  /** The FIPS code of a county name as a landscape writes it, or undefined. */
  find(name: string): string | undefined;
}

function indexCounties(rows: { fips: string; name: string }[]): StateCounties {
  const byName = new Map<string, string>();
  const fipsCodes = new Set<string>();
  for (const { fips, name } of rows) {
    fipsCodes.add(fips);
    byName.set(compact(words(name)), fips);
  }
  return {
    has: (fips) => fipsCodes.has(fips),
    find(name) {
      const base = words(name);
      const suffix = ENDINGS.find((s) => base.endsWith(` ${s}`));
      const stem = suffix ? base.slice(0, -suffix.length - 1) : base;
      // The name as written first (so "Baltimore City" is the city), then with each ending (so a bare
      // "Baltimore" is the county, as Census names the city "Baltimore city").
      for (const candidate of [base, ...SUFFIXES.map((s) => `${stem} ${s}`), stem]) {
        const fips = byName.get(compact(candidate));
        if (fips) return fips;
      }
      return undefined;
    },
  };
}

/**
 * Reads each state's counties from `geo_counties` once per load. A load with no county list at all
 * stops: every landscape row needs one.
 */
export function countyResolver(db: Transaction<Database>) {
  const states = new Map<string, Promise<StateCounties>>();
  let checked: Promise<void> | undefined;
  return async (state: string): Promise<StateCounties> => {
    checked ??= db
      .selectFrom('geo_counties')
      .select('fips')
      .limit(1)
      .executeTakeFirst()
      .then((any) => {
        if (!any) {
          throw new IngestError(
            'no county list: ingest counties first (openenroll ingest counties ' +
              'census_2010_national_county_fips.csv county_fips_changes_since_2010.csv)',
          );
        }
      });
    await checked;
    let counties = states.get(state);
    if (!counties) {
      counties = db
        .selectFrom('geo_counties')
        .select(['fips', 'name'])
        .where('state', '=', state)
        .execute()
        .then(indexCounties);
      states.set(state, counties);
    }
    return counties;
  };
}
