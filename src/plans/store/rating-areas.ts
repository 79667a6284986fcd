import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';

export interface RatingAreaQuery {
  year: number;
  state: string;
  fips: string;
  zipcode: string;
}

interface TableRow {
  year: number;
  fips: string;
  zip3: string;
  area: number;
}

/**
 * The area the rating-area table gives, most specific row first (see the `rating-areas` ingest kind):
 * the county's area for the ZIP's 3-digit prefix (Los Angeles), the state's area for that prefix (states
 * rated by 3-digit ZIP), the county's single area.
 */
function mostSpecific(rows: TableRow[], fips: string, zip3: string): TableRow | undefined {
  return (
    rows.find((r) => r.fips === fips && r.zip3 === zip3) ??
    rows.find((r) => r.fips === '' && r.zip3 === zip3) ??
    rows.find((r) => r.fips === fips && r.zip3 === '')
  );
}

/** Geographic rating areas (45 CFR 147.102(b)): the loaded tables, and the QHP Landscape's per-county column. */
export function createRatingAreaStore(db: Kysely<Database>) {
  return {
    /**
     * The rating area of a place in a plan year: the latest rating-area table of the state for that year
     * or before; a landscape of exactly that year, when loaded, wins over an older table.
     */
    async findRatingArea({ year, state, fips, zipcode }: RatingAreaQuery): Promise<number | undefined> {
      const zip3 = zipcode.slice(0, 3);
      const [rows, landscape] = await Promise.all([
        db
          .selectFrom('rating_areas')
          .select(['year', 'fips', 'zip3', 'area'])
          .where('state', '=', state)
          .where('year', '=', (eb) =>
            eb
              .selectFrom('rating_areas')
              .select((inner) => inner.fn.max('year').as('latest'))
              .where('state', '=', state)
              .where('year', '<=', year),
          )
          .where((eb) => eb.or([eb('fips', '=', fips), eb('fips', '=', '')]))
          .where((eb) => eb.or([eb('zip3', '=', zip3), eb('zip3', '=', '')]))
          .execute(),
        db
          .selectFrom('plan_counties')
          .select('rating_area')
          .where('year', '=', year)
          .where('fips', '=', fips)
          .limit(1)
          .executeTakeFirst(),
      ]);
      const table = mostSpecific(
        rows.map((r) => ({ ...r, year: Number(r.year), area: Number(r.area) })),
        fips,
        zip3,
      );
      if (table && table.year === year) return table.area;
      if (landscape) return Number(landscape.rating_area);
      return table?.area;
    },
  };
}

export type RatingAreaStore = ReturnType<typeof createRatingAreaStore>;
