import { sql, type Kysely, type Selectable, type SelectQueryBuilder, type Transaction } from 'kysely';
import type { Database, FhirResourcesTable } from '../../storage/schema.js';
import type { DayRangeMatch } from '../date-search.js';
import type { TokenValue } from '../token-search.js';

/** A resource as stored: its body plus the facts searches filter on. */
export interface StoredResource {
  resourceType: string;
  id: string;
  patientId: string;
  eobType: string | null;
  serviceDate: string | null;
  lastUpdated: number;
  body: string;
}

/**
 * A token a search parameter matches by `system|value` (EOB `identifier`), kept in `fhir_search_tokens`;
 * `system` is '' for a token without one.
 */
export interface SearchToken {
  param: string;
  system: string;
  value: string;
}

/**
 * The days one value of a date search parameter spans (EOB `service-start-date`, `billable-period-start`),
 * kept in `fhir_search_dates`: a resource has as many rows of a parameter as it has distinct values.
 */
export interface SearchDate {
  param: string;
  /** `YYYY-MM-DD`, inclusive. */
  first: string;
  last: string;
}

/** A resource as written: the stored resource and the values of the searches kept beside it. */
export interface ResourceRow extends StoredResource {
  tokens: SearchToken[];
  dates: SearchDate[];
  /** Withheld from `excludeSAMHSA=true` searches (`samhsa` 1). */
  samhsa: boolean;
}

/**
 * `patient_id` of a resource in no patient's compartment (Organization, Practitioner: the directory that
 * claims and coverages point at). No Patient has it (a FHIR id is 1-64 characters), so no patient's search
 * ever matches such a row.
 */
export const NO_PATIENT = '';

/** Writes one import; every call happens inside the import's single transaction. */
export interface ImportWriter {
  /** Writes the rows (new or in place) and replaces their search values. */
  upsert(resources: ResourceRow[]): Promise<void>;
  /** Which of `ids` (of one type) exist, counting what this import already wrote. */
  existing(resourceType: string, ids: string[]): Promise<Set<string>>;
  /** The stored `meta.versionId` of those of `ids` (of one type) that exist ("1" when a body has none). */
  versions(resourceType: string, ids: string[]): Promise<Map<string, string>>;
}

function writer(trx: Transaction<Database>): ImportWriter {
  return {
    async upsert(resources) {
      if (resources.length === 0) return;
      await trx
        .insertInto('fhir_resources')
        .values(
          resources.map((r) => ({
            resource_type: r.resourceType,
            id: r.id,
            patient_id: r.patientId,
            eob_type: r.eobType,
            service_date: r.serviceDate,
            last_updated: r.lastUpdated,
            body: r.body,
            samhsa: r.samhsa ? 1 : 0,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['resource_type', 'id']).doUpdateSet((eb) => ({
            patient_id: eb.ref('excluded.patient_id'),
            eob_type: eb.ref('excluded.eob_type'),
            service_date: eb.ref('excluded.service_date'),
            last_updated: eb.ref('excluded.last_updated'),
            body: eb.ref('excluded.body'),
            samhsa: eb.ref('excluded.samhsa'),
          })),
        )
        .execute();
      await replaceSearchValues(trx, resources);
    },
    async existing(resourceType, ids) {
      const found = new Set<string>();
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await trx
          .selectFrom('fhir_resources')
          .select('id')
          .where('resource_type', '=', resourceType)
          .where('id', 'in', ids.slice(i, i + 500))
          .execute();
        for (const row of rows) found.add(row.id);
      }
      return found;
    },
    async versions(resourceType, ids) {
      const found = new Map<string, string>();
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await trx
          .selectFrom('fhir_resources')
          .select(['id', 'body'])
          .where('resource_type', '=', resourceType)
          .where('id', 'in', ids.slice(i, i + 500))
          .execute();
        for (const row of rows) {
          const version = (JSON.parse(row.body) as { meta?: { versionId?: unknown } }).meta?.versionId;
          found.set(row.id, typeof version === 'string' && version !== '' ? version : '1');
        }
      }
      return found;
    },
  };
}

/** Up to this many rows per insert: well under SQLite's and PostgreSQL's limits on bound values. */
const INSERT_CHUNK = 1000;

