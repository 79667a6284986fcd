import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';

/** Which states have plans in our data for a year: the marketplaces the plan API serves. */
export function createMarketplaceStore(db: Kysely<Database>) {
  return {
    /** States with at least one issuer (hence plans) loaded for `year`; empty when the year has none. */
    async findPlanStates(year: number): Promise<Set<string>> {
      // `issuers_state` (year, state) answers this from the index alone; every plan load writes its issuers.
      const rows = await db
        .selectFrom('issuers')
        .select('state')
        .distinct()
        .where('year', '=', year)
        .execute();
      return new Set(rows.map((r) => r.state));
    },
  };
}

export type MarketplaceStore = ReturnType<typeof createMarketplaceStore>;
