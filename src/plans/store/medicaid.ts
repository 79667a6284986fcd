import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';

/** One published limit: `pct` is % of FPL as published (5-point disregard included); null = not covered. */
export interface MedicaidLimit {
  program: string;
  category: string;
  pct: number | null;
}

export interface MedicaidLimits {
  year: number;
  quarter: number;
  limits: MedicaidLimit[];
}

/** Medicaid and separate-CHIP income limits by state, year and quarter (the `medicaid` ingest kind). */
export function createMedicaidStore(db: Kysely<Database>) {
  return {
    /** A state's limits for a year and quarter; without a quarter, the latest quarter of the year loaded. */
    async findMedicaidLimits(
      state: string,
      year: number,
      quarter?: number,
    ): Promise<MedicaidLimits | undefined> {
      let query = db
        .selectFrom('medicaid_limits')
        .select(['quarter', 'program', 'category', 'pct_fpl'])
        .where('year', '=', year)
        .where('state', '=', state);
      if (quarter !== undefined) query = query.where('quarter', '=', quarter);
      const rows = await query.orderBy('quarter', 'desc').execute();
      const latest = rows[0] ? Number(rows[0].quarter) : undefined;
      if (latest === undefined) return undefined;
      return {
        year,
        quarter: latest,
        limits: rows
          .filter((r) => Number(r.quarter) === latest)
          .map((r) => ({
            program: r.program,
            category: r.category,
            pct: r.pct_fpl === null ? null : Number(r.pct_fpl),
          })),
      };
    },
  };
}

export type MedicaidStore = ReturnType<typeof createMedicaidStore>;
