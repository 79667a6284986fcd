import { write } from '../engine/writes.js';
import { Reject, type TabularFormat } from '../engine/tabular-format.js';
import { lazyColumns, missingGroups } from '../engine/headers.js';
import { isStateCode, stateOfFips, FIPS_COUNTY, STATE, ZIP5 } from './codes.js';

// HUD USPS ZIP Code Crosswalk Files, ZIP→County (huduser.gov/portal/datasets/usps_crosswalk.html). Since
// 2021: ZIP, COUNTY, USPS_ZIP_PREF_CITY, USPS_ZIP_PREF_STATE, RES_RATIO, BUS_RATIO, OTH_RATIO, TOT_RATIO.
// Older vintages spell them in lower case and have no city or state; those columns are optional.
const REQUIRED = [['zip'], ['county'], ['res ratio'], ['tot ratio']] as const;
const PUBLISHED: Record<string, string> = {
  zip: 'ZIP',
  county: 'COUNTY',
  'res ratio': 'RES_RATIO',
  'tot ratio': 'TOT_RATIO',
};

/** HUD's county for addresses it could not place: not a county, so the row is left out. */
const UNKNOWN_COUNTY = '99999';

/** Excel stores a ZIP or a FIPS code written as a number without its leading zeros. */
function padded(code: string, length: number): string {
  return /^\d+$/.test(code) && code.length < length ? code.padStart(length, '0') : code;
}

/** A share of the ZIP's addresses: a number from 0 to 1 (HUD writes `9.43E-4` and `0.0`). */
function ratio(text: string, column: string): number | Reject {
  const value = Number(text);
  if (text === '' || !Number.isFinite(value) || value < 0 || value > 1) {
    return new Reject(`${column} "${text}" is not a ratio from 0 to 1`);
  }
  return value;
}

/**
 * HUD ZIP→county crosswalk (`.xlsx` as published, or its CSV): which counties a ZIP code's addresses lie
 * in, with the share of residential and of all addresses in each.
 */
export const zipCountyFormat: TabularFormat = {
  kind: 'zip-county',
  summary: 'HUD USPS ZIP→county crosswalk (ZIP,COUNTY,…,RES_RATIO,…,TOT_RATIO), .xlsx or .csv',
  owns: [{ table: 'geo_zip_counties', scope: 'all' }],
  yearOptional: true,
  missingColumns: (header) => missingGroups(header, REQUIRED).map((name) => PUBLISHED[name] ?? name),
  start({ seen }) {
    const columns = lazyColumns();
    return {
      row(cells) {
        const col = columns(cells);
        const zip = padded(col.get(cells, 'zip'), 5);
        const fips = padded(col.get(cells, 'county'), 5);
        if (fips === UNKNOWN_COUNTY) return [];
        if (!ZIP5.test(zip)) return new Reject(`ZIP "${zip}" is not five digits`);
        if (!FIPS_COUNTY.test(fips) || !stateOfFips(fips.slice(0, 2))) {
          return new Reject(`COUNTY "${fips}" is not a county FIPS code (state code and three digits)`);
        }
        // The ZIP's USPS state when the file names it (a ZIP in DC can reach into a Virginia county: the
        // row keeps DC); otherwise the county's own state.
        const state = col.get(cells, 'usps zip pref state') || stateOfFips(fips.slice(0, 2)) || '';
        if (!STATE.test(state) || !isStateCode(state)) {
          return new Reject(
            `no state: USPS_ZIP_PREF_STATE "${state}" / county state code "${fips.slice(0, 2)}"`,
          );
        }
        const res = ratio(col.get(cells, 'res ratio'), 'RES_RATIO');
        if (res instanceof Reject) return res;
        const tot = ratio(col.get(cells, 'tot ratio'), 'TOT_RATIO');
        if (tot instanceof Reject) return tot;
        const key = `zip-county:${zip}:${fips}`;
        if (seen.has(key)) return new Reject(`ZIP ${zip} and county ${fips} appear twice`);
        seen.add(key);
        const city = col.get(cells, 'usps zip pref city');
        return [write('geo_zip_counties', { zip, fips, state, city, res_ratio: res, tot_ratio: tot })];
      },
    };
  },
};
