/**
 * Searches of the FHIR store: the filters of a search as SQL over `fhir_resources` and its search tables,
 * and its pages, by offset or from an id (docs/decisions.md#fhir-paging).
 */
import { sql, type Expression, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../../storage/schema.js';
import type { DayRangeMatch } from '../date-search.js';
import type { TokenValue } from '../token-search.js';
import type { ReadRow } from './resources.js';

/**
 * Rows whose column value `v` has `from <= v < to` (an absent bound is open), or with `outside` the rows
 * with `v < from || v >= to`. Every FHIR search prefix comes down to one of these (fhir/date-search.ts).
 */
export interface ColumnInterval<T> {
  from?: T;
  to?: T;
  outside?: true;
}

/** Conditions of a search; all of them apply. */
export interface ResourceQuery {
  resourceType: string;
  patientId: string;
  /** Intervals of epoch milliseconds on the last update. */
  lastUpdated: ColumnInterval<number>[];
  eobTypes?: string[];
  /** Intervals of `YYYY-MM-DD` text on the service date. */
  serviceDate: ColumnInterval<string>[];
  /** `_id`: each value's alternatives (any of them; every value applies). */
  ids?: string[][];
  /** Token searches kept in `fhir_search_tokens`: each value's alternatives (every value applies). */
  tokens?: { param: string; alternatives: TokenValue[] }[];
  /** Date searches kept in `fhir_search_dates`: a stored value of `param` must match (every one applies). */
  dates?: { param: string; match: DayRangeMatch }[];
  /** Leave out the resources marked SAMHSA-sensitive (`excludeSAMHSA=true`). */
  excludeSamhsa?: boolean;
  /** RIF claims with their lines' tax numbers (`IncludeTaxNumbers: true`). */
  taxNumbers?: boolean;
  /** Matches skipped before the page, in id order (`startIndex`); not used with `seek`. */
  offset: number;
  limit: number;
  /** Where the page starts instead, found on the page index (docs/decisions.md#fhir-paging). */
  seek?: PageSeek;
  /** How many match, when the search's first page counted them already: not counted again. */
  total?: number;
}

/**
 * A page right after (or before) the match with `id` in id order; without an id, from the first match (or
 * up to the last one).
 */
export interface PageSeek {
  direction: 'after' | 'before';
  id?: string;
}

/** A page of matches in id order, how many match, and whether matches lie before and after the page. */
export interface SearchPage {
  total: number;
  /** `bytes`: the body as UTF-8, when the body cache keeps it so (PostgreSQL). */
  bodies: { id: string; body: string; bytes?: Buffer }[];
  before: boolean;
  after: boolean;
}

type Filter = SelectQueryBuilder<Database, 'fhir_resources', object>;

/** The rows of `query` whose `column` lies in (or, `outside`, out of) the interval; values are bound. */
function within(
  query: Filter,
  column: 'last_updated' | 'service_date',
  { from, to, outside }: ColumnInterval<number | string>,
): Filter {
  const ref = sql.ref(column);
  const below = from === undefined ? undefined : sql<boolean>`${ref} < ${from}`;
  const atOrAbove = to === undefined ? undefined : sql<boolean>`${ref} >= ${to}`;
  if (outside) {
    const parts = [below, atOrAbove].filter((p) => p !== undefined);
    return parts.length === 0 ? query.where(sql<boolean>`1 = 0`) : query.where((eb) => eb.or(parts));
  }
  let q = query;
  if (from !== undefined) q = q.where(sql<boolean>`${ref} >= ${from}`);
  if (to !== undefined) q = q.where(sql<boolean>`${ref} < ${to}`);
  return q;
}

/**
 * The rows with a token of `param` matching one of the alternatives (FHIR R4 §3.1.1.5.5 token rules, as
 * token-search.ts reads them): `code` in any system, `system|code`, `|code` (no system), `system|`.
 */
function withToken(query: Filter, param: string, alternatives: TokenValue[]): Filter {
  return query.where(({ exists, selectFrom }) =>
    exists(
      selectFrom('fhir_search_tokens as t')
        .select(sql.lit(1).as('one'))
        .whereRef('t.resource_type', '=', 'fhir_resources.resource_type')
        .whereRef('t.id', '=', 'fhir_resources.id')
        .where('t.param', '=', param)
        .where((eb) =>
          eb.or(
            alternatives.map(({ system, code }) =>
              eb.and([
                ...(system === undefined ? [] : [eb('t.system', '=', system ?? '')]),
                ...(code === undefined ? [] : [eb('t.value', '=', code)]),
              ]),
            ),
          ),
        ),
    ),
  );
}

/** The rows with some stored day range of `param` that `match` accepts (fhir/date-search.ts). */
function withDate(query: Filter, param: string, match: DayRangeMatch): Filter {
  return query.where(({ exists, selectFrom }) =>
    exists(
      selectFrom('fhir_search_dates as d')
        .select(sql.lit(1).as('one'))
        .whereRef('d.resource_type', '=', 'fhir_resources.resource_type')
        .whereRef('d.id', '=', 'fhir_resources.id')
        .where('d.param', '=', param)
        .where((eb) =>
          eb.or(
            match.map((group) =>
              eb.and(
                group.map(({ bound, op, day }) =>
                  eb(bound === 'first' ? 'd.first_day' : 'd.last_day', op, day),
                ),
              ),
            ),
          ),
        ),
    ),
  );
}

/** The columns a page reads: what a body made from its source needs. */
export const PAGE_COLUMNS = [
  'resource_type',
  'id',
  'patient_id',
  'eob_type',
  'last_updated',
  'body',
  'source',
] as const satisfies readonly (keyof ReadRow)[];

/**
 * What a page reads when its bodies come from the process's body cache (body-cache.ts): the row's facts and
 * its version. The version is PostgreSQL's `xmin` (the transaction that wrote this version of the row: any
 * update, or a delete and insert, gives a new one) with the database server's start time, so that ids
 * issued again after a restore or a failover to a standby cannot match a body kept from before.
 */
export const PAGE_FACTS = [
  'resource_type',
  'id',
  'patient_id',
  'eob_type',
  'last_updated',
] as const satisfies readonly (keyof ReadRow)[];

/**
 * The version of a `fhir_resources` row (see PAGE_FACTS), as SQL over that table. The start time is a
 * subquery of its own, which PostgreSQL evaluates once per statement (an InitPlan).
 */
const VERSION_SQL = sql<string>`(fhir_resources.xmin::text || '@' || (select extract(epoch from pg_postmaster_start_time())::text))`;

export const ROW_VERSION = VERSION_SQL.as('version');

/** Whether the row's version is the one `versions` gives for its id in `ids` (parallel text arrays). */
export function versionIsGiven(ids: unknown, versions: unknown) {
  return sql<boolean>`${VERSION_SQL} = (${versions}::text[])[array_position(${ids}::text[], id)]`;
}

/** A page's row without its body: see PAGE_FACTS. */
export type FactsRow = Pick<ReadRow, (typeof PAGE_FACTS)[number]> & { version: string };

/** The columns a page selects: its bodies (PAGE_COLUMNS) or only its facts and versions (PAGE_FACTS). */
export type PageSelect<R> = (rows: Filter) => SelectQueryBuilder<Database, 'fhir_resources', R>;

export const selectBodies: PageSelect<ReadRow> = (rows) => rows.select(PAGE_COLUMNS);
export const selectFacts: PageSelect<FactsRow> = (rows) => rows.select([...PAGE_FACTS, ROW_VERSION]);
export const selectVersionedBodies: PageSelect<ReadRow & { version: string }> = (rows) =>
  rows.select([...PAGE_COLUMNS, ROW_VERSION]);

/** The rows of `q`'s resource type and patient that every filter of `q` accepts. */
function matching(db: Kysely<Database>, q: ResourceQuery): Filter {
  let where = byPatient(db, q.resourceType, q.patientId);
  for (const interval of q.lastUpdated) where = within(where, 'last_updated', interval);
  for (const interval of q.serviceDate) where = within(where, 'service_date', interval);
  if (q.eobTypes && q.eobTypes.length > 0) where = where.where('eob_type', 'in', q.eobTypes);
  for (const alternatives of q.ids ?? []) where = where.where('id', 'in', alternatives);
  for (const { param, alternatives } of q.tokens ?? []) where = withToken(where, param, alternatives);
  for (const { param, match } of q.dates ?? []) where = withDate(where, param, match);
  if (q.excludeSamhsa) where = where.where('samhsa', '=', 0);
  return where;
}

/**
 * The pages of a search with no filter but its type and patient, by prepared statements (parsed and planned
 * once per connection on PostgreSQL): the rows (up to `limit` + 1) after an id, and the rows from
 * `offset` with the count of all matches.
 */
export interface PreparedPages<R> {
  after(q: ResourceQuery, after: string): Promise<R[]>;
  countedAt(q: ResourceQuery): Promise<(R & { total: number | string | null })[]>;
}

/** A search with no filter but its type and patient (`type` and `patient` may be prepared parameters). */
export function byPatient(db: Kysely<Database>, type: string, patient: string): Filter {
  return db.selectFrom('fhir_resources').where('resource_type', '=', type).where('patient_id', '=', patient);
}

/**
 * Up to `limit` matches of `where` from `offset` on in id order, and the count of all of them as `total`, in
 * one statement. The skipped matches are walked by id alone (on the page index, without their rows where
 * the filters allow), and only the page's rows are read: the database never carries the bodies of the
 * rows it skips through a sort.
 */
export function countedPageAt<R>(
  db: Kysely<Database>,
  where: Filter,
  pick: PageSelect<R>,
  type: string,
  limit: number,
  offset: number,
  total: Expression<unknown> = where.select((eb) => eb.fn.countAll<number | string>().as('n')),
) {
  const ids = where.select('id').orderBy('id').limit(limit).offset(offset);
  return pick(db.selectFrom('fhir_resources'))
    .where('resource_type', '=', type)
    .where('id', 'in', ids)
    .orderBy('id')
    .limit(limit)
    .select(sql<number | string | null>`${total}`.as('total'));
}

/**
 * How many resources of `type` `patient` has: the sum of their changes in `fhir_patient_counts` (PostgreSQL,
 * migration 0018, docs/decisions.md#fhir-patient-counts), the total of a search with no filter, read in the
 * page's own statement and snapshot.
 */
export function keptCount(db: Kysely<Database>, type: string, patient: string): Expression<number | string> {
  return sql<number | string>`coalesce((${db
    .selectFrom('fhir_patient_counts')
    .select((eb) => eb.fn.sum<number | string>('n').as('n'))
    .where('resource_type', '=', type)
    .where('patient_id', '=', patient)}), 0)`;
}

/**
 * A page of matching resources (in id order, bodies as stored) and how many match in all, in one statement:
 * the page reads one row past its end, which says whether more follow, and carries the count of the matches
 * (a subquery the database runs once) unless the caller knows it. A page that starts from a match's id
 * seeks on the page index (`resource_type, patient_id, id`) instead of skipping rows, so following the
 * links costs the same on the hundredth page as on the first, and a resource stored between two pages is
 * neither skipped nor served twice (docs/decisions.md#fhir-paging).
 */
export async function searchResources<R>(
  db: Kysely<Database>,
  q: ResourceQuery,
  pick: PageSelect<R>,
  prepared?: PreparedPages<R>,
): Promise<Omit<SearchPage, 'bodies'> & { rows: R[] }> {
  const where = matching(db, q);
  const count = () => where.select((eb) => eb.fn.countAll<number | string>().as('n'));
  const countAll = async () => Number((await count().executeTakeFirstOrThrow()).n);
  if (q.limit === 0) return { total: q.total ?? (await countAll()), rows: [], before: false, after: false };
  const { seek } = q;
  const backward = seek?.direction === 'before';
  let page = pick(where);
  if (seek?.id !== undefined) page = page.where('id', backward ? '<' : '>', seek.id);
  page = page.orderBy('id', backward ? 'desc' : 'asc').limit(q.limit + 1);
  // A page by offset (`startIndex`, and a search's first page) always counts: its total is only known
  // beforehand from a cursor, which seeks.
  let counted: (R & { total: number | string | null })[] | undefined;
  if (!seek) {
    counted = prepared
      ? await prepared.countedAt(q)
      : await countedPageAt(db, where, pick, q.resourceType, q.limit + 1, q.offset).execute();
  } else if (q.total === undefined) {
    counted = await page.select(count().as('total')).execute();
  }
  const after = seek?.direction === 'after' ? seek.id : undefined;
  const found: R[] =
    counted ?? (prepared && after !== undefined ? await prepared.after(q, after) : await page.execute());
  const total = q.total ?? (counted?.[0] ? Number(counted[0].total) : await countAll());
  const more = found.length > q.limit;
  const rows = found.slice(0, q.limit);
  if (backward) rows.reverse();
  const fromId = seek?.id !== undefined;
  return {
    total,
    rows,
    before: backward ? more : seek ? fromId : q.offset > 0 && total > 0,
    after: backward ? fromId : more,
  };
}

/** A search with no filter but its type and patient: its pages past the first use one prepared statement. */
export function unfiltered(q: ResourceQuery): boolean {
  return (
    q.lastUpdated.length === 0 &&
    q.serviceDate.length === 0 &&
    (q.eobTypes ?? []).length === 0 &&
    (q.ids ?? []).length === 0 &&
    (q.tokens ?? []).length === 0 &&
    (q.dates ?? []).length === 0 &&
    !q.excludeSamhsa
  );
}
