import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { readBusinessRule } from './business-rules.js';

/** An issuer as the plan API shows it (CMS `Issuer`); text the sources do not give is empty, never guessed. */
export interface Issuer {
  id: string;
  name: string;
  state: string;
  individual_url: string;
  shop_url: string;
  toll_free: string;
  tty: string;
  /** Relationships the issuer's plans accept as dependents (Business Rules PUF); empty when not loaded. */
  eligible_dependents: string[];
}

export interface IssuerPage {
  issuers: Issuer[];
  total: number;
}

type IssuerRow = Pick<
  Database['issuers'],
  'issuer_id' | 'name' | 'state' | 'individual_url' | 'shop_url' | 'toll_free' | 'tty'
>;

const COLUMNS = ['issuer_id', 'name', 'state', 'individual_url', 'shop_url', 'toll_free', 'tty'] as const;

function toIssuer(row: IssuerRow, dependents: string[]): Issuer {
  return {
    id: row.issuer_id,
    name: row.name,
    state: row.state,
    individual_url: row.individual_url ?? '',
    shop_url: row.shop_url ?? '',
    toll_free: row.toll_free ?? '',
    tty: row.tty ?? '',
    eligible_dependents: dependents,
  };
}

/** Issuers of a plan year (Plan Attributes PUF or QHP Landscape) with their business rules. */
export function createIssuerStore(db: Kysely<Database>) {
  /** Eligible dependents of each issuer, from all its business-rule rows of the year (one query). */
  async function dependentsOf(year: number, issuerIds: string[]): Promise<Map<string, string[]>> {
    const byIssuer = new Map<string, string[]>();
    if (issuerIds.length === 0) return byIssuer;
    const rows = await db
      .selectFrom('business_rules')
      .select(['issuer_id', 'detail'])
      .where('year', '=', year)
      .where('issuer_id', 'in', issuerIds)
      .orderBy('issuer_id')
      .orderBy('scope_id')
      .execute();
    for (const row of rows) {
      const known = byIssuer.get(row.issuer_id) ?? [];
      for (const relationship of readBusinessRule(row.detail).eligibleDependents) {
        if (!known.includes(relationship)) known.push(relationship);
      }
      byIssuer.set(row.issuer_id, known);
    }
    return byIssuer;
  }

  return {
    /** One page of a year's issuers, by id, optionally of one state; `total` counts every match. */
    async listIssuers(query: {
      year: number;
      state?: string;
      limit: number;
      offset: number;
    }): Promise<IssuerPage> {
      let base = db.selectFrom('issuers').where('year', '=', query.year);
      if (query.state) base = base.where('state', '=', query.state);
      const [rows, count] = await Promise.all([
        base.select(COLUMNS).orderBy('issuer_id').limit(query.limit).offset(query.offset).execute(),
        base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirst(),
      ]);
      const dependents = await dependentsOf(
        query.year,
        rows.map((r) => r.issuer_id),
      );
      return {
        issuers: rows.map((r) => toIssuer(r, dependents.get(r.issuer_id) ?? [])),
        total: Number(count?.total ?? 0),
      };
    },

    async findIssuer(year: number, issuerId: string): Promise<Issuer | undefined> {
      const [row, dependents] = await Promise.all([
        db
          .selectFrom('issuers')
          .select(COLUMNS)
          .where('year', '=', year)
          .where('issuer_id', '=', issuerId)
          .executeTakeFirst(),
        dependentsOf(year, [issuerId]),
      ]);
      return row ? toIssuer(row, dependents.get(issuerId) ?? []) : undefined;
    },
  };
}

export type IssuerStore = ReturnType<typeof createIssuerStore>;
