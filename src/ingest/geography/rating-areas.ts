import { write } from '../engine/writes.js';
import { Reject, type TabularFormat } from '../engine/tabular-format.js';
import { LAYOUTS, layoutOf, type Layout } from './rating-area-layouts.js';

/**
 * Geographic rating areas (45 CFR 147.102(b)) for one plan year, from any of the tables in
 * `rating-area-layouts.ts`; one load may combine a county table with 3-digit-ZIP tables.
 *
 * A row is (state, fips, zip3) → area, where fips '' means "any county of the state" and zip3 '' means
 * "the whole county". Readers look up, in this order:
 *   1. (year, state, county fips, first 3 digits of the ZIP) — a county split by ZIP (Los Angeles);
 *   2. (year, state, '', zip3) — a state rated by 3-digit ZIP (AK, ID, MA, NE in 2014);
 *   3. (year, state, county fips, '') — the county's single area;
 * and answer "undeterminable" (API error 1017) when none matches.
 */
export const ratingAreasFormat: TabularFormat<Map<string, number>> = {
  kind: 'rating-areas',
  summary: 'county and 3-digit-ZIP rating areas (PolicyEngine county table, hrecht 2014 tables, LA ZIP3)',
  owns: [{ table: 'rating_areas', scope: 'year' }],
  missingColumns(header) {
    if (layoutOf(header)) return [];
    // Name what the nearest layout lacks.
    const present = new Set(header);
    const missing = (layout: Layout) => layout.columns.filter((c) => !present.has(c));
    const nearest = [...LAYOUTS].sort((a, b) => missing(a).length - missing(b).length)[0]!;
    return missing(nearest);
  },
  // Areas stored by this load, per key, so a second file giving another area for a key is refused.
  startLoad: () => new Map(),
  start({ load: areas }) {
    let layout: Layout | undefined;
    return {
      row(cells, year) {
        layout ??= layoutOf(Object.keys(cells))!;
        const read = layout.read(cells);
        if (read === null || read instanceof Reject) return read ?? [];
        const { state, fips, zip3, area } = read;
        const key = `${year}|${state}|${fips}|${zip3}`;
        const earlier = areas.get(key);
        if (earlier === area) return [];
        if (earlier !== undefined) {
          const where = `${state} ${fips || 'any county'}${zip3 ? ` ZIP ${zip3}xx` : ''}`;
          return new Reject(
            `${where} is rating area ${area} here but ${earlier} in an earlier row of this load`,
          );
        }
        areas.set(key, area);
        return [write('rating_areas', { year, state, fips, zip3, area })];
      },
    };
  },
};