/** `items` in slices of `size`. */
function* chunks<T>(items: T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/**
 * The side tables of the multi-valued searches: the resources' old rows go and their current values come
 * in, in the import's transaction, so a replaced resource is found by what it says now.
 */
async function replaceSearchValues(trx: Transaction<Database>, resources: ResourceRow[]): Promise<void> {
  const byType = new Map<string, string[]>();
  for (const r of resources) byType.set(r.resourceType, [...(byType.get(r.resourceType) ?? []), r.id]);
  for (const [resourceType, ids] of byType) {
    for (const slice of chunks(ids, 500)) {
      for (const table of ['fhir_search_tokens', 'fhir_search_dates'] as const) {
        await trx
          .deleteFrom(table)
          .where('resource_type', '=', resourceType)
          .where('id', 'in', slice)
          .execute();
      }
    }
  }
  const tokens = resources.flatMap((r) =>
    r.tokens.map((t) => ({ resource_type: r.resourceType, id: r.id, ...t })),
  );
  for (const slice of chunks(tokens, INSERT_CHUNK)) {
    await trx
      .insertInto('fhir_search_tokens')
      .values(slice)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  const dates = resources.flatMap((r) =>
    r.dates.map((d) => ({
      resource_type: r.resourceType,
      id: r.id,
      param: d.param,
      first_day: d.first,
      last_day: d.last,
    })),
  );
  for (const slice of chunks(dates, INSERT_CHUNK)) {
    await trx
      .insertInto('fhir_search_dates')
      .values(slice)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

export function createFhirStore(db: Kysely<Database>) {
  return {
    /** Runs a whole import in one transaction: it lands completely or not at all. */
    async importAll<T>(work: (writer: ImportWriter) => Promise<T>): Promise<T> {
      return db.transaction().execute((trx) => work(writer(trx)));
    },

    async countResources(resourceType?: string): Promise<number> {
      let query = db.selectFrom('fhir_resources').select((eb) => eb.fn.countAll<number>().as('n'));
      if (resourceType) query = query.where('resource_type', '=', resourceType);
      return Number((await query.executeTakeFirstOrThrow()).n);
    },

    search(q: ResourceQuery) {
      return searchResources(db, q);
    },

    async findResource(resourceType: string, id: string): Promise<StoredResource | undefined> {
      const row = await db
        .selectFrom('fhir_resources')
        .selectAll()
        .where('resource_type', '=', resourceType)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && storedResource(row);
    },

    /** For `_include`: the resources `refs` name that exist; whose they are is the caller's to check. */
    findReferenced(refs: ResourceRef[]): Promise<StoredResource[]> {
      return findReferenced(db, refs);
    },

    /**
     * Brings the planner's statistics of the resource table up to date. PostgreSQL plans from statistics
     * that autovacuum refreshes only some time after a bulk load; until then it guesses, and an EOB page
     * sorts every resource of the patient instead of walking the page index. `fhir import` calls it on
     * PostgreSQL after each load (PostgreSQL's "Populating a Database": run ANALYZE afterwards).
     */
    async analyze(): Promise<void> {
      await sql`analyze fhir_resources`.execute(db);
    },

    /**
     * Patients whose stored JSON holds `value` as a string anywhere: the candidates for a member identifier
     * (the caller checks `identifier` itself). Bodies are stored as `JSON.stringify` writes them, so the
     * value appears exactly as its JSON string; it is bound, with `%`, `_` and `\` escaped for `like`.
     * A scan of the Patient rows: it runs once per member, at their first sign-in.
     */
    async findPatientsHolding(value: string): Promise<StoredResource[]> {
      const pattern = `%${JSON.stringify(value).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const rows = await db
        .selectFrom('fhir_resources')
        .selectAll()
        .where('resource_type', '=', 'Patient')
        .where(sql<boolean>`body like ${pattern} escape '\\'`)
        .execute();
      return rows.map(storedResource);
    },

    /** The resources of one type with these ids that exist (batch read; any order, duplicates once). */
    findResources(resourceType: string, ids: string[]): Promise<StoredResource[]> {
      return findReferenced(
        db,
        ids.map((id) => ({ resourceType, id })),
      );
    },
  };
}

export type FhirStore = ReturnType<typeof createFhirStore>;

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
  offset: number;
  limit: number;
}

/** A resource named by a reference (`Organization/123`), as `_include` asks for them. */
export interface ResourceRef {
  resourceType: string;
  id: string;
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

/** A page of matching resources (raw JSON bodies, in id order) and how many match in all. */
async function searchResources(
  db: Kysely<Database>,
  q: ResourceQuery,
): Promise<{ total: number; bodies: { id: string; body: string }[] }> {
  let where: Filter = db
    .selectFrom('fhir_resources')
    .where('resource_type', '=', q.resourceType)
    .where('patient_id', '=', q.patientId);
  for (const interval of q.lastUpdated) where = within(where, 'last_updated', interval);
  for (const interval of q.serviceDate) where = within(where, 'service_date', interval);
  if (q.eobTypes && q.eobTypes.length > 0) where = where.where('eob_type', 'in', q.eobTypes);
  for (const alternatives of q.ids ?? []) where = where.where('id', 'in', alternatives);
  for (const { param, alternatives } of q.tokens ?? []) where = withToken(where, param, alternatives);
  for (const { param, match } of q.dates ?? []) where = withDate(where, param, match);
  if (q.excludeSamhsa) where = where.where('samhsa', '=', 0);
  const counted = await where.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const total = Number(counted.n);
  if (q.limit === 0 || q.offset >= total) return { total, bodies: [] };
  const bodies = await where.select(['id', 'body']).orderBy('id').limit(q.limit).offset(q.offset).execute();
  return { total, bodies };
}

/** The resources `refs` name that exist, in no particular order (for `_include`; the caller filters). */
async function findReferenced(db: Kysely<Database>, refs: ResourceRef[]): Promise<StoredResource[]> {
  const found: StoredResource[] = [];
  const byType = new Map<string, string[]>();
  for (const { resourceType, id } of refs)
    byType.set(resourceType, [...(byType.get(resourceType) ?? []), id]);
  for (const [resourceType, ids] of byType) {
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 500) {
      const rows = await db
        .selectFrom('fhir_resources')
        .selectAll()
        .where('resource_type', '=', resourceType)
        .where('id', 'in', unique.slice(i, i + 500))
        .execute();
      found.push(...rows.map(storedResource));
    }
  }
  return found;
}

function storedResource(row: Selectable<FhirResourcesTable>): StoredResource {
  return {
    resourceType: row.resource_type,
    id: row.id,
    patientId: row.patient_id,
    eobType: row.eob_type,
    serviceDate: row.service_date,
    lastUpdated: Number(row.last_updated),
    body: row.body,
  };
}
