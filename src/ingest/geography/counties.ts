import { write } from '../engine/writes.js';
import { Reject, type TabularFormat } from '../engine/tabular-format.js';
import { FIPS_COUNTY, STATE } from './codes.js';

const CENSUS = ['state', 'statefp', 'countyfp', 'countyname'];
const CHANGES = ['fips', 'usps', 'name', 'change'];

/**
 * County names by FIPS: the Census county list (`state,statefp,countyfp,countyname,classfp`, e.g.
 * `national_county.txt` of 2010) and, in the same load, the Census list of changes since
 * (`fips,usps,name,change,…`; only rows whose change is an addition create a county).
 */
export const countiesFormat: TabularFormat = {
  kind: 'counties',
  summary: 'Census county list (state,statefp,countyfp,countyname) and its list of later changes',
  owns: [{ table: 'geo_counties', scope: 'all' }],
  yearOptional: true,
  missingColumns(header) {
    const has = (names: string[]) => names.every((n) => header.includes(n));
    if (has(CENSUS) || has(CHANGES)) return [];
    return CENSUS.filter((n) => !header.includes(n));
  },
  start({ seen }) {
    return {
      row(cells) {
        const changes = 'change' in cells;
        const fips = changes
          ? (cells.fips ?? '').trim()
          : `${cells.statefp ?? ''}${cells.countyfp ?? ''}`.trim();
        const state = (changes ? cells.usps : cells.state)?.trim() ?? '';
        const name = (changes ? cells.name : cells.countyname)?.trim() ?? '';
        if (changes && !/^added/i.test(cells.change ?? '')) return [];
        if (!FIPS_COUNTY.test(fips)) return new Reject(`county FIPS "${fips}" is not five digits`);
        if (!STATE.test(state)) return new Reject(`state "${state}" is not a two-letter code`);
        if (name === '') return new Reject('the county name is empty');
        if (seen.has(fips)) return [];
        seen.add(fips);
        return [write('geo_counties', { fips, state, name })];
      },
    };
  },
};
