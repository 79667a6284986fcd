import { sql, type Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import type { PriceScope } from '../scope.js';

export interface ProcedureCode {
  code: string;
  description: string;
  /** How often the procedure is performed (the operator's list); 0 when no list is loaded. */
  frequency: number;
}

export interface ProcedureCost {
  code: string;
  facilityType: string;
  totalCents: number;
  copayCents: number;
}

/** `%` and `_` of a search term matched as themselves by LIKE (escape character `\`). */
function likeLiteral(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The price lookup's data: costs per HCPCS code and facility type (of the years `PriceScope` names), and the
 * procedures offered. When the scope uses a procedure list, it is the set of codes served; otherwise every
 * code with a cost is, with its addendum's short descriptor.
 */
export function createPriceStore(db: Kysely<Database>) {
  /** Costs of the latest years, optionally of one code, optionally only of listed procedures. */
  function costQuery(years: { facilityType: string; year: number }[], listed: boolean) {
    let query = db
      .selectFrom('ppl_costs as c')
      .where((eb) =>
        eb.or(
          years.map((y) => eb.and([eb('c.facility_type', '=', y.facilityType), eb('c.year', '=', y.year)])),
        ),
      );
    if (listed) query = query.where('c.code', 'in', db.selectFrom('ppl_procedures').select('code'));
    return query;
  }

  return {
    /** Procedures whose code starts with `term` or whose description contains it (case-insensitive). */
    async findCodes(
      scope: PriceScope,
      { term, limit }: { term?: string; limit?: number },
    ): Promise<ProcedureCode[]> {
      const like = term === undefined ? undefined : likeLiteral(term.toLowerCase());
      if (scope.procedureList) {
        let query = db.selectFrom('ppl_procedures').select(['code', 'description', 'frequency']);
        if (like !== undefined) {
          query = query.where((eb) =>
            eb.or([
              sql<boolean>`lower(code) like ${`${like}%`} escape '\\'`,
              sql<boolean>`lower(description) like ${`%${like}%`} escape '\\'`,
            ]),
          );
        }
        query = query.orderBy('frequency', 'desc').orderBy('code');
        if (limit !== undefined) query = query.limit(limit);
        const rows = await query.execute();
        return rows.map((r) => ({
          code: r.code,
          description: r.description,
          frequency: Number(r.frequency),
        }));
      }
      if (scope.years.length === 0) return [];
      let query = costQuery(scope.years, false)
        .select(['c.code', (eb) => eb.fn.min('c.description').as('description')])
        .groupBy('c.code');
      if (like !== undefined) {
        query = query.having((eb) =>
          eb.or([
            sql<boolean>`lower(c.code) like ${`${like}%`} escape '\\'`,
            sql<boolean>`lower(min(c.description)) like ${`%${like}%`} escape '\\'`,
          ]),
        );
      }
      query = query.orderBy('c.code');
      if (limit !== undefined) query = query.limit(limit);
      const rows = await query.execute();
      return rows.map((r) => ({ code: r.code, description: String(r.description ?? ''), frequency: 0 }));
    },

    async findCode(scope: PriceScope, code: string): Promise<ProcedureCode | undefined> {
      if (scope.procedureList) {
        const row = await db
          .selectFrom('ppl_procedures')
          .select(['code', 'description', 'frequency'])
          .where('code', '=', code)
          .executeTakeFirst();
        return row && { code: row.code, description: row.description, frequency: Number(row.frequency) };
      }
      if (scope.years.length === 0) return undefined;
      const row = await costQuery(scope.years, false)
        .select('c.description')
        .where('c.code', '=', code)
        .orderBy('c.facility_type', 'desc')
        .executeTakeFirst();
      return row && { code, description: row.description, frequency: 0 };
    },

    /** Costs by code then facility type; of one code when `code` is given. */
    async findCosts(
      scope: PriceScope,
      { code, limit }: { code?: string; limit?: number },
    ): Promise<ProcedureCost[]> {
      if (scope.years.length === 0) return [];
      let query = costQuery(scope.years, scope.procedureList).select([
        'c.code',
        'c.facility_type',
        'c.total_cents',
        'c.copay_cents',
      ]);
      if (code !== undefined) query = query.where('c.code', '=', code);
      query = query.orderBy('c.code').orderBy('c.facility_type');
      if (limit !== undefined) query = query.limit(limit);
      const rows = await query.execute();
      return rows.map((r) => ({
        code: r.code,
        facilityType: r.facility_type,
        totalCents: Number(r.total_cents),
        copayCents: Number(r.copay_cents),
      }));
    },
  };
}

export type PriceStore = ReturnType<typeof createPriceStore>;
