import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';

export interface ZipPoint {
  zip: string;
  lat: number;
  lon: number;
}

/** A provider of the directory found by a name near some ZIPs: where, and what kind. */
export interface ProviderHit {
  npi: string;
  zip: string;
  type: string;
}

export interface DirectoryProvider {
  npi: string;
  type: string;
  name: string;
  gender: string | null;
  /** Taxonomy codes, primary first. */
  taxonomies: string[];
  addresses: ProviderAddress[];
}

export interface ProviderAddress {
  street_1: string;
  street_2: string;
  city: string;
  state: string;
  zipcode: string;
}

/** What one issuer's files say of a provider in a year. */
export interface NetworkListing {
  issuerId: string;
  npi: string;
  type: string;
  name: string;
  gender: string | null;
  specialties: string[];
  languages: string[];
  facilityTypes: string[];
  accepting: string;
  addresses: ProviderAddress[];
  /** The issuer's plans whose network lists the provider. */
  planIds: string[];
}

const parseList = (json: string) => JSON.parse(json) as string[];

export function createProviderStore(db: Kysely<Database>) {
  /**
   * The county of each ZIP: the one holding most of its residents, then of all its addresses, then the
   * lowest FIPS (HUD crosswalk; the order `/counties/by/zip` lists a ZIP's counties in).
   */
  async function countiesOfZips(zips: string[]): Promise<Map<string, string>> {
    if (zips.length === 0) return new Map();
    const rows = await db
      .selectFrom('geo_zip_counties')
      .select(['zip', 'fips'])
      .where('zip', 'in', zips)
      .orderBy('zip')
      .orderBy('res_ratio', 'desc')
      .orderBy('tot_ratio', 'desc')
      .orderBy('fips')
      .execute();
    const first = new Map<string, string>();
    for (const r of rows) if (!first.has(r.zip)) first.set(r.zip, r.fips);
    return first;
  }

  return {
    async findZipPoint(zip: string): Promise<ZipPoint | undefined> {
      return db.selectFrom('zip_locations').selectAll().where('zip', '=', zip).executeTakeFirst();
    },

    /** ZIP points inside a latitude/longitude box (one index range on latitude). */
    async zipPointsIn(box: { lat: [number, number]; lon: [number, number] }): Promise<ZipPoint[]> {
      return db
        .selectFrom('zip_locations')
        .selectAll()
        .where('lat', '>=', box.lat[0])
        .where('lat', '<=', box.lat[1])
        .where('lon', '>=', box.lon[0])
        .where('lon', '<=', box.lon[1])
        .execute();
    },

    /** Points of the other ZIPs of the county that holds most of `zip`'s residents (HUD crosswalk). */
    async countyZipPoints(zip: string): Promise<{ fips: string; points: ZipPoint[] } | undefined> {
      const fips = (await countiesOfZips([zip])).get(zip);
      if (fips === undefined) return undefined;
      const points = await db
        .selectFrom('geo_zip_counties as z')
        .innerJoin('zip_locations as l', 'l.zip', 'z.zip')
        .select(['l.zip', 'l.lat', 'l.lon'])
        .where('z.fips', '=', fips)
        .execute();
      return { fips, points };
    },

    /**
     * Providers of `types` at `zips` with a name word starting with `prefix`: for each ZIP one range of
     * the (zip, term, npi) key.
     */
    async findByNamePrefix(zips: string[], prefix: string, types: string[]): Promise<ProviderHit[]> {
      if (zips.length === 0) return [];
      return db
        .selectFrom('provider_terms')
        .select(['npi', 'zip', 'type'])
        .distinct()
        .where('zip', 'in', zips)
        .where('term', '>=', prefix)
        .where('term', '<', `${prefix}\uffff`)
        .where('type', 'in', types)
        .execute();
    },

    async findProviders(npis: string[]): Promise<DirectoryProvider[]> {
      if (npis.length === 0) return [];
      const rows = await db.selectFrom('providers').selectAll().where('npi', 'in', npis).execute();
      return rows.map((r) => ({
        npi: r.npi,
        type: r.type,
        name: r.name,
        gender: r.gender,
        taxonomies: parseList(r.taxonomies),
        addresses: [
          { street_1: r.street_1, street_2: r.street_2, city: r.city, state: r.state, zipcode: r.zip },
        ],
      }));
    },

    /** NUCC display names of taxonomy codes (codes the loaded taxonomy lacks are absent). */
    async taxonomyNames(codes: string[]): Promise<Map<string, string>> {
      if (codes.length === 0) return new Map();
      const rows = await db
        .selectFrom('provider_taxonomies')
        .select(['code', 'display_name'])
        .where('code', 'in', codes)
        .execute();
      return new Map(rows.map((r) => [r.code, r.display_name]));
    },

    /** What the issuers' files of `year` say of each of `npis`. */
    async findListings(year: number, npis: string[]): Promise<NetworkListing[]> {
      if (npis.length === 0) return [];
      const rows = await db
        .selectFrom('network_providers')
        .selectAll()
        .where('year', '=', year)
        .where('npi', 'in', npis)
        .execute();
      return rows.map((r) => ({
        issuerId: r.issuer_id,
        npi: r.npi,
        type: r.type,
        name: r.name,
        gender: r.gender,
        specialties: parseList(r.specialties),
        languages: parseList(r.languages),
        facilityTypes: parseList(r.facility_types),
        accepting: r.accepting,
        addresses: JSON.parse(r.addresses) as ProviderAddress[],
        planIds: r.plan_ids === '' ? [] : r.plan_ids.split(','),
      }));
    },

    /** The plans of `planIds` whose issuer published a provider network for `year`. */
    async plansWithNetworks(year: number, planIds: string[]): Promise<Set<string>> {
      if (planIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('coverage_plans')
        .select('plan_id')
        .where('year', '=', year)
        .where('plan_id', 'in', planIds)
        .where('providers', '>', 0)
        .execute();
      return new Set(rows.map((r) => r.plan_id));
    },

    countiesOfZips,

    /** Coverage statistics of a year's issuer files. */
    async coverageStats(year: number) {
      const count = async (query: Promise<{ n: string | number | bigint } | undefined>) =>
        Number((await query)?.n ?? 0);
      const [issuers, drugs, providers, providersPlans, drugsPlans, refreshed] = await Promise.all([
        count(
          db
            .selectFrom('coverage_plans')
            .select((eb) => eb.fn.count<number>('issuer_id').distinct().as('n'))
            .where('year', '=', year)
            .executeTakeFirst(),
        ),
        count(
          db
            .selectFrom('plan_drugs')
            .select((eb) => eb.fn.count<number>('rxcui').distinct().as('n'))
            .where('year', '=', year)
            .executeTakeFirst(),
        ),
        count(
          db
            .selectFrom('network_providers')
            .select((eb) => eb.fn.count<number>('npi').distinct().as('n'))
            .where('year', '=', year)
            .executeTakeFirst(),
        ),
        count(
          db
            .selectFrom('coverage_plans')
            .select((eb) => eb.fn.sum<number>('providers').as('n'))
            .where('year', '=', year)
            .executeTakeFirst(),
        ),
        count(
          db
            .selectFrom('plan_drugs')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('year', '=', year)
            .executeTakeFirst(),
        ),
        db
          .selectFrom('plan_datasets')
          .select('loaded_at')
          .where('kind', '=', 'mr-puf')
          .where('year', '=', year)
          .executeTakeFirst(),
      ]);
      return {
        issuers,
        drugs,
        providers,
        providersPlans,
        drugsPlans,
        loadedAt: refreshed ? Number(refreshed.loaded_at) : undefined,
      };
    },
  };
}

export type ProviderStore = ReturnType<typeof createProviderStore>;
