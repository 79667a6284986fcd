import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import type { TableRow } from './rating-areas.js';

/** A ZIP code in a county, with the county's Census name ('' when the county list lacks it). */
export interface ZipInCounty {
  state: string;
  fips: string;
  name: string;
  zip: string;
}

export interface CrosswalkRow {
  state: string;
  oldPlanId: string;
  newPlanId: string | null;
  fips: string;
  zip: string;
  level: number;
  reason: number;
}

export interface DecileRow {
  utilization: string;
  gender: string;
  ageMax: number;
  decile: number;
}

/**
 * Whole tables as the bulk documents need them: read once per data load to build a document, never per
 * request.
 */
export function createBulkSourceStore(db: Kysely<Database>) {
  return {
    /**
     * Every ZIP code of every county, by state, county and ZIP. The state is the county's (the ZIP's own
     * when the county list lacks the county), as `/counties/by/zip` answers it.
     */
    async listZipsInCounties(): Promise<ZipInCounty[]> {
      const rows = await db
        .selectFrom('geo_zip_counties as z')
        .leftJoin('geo_counties as c', 'c.fips', 'z.fips')
        .select(['z.zip', 'z.fips', 'z.state as zipState', 'c.name', 'c.state'])
        .execute();
      const list = rows.map((r) => ({
        state: r.state ?? r.zipState,
        fips: r.fips,
        name: r.name ?? '',
        zip: r.zip,
      }));
      return list.sort(
        (a, b) => compare(a.state, b.state) || compare(a.fips, b.fips) || compare(a.zip, b.zip),
      );
    },

    /** Rating-area table rows of years ≤ `year`, by state. */
    async listRatingAreaRows(year: number): Promise<Map<string, TableRow[]>> {
      const rows = await db
        .selectFrom('rating_areas')
        .select(['state', 'year', 'fips', 'zip3', 'area'])
        .where('year', '<=', year)
        .execute();
      const byState = new Map<string, TableRow[]>();
      for (const r of rows) {
        let list = byState.get(r.state);
        if (!list) byState.set(r.state, (list = []));
        list.push({ year: Number(r.year), fips: r.fips, zip3: r.zip3, area: Number(r.area) });
      }
      return byState;
    },

    /** The rating areas the QHP Landscape of `year` gives each county. */
    async listLandscapeAreas(year: number): Promise<Map<string, Set<number>>> {
      const rows = await db
        .selectFrom('plan_counties')
        .select(['fips', 'rating_area'])
        .distinct()
        .where('year', '=', year)
        .execute();
      const byCounty = new Map<string, Set<number>>();
      for (const r of rows) {
        let areas = byCounty.get(r.fips);
        if (!areas) byCounty.set(r.fips, (areas = new Set()));
        areas.add(Number(r.rating_area));
      }
      return byCounty;
    },

    /** The quarters of `year` with Medicaid limits loaded, latest last, and every state's rows of each. */
    async listMedicaidQuarters(
      year: number,
    ): Promise<
      { quarter: number; states: Map<string, { program: string; category: string; pct: number | null }[]> }[]
    > {
      const rows = await db
        .selectFrom('medicaid_limits')
        .select(['quarter', 'state', 'program', 'category', 'pct_fpl'])
        .where('year', '=', year)
        .orderBy('quarter')
        .orderBy('state')
        .execute();
      const quarters = new Map<
        number,
        Map<string, { program: string; category: string; pct: number | null }[]>
      >();
      for (const r of rows) {
        const quarter = Number(r.quarter);
        let states = quarters.get(quarter);
        if (!states) quarters.set(quarter, (states = new Map()));
        let limits = states.get(r.state);
        if (!limits) states.set(r.state, (limits = []));
        limits.push({
          program: r.program,
          category: r.category,
          pct: r.pct_fpl === null ? null : Number(r.pct_fpl),
        });
      }
      return [...quarters].map(([quarter, states]) => ({ quarter, states }));
    },

    /** The Plan ID Crosswalk rows stored under plan year `year` (the earlier year). */
    async listCrosswalks(year: number): Promise<CrosswalkRow[]> {
      const rows = await db
        .selectFrom('crosswalks')
        .select(['state', 'old_plan_id', 'new_plan_id', 'fips', 'zip', 'level', 'reason'])
        .where('year', '=', year)
        .execute();
      return rows
        .map((r) => ({
          state: r.state,
          oldPlanId: r.old_plan_id,
          newPlanId: r.new_plan_id,
          fips: r.fips,
          zip: r.zip,
          level: Number(r.level),
          reason: Number(r.reason),
        }))
        .sort(
          (a, b) =>
            compare(a.state, b.state) ||
            compare(a.oldPlanId, b.oldPlanId) ||
            compare(a.fips, b.fips) ||
            compare(a.newPlanId ?? '', b.newPlanId ?? '') ||
            a.level - b.level ||
            a.reason - b.reason ||
            compare(a.zip, b.zip),
        );
    },

    async listDecileMapping(year: number): Promise<DecileRow[]> {
      const rows = await db
        .selectFrom('decile_mappings')
        .select(['utilization', 'gender', 'age_max', 'decile'])
        .where('year', '=', year)
        .execute();
      return rows.map((r) => ({
        utilization: r.utilization,
        gender: r.gender,
        ageMax: Number(r.age_max),
        decile: Number(r.decile),
      }));
    },
  };
}

/** Code-point order, the same on both databases (their collations differ). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export type BulkSourceStore = ReturnType<typeof createBulkSourceStore>;
