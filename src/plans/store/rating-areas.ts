import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';

export interface RatingAreaQuery {
  year: number;
  state: string;
  fips: string;
  zipcode: string;
}

/** A rating area, and the datasets (kinds, year) it was read from. */
export interface RatingAreaAnswer {
  area: number;
  kinds: string[];
  year: number;
}

export interface TableRow {
  year: number;
  fips: string;
  zip3: string;
  area: number;
}

/** For each (fips, zip3) key, its row of the latest year (the rows are of one state, years ≤ Y). */
export function latestByKey(rows: TableRow[]): Map<string, TableRow> {
  const latest = new Map<string, TableRow>();
  for (const row of rows) {
    const key = `${row.fips}|${row.zip3}`;
    const earlier = latest.get(key);
    if (!earlier || row.year > earlier.year) latest.set(key, row);
  }
  return latest;
}

/** The county's area for the ZIP's 3-digit prefix (Los Angeles), else the state's (states rated by ZIP). */
function zip3Row(latest: Map<string, TableRow>, fips: string, zip3: string): TableRow | undefined {
  return latest.get(`${fips}|${zip3}`) ?? latest.get(`|${zip3}`);
}

/**
 * The area the rating-area tables give, in the documented order (see the `rating-areas` ingest kind),
 * each key at its latest year ≤ Y, so a newer table that lists only some places (the sample market's three
 * Texas counties, a Los Angeles-only ZIP3 table) leaves every other place to the older tables:
 *   1. (county, ZIP3) — a county split by ZIP;
 *   2. ('', ZIP3) — a state rated by 3-digit ZIP, unless a newer whole-county row for the county says
 *      the state has moved to county areas (Idaho, Nebraska, Alaska, Massachusetts: ZIP3 in the 2014
 *      tables, counties in 2025);
 *   3. (county, '') — the county's single area.
 */
function fromTables(latest: Map<string, TableRow>, fips: string, zip3: string): TableRow | undefined {
  const split = latest.get(`${fips}|${zip3}`);
  if (split) return split;
  const byZip = latest.get(`|${zip3}`);
  const county = latest.get(`${fips}|`);
  if (byZip && (!county || byZip.year >= county.year)) return byZip;
  return county;
}

/**
 * The rating area of a place in plan year Y from the tables' rows (`latest`: each key at its latest year
 * ≤ Y, of the place's state) and the areas the QHP Landscape of Y gives its county (`landscape`):
 * - a table row of Y itself (step order above) wins;
 * - else the QHP Landscape of Y, when loaded: the county's area when it gives one; when it lists the
 *   county in several areas (Idaho 2017: Ada in 5 and 6), the area a ZIP3 table (any year ≤ Y) gives
 *   the ZIP, if it is one of them — otherwise undetermined rather than a guess;
 * - else the tables' latest rows before Y.
 */
export function resolveRatingArea(
  latest: Map<string, TableRow>,
  landscape: ReadonlySet<number>,
  place: { year: number; fips: string; zip3: string },
): RatingAreaAnswer | undefined {
  const { year, fips, zip3 } = place;
  const table = fromTables(latest, fips, zip3);
  const fromTable = (row: TableRow): RatingAreaAnswer => ({
    area: row.area,
    kinds: ['rating-areas'],
    year: row.year,
  });
  if (table && table.year === year) return fromTable(table);
  if (landscape.size === 1) return { area: [...landscape][0]!, kinds: ['landscape'], year };
  if (landscape.size > 1) {
    const byZip = zip3Row(latest, fips, zip3);
    return byZip && landscape.has(byZip.area)
      ? { area: byZip.area, kinds: ['landscape', 'rating-areas'], year }
      : undefined;
  }
  return table && fromTable(table);
}

/** Geographic rating areas (45 CFR 147.102(b)): the loaded tables, and the QHP Landscape's per-county column. */
export function createRatingAreaStore(db: Kysely<Database>) {
  return {
    /** The rating area of a place in plan year Y (`resolveRatingArea`), or undefined when undetermined. */
    async findRatingArea({
      year,
      state,
      fips,
      zipcode,
    }: RatingAreaQuery): Promise<RatingAreaAnswer | undefined> {
      const zip3 = zipcode.slice(0, 3);
      const [rows, landscape] = await Promise.all([
        db
          .selectFrom('rating_areas')
          .select(['year', 'fips', 'zip3', 'area'])
          .where('state', '=', state)
          .where('year', '<=', year)
          .where((eb) => eb.or([eb('fips', '=', fips), eb('fips', '=', '')]))
          .where((eb) => eb.or([eb('zip3', '=', zip3), eb('zip3', '=', '')]))
          .execute(),
        db
          .selectFrom('plan_counties')
          .select('rating_area')
          .distinct()
          .where('year', '=', year)
          .where('fips', '=', fips)
          .execute(),
      ]);
      const latest = latestByKey(
        rows.map((r) => ({ year: Number(r.year), fips: r.fips, zip3: r.zip3, area: Number(r.area) })),
      );
      return resolveRatingArea(latest, new Set(landscape.map((r) => Number(r.rating_area))), {
        year,
        fips,
        zip3,
      });
    },
  };
}

export type RatingAreaStore = ReturnType<typeof createRatingAreaStore>;
