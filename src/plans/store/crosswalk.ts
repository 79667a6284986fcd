import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';

export interface CrosswalkQuery {
  /** The earlier plan year (the plan's own year). */
  year: number;
  planId: string;
  state: string;
  fips: string;
  zipcode: string;
}

export interface Crosswalk {
  newPlanId: string | null;
  level: number;
  reason: number;
}

/** ZIP of a crosswalk row that covers the whole county (Plan ID Crosswalk PUF). */
const WHOLE_COUNTY = '00000';

/** The Plan ID Crosswalk PUF: where a plan's enrollees of one year are moved the next (the `crosswalk` kind). */
export function createCrosswalkStore(db: Kysely<Database>) {
  return {
    /** The row for the plan in the county: the one naming the ZIP, else the county-wide row. */
    async findCrosswalk(query: CrosswalkQuery): Promise<Crosswalk | undefined> {
      const rows = await db
        .selectFrom('crosswalks')
        .select(['zip', 'new_plan_id', 'level', 'reason'])
        .where('year', '=', query.year)
        .where('old_plan_id', '=', query.planId)
        .where('fips', '=', query.fips)
        .where('state', '=', query.state)
        .where('zip', 'in', [query.zipcode, WHOLE_COUNTY])
        .execute();
      const row = rows.find((r) => r.zip === query.zipcode) ?? rows.find((r) => r.zip === WHOLE_COUNTY);
      return row && { newPlanId: row.new_plan_id, level: Number(row.level), reason: Number(row.reason) };
    },
  };
}

export type CrosswalkStore = ReturnType<typeof createCrosswalkStore>;
