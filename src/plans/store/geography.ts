import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';

export interface County {
  fips: string;
  name: string;
  state: string;
}

export interface ZipCounty extends County {
  zipcode: string;
}

/** The ZIP codes that follow every code starting with `prefix` ('941' → '942'; '9' → ':'). */
function nextPrefix(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** Counties (Census names) and the ZIP codes in them (HUD ZIP→county crosswalk). */
export function createGeographyStore(db: Kysely<Database>) {
  return {
    async findCounty(fips: string): Promise<County | undefined> {
      return db
        .selectFrom('geo_counties')
        .select(['fips', 'name', 'state'])
        .where('fips', '=', fips)
        .executeTakeFirst();
    },

    /**
     * Counties of a ZIP code, or of every ZIP starting with a 1–4 digit prefix: by ZIP, then by the share
     * of the ZIP's residential addresses in the county, largest first. At most `limit` rows.
     */
    async findCountiesByZip(zip: string, limit: number): Promise<ZipCounty[]> {
      let query = db
        .selectFrom('geo_zip_counties as z')
        .leftJoin('geo_counties as c', 'c.fips', 'z.fips')
        .select(['z.zip', 'z.fips', 'z.state as zipState', 'c.name', 'c.state']);
      // A range over the primary key (zip, fips), not LIKE, so both databases use the index.
      query =
        zip.length === 5
          ? query.where('z.zip', '=', zip)
          : query.where('z.zip', '>=', zip).where('z.zip', '<', nextPrefix(zip));
      const rows = await query
        .orderBy('z.zip')
        .orderBy('z.res_ratio', 'desc')
        .orderBy('z.tot_ratio', 'desc')
        .orderBy('z.fips')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        fips: r.fips,
        // A county the county list lacks keeps its FIPS code; its name stays empty rather than guessed.
        name: r.name ?? '',
        state: r.state ?? r.zipState,
        zipcode: r.zip,
      }));
    },
  };
}

export type GeographyStore = ReturnType<typeof createGeographyStore>;
