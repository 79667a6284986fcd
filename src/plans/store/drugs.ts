import { sql, type Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { MAX_PREFIX } from '../tables/word-prefix.js';

export interface DrugRecord {
  rxcui: string;
  name: string;
  tty: string;
  strength: string;
  route: string;
  fullName: string;
  rxnormDoseForm: string;
  rxtermsDoseForm: string;
  genericRxcui: string | null;
}

function toDrug(row: Database['drugs']): DrugRecord {
  return {
    rxcui: row.rxcui,
    name: row.name,
    tty: row.tty,
    strength: row.strength,
    route: row.route,
    fullName: row.full_name,
    rxnormDoseForm: row.rxnorm_dose_form,
    rxtermsDoseForm: row.rxterms_dose_form,
    genericRxcui: row.generic_rxcui,
  };
}

export function createDrugStore(db: Kysely<Database>) {
  return {
    /**
     * Drugs whose name has a word starting with each of `words`, shortest names first. The longest word
     * leads: its prefix rows are read in rank order from the index and each other word is one index
     * probe per candidate, so a page costs a few index reads however many drugs match.
     */
    async searchDrugs(words: string[], limit: number, offset: number): Promise<DrugRecord[]> {
      const prefixes = [...new Set(words.map((w) => w.slice(0, MAX_PREFIX)))].sort(
        (a, b) => b.length - a.length,
      );
      const [lead, ...others] = prefixes;
      if (lead === undefined) return [];
      let query = db
        .selectFrom('drug_prefixes as p')
        .innerJoin('drugs as d', 'd.rxcui', 'p.rxcui')
        .selectAll('d')
        .where('p.prefix', '=', lead);
      for (const other of others) {
        query = query.where(({ exists, selectFrom }) =>
          exists(
            selectFrom('drug_prefixes as o')
              .select(sql.lit(1).as('one'))
              .whereRef('o.rank', '=', 'p.rank')
              .whereRef('o.rxcui', '=', 'p.rxcui')
              .where('o.prefix', '=', other),
          ),
        );
      }
      const rows = await query.orderBy('p.rank').orderBy('p.rxcui').limit(limit).offset(offset).execute();
      return rows.map(toDrug);
    },

    async findDrugs(rxcuis: string[]): Promise<DrugRecord[]> {
      if (rxcuis.length === 0) return [];
      const rows = await db.selectFrom('drugs').selectAll().where('rxcui', 'in', rxcuis).execute();
      return rows.map(toDrug);
    },

    /** Every plan of `year` whose issuer's formulary lists at least one drug for it. */
    async publishedFormularies(year: number): Promise<Set<string>> {
      const rows = await db
        .selectFrom('coverage_plans')
        .select('plan_id')
        .where('year', '=', year)
        .where('drugs', '>', 0)
        .execute();
      return new Set(rows.map((r) => r.plan_id));
    },

    /**
     * For each issuer and each of `rxcuis` that its formulary lists: the issuer's plans that list it (one
     * row per issuer and drug, however many plans are asked).
     */
    async issuerListings(
      year: number,
      issuerIds: string[],
      rxcuis: string[],
    ): Promise<{ issuerId: string; rxcui: string; planIds: string[] }[]> {
      if (issuerIds.length === 0 || rxcuis.length === 0) return [];
      const rows = await db
        .selectFrom('issuer_drugs')
        .select(['issuer_id', 'rxcui', 'plan_ids'])
        .where('year', '=', year)
        .where('issuer_id', 'in', issuerIds)
        .where('rxcui', 'in', rxcuis)
        .execute();
      return rows.map((r) => ({ issuerId: r.issuer_id, rxcui: r.rxcui, planIds: r.plan_ids.split(',') }));
    },

    /** Which of `rxcuis` any formulary of `year` lists (an RxCUI RxNorm does not know may still be one). */
    async formularyRxcuis(year: number, rxcuis: string[]): Promise<Set<string>> {
      if (rxcuis.length === 0) return new Set();
      const rows = await db
        .selectFrom('issuer_drugs')
        .select('rxcui')
        .distinct()
        .where('year', '=', year)
        .where('rxcui', 'in', rxcuis)
        .execute();
      return new Set(rows.map((r) => r.rxcui));
    },
  };
}

export type DrugStore = ReturnType<typeof createDrugStore>;
