import {
  PostgresAdapter,
  sql,
  type Insertable,
  type Kysely,
  type Selectable,
  type Transaction,
} from 'kysely';
import { batchedReads } from '../../storage/batched-statements.js';
import { preparedQuery } from '../../storage/prepared.js';
import type { BodyCache, BodyCacheStats, CachedBody } from './body-cache.js';
import {
  PAGE_COLUMNS,
  PAGE_FACTS,
  ROW_VERSION,
  byPatient,
  countedPageAt,
  keptCount,
  versionIsGiven,
  searchResources,
  selectBodies,
  selectFacts,
  selectVersionedBodies,
  unfiltered,
  type PreparedPages,
  type FactsRow,
  type PageSelect,
  type ResourceQuery,
  type SearchPage,
} from './resource-search.js';
import type { Database, FhirResourcesTable } from '../../storage/schema.js';

/** A resource as stored: its body plus the facts searches filter on. */
export interface StoredResource {
  resourceType: string;
  id: string;
  patientId: string;
  eobType: string | null;
  serviceDate: string | null;
  lastUpdated: number;
  body: string;
  /** `body` as UTF-8, when the body cache keeps it so (PostgreSQL; a read by id, see `findResource`). */
  bytes?: Buffer;
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
  /**
   * A RIF claim's source, whose resource is made at the first read (`body` '' until then); absent for a
   * resource stored whole.
   */
  source?: string;
}

/** A stored row whose body is made from its source (docs/claims-rif.md#storage). */
export interface SourceRow {
  resourceType: string;
  id: string;
  patientId: string;
  eobType: string | null;
  lastUpdated: number;
  source: string;
}

/**
 * Makes the JSON of a resource stored as its source (fhir/bfd/claim-source.ts for RIF claims); `columns`
 * reads a RIF layout's column names. Without `taxNumbers` it is the answer stored as the body; with it, the
 * answer to `IncludeTaxNumbers: true`, made for the request.
 */
export interface SourceBodies {
  build(
    row: SourceRow,
    columns: (layout: string) => Promise<readonly string[]>,
    taxNumbers?: boolean,
  ): Promise<string>;
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

/** A resource row as the columns of its `fhir_resources` row. */
export function resourceRecord(r: ResourceRow): Insertable<FhirResourcesTable> {
  return {
    resource_type: r.resourceType,
    id: r.id,
    patient_id: r.patientId,
    eob_type: r.eobType,
    service_date: r.serviceDate,
    last_updated: r.lastUpdated,
    body: r.body,
    samhsa: r.samhsa ? 1 : 0,
    source: r.source ?? null,
  };
}

/** The columns `resourceRecord` fills. */
export const RESOURCE_COLUMNS = [
  'resource_type',
  'id',
  'patient_id',
  'eob_type',
  'service_date',
  'last_updated',
  'body',
  'samhsa',
  'source',
] as const satisfies readonly (keyof FhirResourcesTable)[];

/** The tables that hold the values of the multi-valued searches, beside each resource's row. */
export const SEARCH_TABLES = ['fhir_search_tokens', 'fhir_search_dates'] as const;

/** Patients whose last page's warmth each process remembers (createFhirStore's `warm`). */
const WARM_PATIENTS = 10_000;

/** How many ids one read or delete names. */
const ID_CHUNK = 500;

/** Up to this many rows per insert: well under SQLite's and PostgreSQL's limits on bound values. */
const INSERT_CHUNK = 1000;

/** `items` in slices of `size`. */
function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** The ids of `resources` by resource type. */
function idsByType(resources: readonly ResourceRef[]): Map<string, string[]> {
  const byType = new Map<string, string[]>();
  for (const { resourceType, id } of resources) {
    let ids = byType.get(resourceType);
    if (!ids) byType.set(resourceType, (ids = []));
    ids.push(id);
  }
  return byType;
}

/**
 * The stored `meta.versionId` of those of `ids` (of one type) that exist ("1" when a body has none), read
 * with the database's JSON functions so that no body is fetched: from the body, or from the source of a
 * claim whose body is not made yet (it keeps `meta.versionId` too). Shared by `fhir import` and `ingest rif`.
 */
export async function storedVersions(
  trx: Transaction<Database>,
  resourceType: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const version =
    trx.getExecutor().adapter instanceof PostgresAdapter
      ? sql<string | null>`(coalesce(nullif(body, ''), source)::json -> 'meta' ->> 'versionId')`
      : sql<string | null>`json_extract(coalesce(nullif(body, ''), source), '$.meta.versionId')`;
  const found = new Map<string, string>();
  for (const slice of chunks(ids, ID_CHUNK)) {
    const rows = await trx
      .selectFrom('fhir_resources')
      .select(['id', version.as('version')])
      .where('resource_type', '=', resourceType)
      .where('id', 'in', slice)
      .execute();
    for (const row of rows) {
      found.set(row.id, typeof row.version === 'string' && row.version !== '' ? row.version : '1');
    }
  }
  return found;
}

/**
 * Deletes what `tables` (`fhir_resources` and the search tables) hold of `resources`. Shared by `fhir
 * import`, which replaces the search values of what it writes, and `ingest rif`, which deletes a replaced
 * resource whole before inserting it anew.
 */
export async function deleteResourceRows(
  trx: Transaction<Database>,
  tables: readonly ('fhir_resources' | (typeof SEARCH_TABLES)[number])[],
  resources: readonly ResourceRef[],
): Promise<void> {
  for (const [resourceType, ids] of idsByType(resources)) {
    for (const slice of chunks(ids, ID_CHUNK)) {
      for (const table of tables) {
        await trx
          .deleteFrom(table)
          .where('resource_type', '=', resourceType)
          .where('id', 'in', slice)
          .execute();
      }
    }
  }
}

/**
 * Inserts the search values of `resources` into the side tables of the multi-valued searches (a value
 * already there is kept). Shared by `fhir import` and `ingest rif`.
 */
export async function insertSearchValues(
  trx: Transaction<Database>,
  resources: readonly ResourceRow[],
): Promise<void> {
  const tokens = resources.flatMap((r) =>
    r.tokens.map((t) => ({
      resource_type: r.resourceType,
      id: r.id,
      param: t.param,
      system: t.system,
      value: t.value,
    })),
  );
  await insertNew(trx, 'fhir_search_tokens', tokens);
  const dates = resources.flatMap((r) =>
    r.dates.map((d) => ({
      resource_type: r.resourceType,
      id: r.id,
      param: d.param,
      first_day: d.first,
      last_day: d.last,
    })),
  );
  await insertNew(trx, 'fhir_search_dates', dates);
}

/** Inserts `rows` into a search table in slices, keeping a row that is already there. */
async function insertNew<T extends (typeof SEARCH_TABLES)[number]>(
  trx: Transaction<Database>,
  table: T,
  rows: readonly Insertable<Database[T]>[],
): Promise<void> {
  for (const slice of chunks(rows, INSERT_CHUNK)) {
    await trx
      .insertInto(table)
      .values(slice)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

function writer(trx: Transaction<Database>): ImportWriter {
  return {
    async upsert(resources) {
      if (resources.length === 0) return;
      await trx
        .insertInto('fhir_resources')
        .values(resources.map(resourceRecord))
        .onConflict((oc) =>
          oc.columns(['resource_type', 'id']).doUpdateSet((eb) => ({
            patient_id: eb.ref('excluded.patient_id'),
            eob_type: eb.ref('excluded.eob_type'),
            service_date: eb.ref('excluded.service_date'),
            last_updated: eb.ref('excluded.last_updated'),
            body: eb.ref('excluded.body'),
            samhsa: eb.ref('excluded.samhsa'),
            source: eb.ref('excluded.source'),
          })),
        )
        .execute();
      // The resources' old search values go and their current ones come in, in the import's transaction,
      // so a replaced resource is found by what it says now.
      await deleteResourceRows(trx, SEARCH_TABLES, resources);
      await insertSearchValues(trx, resources);
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
    versions(resourceType, ids) {
      return storedVersions(trx, resourceType, ids);
    },
  };
}

/**
 * The column names of each RIF layout read so far. A layout's id is a digest of its columns and a layout is
 * never changed, so what one process has read stays true for every instance.
 */
const layoutColumns = new Map<string, readonly string[]>();

async function readLayout(db: Kysely<Database>, id: string): Promise<readonly string[]> {
  let columns = layoutColumns.get(id);
  if (columns === undefined) {
    const row = await db.selectFrom('rif_layouts').select('columns').where('id', '=', id).executeTakeFirst();
    if (!row) throw new Error(`RIF layout ${id} is not stored`);
    columns = JSON.parse(row.columns) as string[];
    layoutColumns.set(id, columns);
  }
  return columns;
}

/** A row as read, with what a body made from its source needs. */
export type ReadRow = Pick<
  Selectable<FhirResourcesTable>,
  'resource_type' | 'id' | 'patient_id' | 'eob_type' | 'last_updated' | 'body' | 'source'
>;

/**
 * The rows with their bodies: a claim stored as its source is made into its resource, which is then stored
 * as its body, so that only its first read makes it (two instances reading it at once write the same JSON).
 * The bodies a read made are stored by one statement per resource type, one round trip and one commit
 * for a page rather than one per claim. With `taxNumbers`, such a claim is made for the request with its
 * lines' tax numbers, and not stored.
 */
async function withBodies<R extends ReadRow>(
  db: Kysely<Database>,
  sources: SourceBodies,
  rows: R[],
  taxNumbers = false,
  keep?: BodyCache,
): Promise<R[]> {
  const toStore: R[] = [];
  for (const row of rows) {
    if (row.source === null || (row.body !== '' && !taxNumbers)) continue;
    const made = await sources.build(
      {
        resourceType: row.resource_type,
        id: row.id,
        patientId: row.patient_id,
        eobType: row.eob_type,
        lastUpdated: Number(row.last_updated),
        source: row.source,
      },
      (layout) => readLayout(db, layout),
      taxNumbers,
    );
    if (!taxNumbers && row.body === '') toStore.push(row);
    row.body = made;
  }
  await storeBodies(db, toStore, keep);
  return rows;
}

/**
 * PostgreSQL: merges each patient's rows of `fhir_patient_counts` (one per write that changed their count,
 * migration 0018) into one, dropping the patients left with none, so that a page sums a row or two. Writers
 * only insert there, so this waits for none of them; a second compaction at the same time skips its turn
 * (a transaction-scoped advisory lock). Run after each load (`analyze`).
 */
async function compactPatientCounts(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ locked: boolean }>`
      select pg_try_advisory_xact_lock(hashtext('openenroll.fhir_patient_counts')) as locked`.execute(trx);
    if (!rows[0]?.locked) return;
    await sql`
      with merged as (
        delete from fhir_patient_counts
        where (resource_type, patient_id) in (
          select resource_type, patient_id from fhir_patient_counts
          group by resource_type, patient_id having count(*) > 1 or sum(n) = 0
        )
        returning resource_type, patient_id, n
      )
      insert into fhir_patient_counts (resource_type, patient_id, n)
        select resource_type, patient_id, sum(n) from merged
        group by resource_type, patient_id having sum(n) <> 0`.execute(trx);
  });
}

/**
 * Stores the bodies made of `rows` where none is stored yet, one statement per type and slice, each only over
 * the source it was made from: a claim a load replaced meanwhile keeps its new source, to be made anew.
 * `keep` (PostgreSQL's body cache) keeps each body stored under the version the store gave its row, so that
 * the next read finds it kept instead of fetching what it just made.
 */
async function storeBodies(db: Kysely<Database>, rows: readonly ReadRow[], keep?: BodyCache): Promise<void> {
  const byType = new Map<string, ReadRow[]>();
  for (const row of rows) byType.set(row.resource_type, [...(byType.get(row.resource_type) ?? []), row]);
  for (const [resourceType, ofType] of byType) {
    for (const slice of chunks(ofType, ID_CHUNK / 2)) {
      const body = sql<string>`case ${sql.ref('id')} ${sql.join(
        slice.map((r) => sql`when ${r.id} then ${r.body}`),
        sql` `,
      )} end`;
      const update = db
        .updateTable('fhir_resources')
        .set({ body })
        .where('resource_type', '=', resourceType)
        .where(
          'id',
          'in',
          slice.map((r) => r.id),
        )
        .where('body', '=', '')
        .where(
          sql<boolean>`case ${sql.ref('id')} ${sql.join(
            slice.map((r) => sql`when ${r.id} then ${sql.ref('source')} = ${r.source}`),
            sql` `,
          )} else false end`,
        );
      if (!keep) {
        await update.execute();
        continue;
      }
      const made = new Map(slice.map((r) => [r.id, r.body]));
      for (const { id, version } of await update.returning(['id', ROW_VERSION]).execute()) {
        keep.set(resourceType, id, version, made.get(id)!);
      }
    }
  }
}

export type { ColumnInterval, PageSeek, ResourceQuery, SearchPage } from './resource-search.js';

export interface FhirStoreOptions {
  /** Reads by id made at the same time go out together (storage/batched-statements.ts): the server's, on PostgreSQL. */
  batchedReads?: boolean;
  /**
   * Bodies kept in this process by row version (body-cache.ts): the server's, on PostgreSQL only (the
   * statements read `xmin`). Reads and pages then fetch a body only when the version kept is not the row's.
   */
  bodyCache?: BodyCache;
  /**
   * The first and `startIndex` pages of a search with no filter take their total from
   * `fhir_patient_counts` (PostgreSQL: the server's), not from counting the patient's rows.
   */
  patientCounts?: boolean;
}

export function createFhirStore(db: Kysely<Database>, sources: SourceBodies, options: FhirStoreOptions = {}) {
  const { bodyCache } = options;
  const made = <R extends ReadRow>(rows: R[], taxNumbers?: boolean) =>
    withBodies(db, sources, rows, taxNumbers, bodyCache);
  // The hot statements are built once and, on PostgreSQL, sent by name (parsed and planned once per
  // connection): the reads by id, and the pages of a search with no filter (preparedPagesBy).
  const NAMED = { named: true };
  type ReadByIdRow = ReadRow & Pick<FhirResourcesTable, 'service_date'>;
  /** A resource type's rows with the columns a read by id gives. */
  const ofType = (type: never) =>
    db
      .selectFrom('fhir_resources')
      .select([...PAGE_COLUMNS, 'service_date'])
      .where('resource_type', '=', type);
  const readById = preparedQuery<'type' | 'id', ReadByIdRow>(
    db,
    (param) => ofType(param('type')).where('id', '=', param('id')),
    NAMED,
  );
  // The same read for every id that concurrent requests ask for, one reader per resource type.
  const readManyById = preparedQuery<'type' | 'ids', ReadByIdRow>(
    db,
    (param) => ofType(param('type')).where(sql<boolean>`id = any(${param('ids')})`),
    NAMED,
  );
  type VersionedRow = Omit<ReadByIdRow, 'body' | 'source'> & {
    version: string;
    body: string | null;
    source: string | null;
  };
  // With the body cache: the same read for ids each with the version whose body this process holds
  // ('' for none); a row still at that version comes back without its body and source (null).
  const readVersioned = preparedQuery<'type' | 'ids' | 'known', VersionedRow>(
    db,
    (param) => {
      const kept = versionIsGiven(param('ids'), param('known'));
      return db
        .selectFrom('fhir_resources')
        .select([
          ...PAGE_FACTS,
          'service_date',
          ROW_VERSION,
          sql<string | null>`case when ${kept} then null else body end`.as('body'),
          sql<string | null>`case when ${kept} then null else source end`.as('source'),
        ])
        .where('resource_type', '=', param('type'))
        .where(sql<boolean>`id = any(${param('ids')})`);
    },
    NAMED,
  );
  // The rows of a page whose bodies the cache lacks, each only at the version the page's statement saw.
  const readAtVersions = preparedQuery<'type' | 'ids' | 'versions', ReadRow>(
    db,
    (param) =>
      db
        .selectFrom('fhir_resources')
        .select(PAGE_COLUMNS)
        .where('resource_type', '=', param('type'))
        .where(sql<boolean>`id = any(${param('ids')})`)
        .where(versionIsGiven(param('ids'), param('versions'))),
    NAMED,
  );
  /** Reads `ids` of `type`, each body from the cache where its version is the row's (`fresh`: none). */
  const readManyVersioned = async (
    cache: BodyCache,
    type: string,
    ids: string[],
    fresh: boolean,
  ): Promise<Map<string, ReadByIdRow>> => {
    // The bodies held now, so that one evicted while the statement runs is still at hand.
    const held = new Map<string, CachedBody>();
    if (!fresh) {
      for (const id of ids) {
        const entry = cache.get(type, id);
        if (entry) held.set(id, entry);
      }
    }
    const known = ids.map((id) => held.get(id)?.version ?? '');
    const { rows } = await readVersioned({ type, ids, known });
    const found = new Map<string, ReadByIdRow>();
    for (const { version, body, source, ...facts } of rows) {
      const kept = body === null ? held.get(facts.id) : undefined;
      if (kept) {
        cache.count(true);
        found.set(facts.id, { ...facts, body: kept.body, source: null });
        continue;
      }
      cache.count(false);
      // A claim whose body is not made yet ('') is made and stored by its reader, under a new version.
      if (body) cache.set(type, facts.id, version, body);
      found.set(facts.id, { ...facts, body: body ?? '', source });
    }
    return found;
  };
  const readers = new Map<string, (id: string) => Promise<ReadByIdRow | undefined>>();
  /** One resource's row; `fresh`: its body and source from the database, whatever the cache holds. */
  const readOne = async (type: string, id: string, fresh = false): Promise<ReadByIdRow | undefined> => {
    if (bodyCache && !options.batchedReads) {
      return (await readManyVersioned(bodyCache, type, [id], fresh)).get(id);
    }
    if (!options.batchedReads) return (await readById({ type, id })).rows[0];
    const readerKey = `${type}\u0000${fresh}`;
    let reader = readers.get(readerKey);
    if (!reader) {
      reader = batchedReads(async (ids) => {
        if (bodyCache) return readManyVersioned(bodyCache, type, ids, fresh);
        const { rows } = await readManyById({ type, ids });
        return new Map(rows.map((row) => [row.id, row]));
      });
      readers.set(readerKey, reader);
    }
    // A copy per request: making a body (withBodies) writes it into the row, with tax numbers for some.
    const row = await reader(id);
    return row && { ...row };
  };
  /** The pages of a search with no filter as prepared statements, with the columns `pick` selects. */
  const preparedPagesBy = <R>(pick: PageSelect<R>): PreparedPages<R> => {
    const pageAfter = preparedQuery<'type' | 'patient' | 'after' | 'limit', R>(
      db,
      (param) =>
        pick(byPatient(db, param('type'), param('patient')))
          .where('id', '>', param('after'))
          .orderBy('id')
          .limit(param('limit')),
      NAMED,
    );
    const pageAt = preparedQuery<
      'type' | 'patient' | 'limit' | 'offset',
      R & { total: number | string | null }
    >(
      db,
      (param) =>
        countedPageAt(
          db,
          byPatient(db, param('type'), param('patient')),
          pick,
          param('type'),
          param('limit'),
          param('offset'),
          options.patientCounts ? keptCount(db, param('type'), param('patient')) : undefined,
        ),
      NAMED,
    );
    return {
      after: (q, after) =>
        pageAfter({ type: q.resourceType, patient: q.patientId, after, limit: q.limit + 1 }).then(
          (r) => r.rows,
        ),
      countedAt: (q) =>
        pageAt({ type: q.resourceType, patient: q.patientId, limit: q.limit + 1, offset: q.offset }).then(
          (r) => r.rows,
        ),
    };
  };
  const bodyPages = preparedPagesBy(selectBodies);
  const factPages = preparedPagesBy(selectFacts);
  const versionedPages = preparedPagesBy(selectVersionedBodies);
  /**
   * Per patient and resource type, whether the last page this process served of them found every body in
   * the cache: then the next page reads only its rows' facts and versions, and the bodies it lacks by id.
   * Otherwise (a patient not seen, or paged for the first time) the page reads its bodies as it would
   * without the cache, in one statement, and keeps them.
   */
  const warm = new Map<string, boolean>();
  const setWarm = (key: string, value: boolean) => {
    warm.delete(key);
    warm.set(key, value);
    if (warm.size > WARM_PATIENTS) warm.delete(warm.keys().next().value!);
  };
  /** A page read with its bodies and their versions in one statement, as without the cache; kept. */
  const pageWithBodies = async (cache: BodyCache, q: ResourceQuery, warmKey: string) => {
    const { rows, ...page } = await searchResources(
      db,
      q,
      selectVersionedBodies,
      unfiltered(q) ? versionedPages : undefined,
    );
    let allKept = rows.length > 0;
    const plain: ReadRow[] = [];
    for (const { version, ...row } of rows) {
      if (cache.get(row.resource_type, row.id)?.version !== version) allKept = false;
      cache.count(false);
      if (row.body !== '') cache.set(row.resource_type, row.id, version, row.body);
      plain.push(row);
    }
    setWarm(warmKey, allKept);
    return { ...page, rows: plain };
  };
  /**
   * A page whose patient was warm: its rows' facts and versions, the bodies kept at those versions, and
   * those it lacks read at exactly the versions the first statement saw (so each body is of the row that
   * statement found to be the patient's and to pass the search's filters). When a row changed or went in
   * between, the page is read again in one statement with its bodies.
   */
  const cachedPage = async (cache: BodyCache, q: ResourceQuery) => {
    const warmKey = `${q.resourceType}/${q.patientId}`;
    if (!warm.get(warmKey)) return pageWithBodies(cache, q, warmKey);
    const { rows, ...page } = await searchResources(
      db,
      q,
      selectFacts,
      unfiltered(q) ? factPages : undefined,
    );
    const served = new Map<string, ReadRow>();
    const lacking: FactsRow[] = [];
    for (const row of rows) {
      const entry = cache.get(row.resource_type, row.id);
      if (entry?.version === row.version) served.set(row.id, { ...row, body: entry.body, source: null });
      else lacking.push(row);
    }
    if (lacking.length > 0) {
      const { rows: read } = await readAtVersions({
        type: q.resourceType,
        ids: lacking.map((row) => row.id),
        versions: lacking.map((row) => row.version),
      });
      if (read.length < lacking.length) return pageWithBodies(cache, q, warmKey);
      const versions = new Map(lacking.map((row) => [row.id, row.version]));
      for (const row of read) {
        cache.count(false);
        if (row.body !== '') cache.set(row.resource_type, row.id, versions.get(row.id)!, row.body);
        served.set(row.id, row);
      }
    }
    cache.count(true, rows.length - lacking.length);
    setWarm(warmKey, lacking.length === 0);
    return { ...page, rows: rows.map((row) => served.get(row.id)!) };
  };
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

    /** What the body cache has served and holds; undefined without one (SQLite, or turned off). */
    bodyCacheStats(): BodyCacheStats | undefined {
      return bodyCache?.stats();
    },

    /** A page of matches in id order, bodies as stored (a RIF claim made at its first read). */
    async search(q: ResourceQuery): Promise<SearchPage> {
      const { rows, ...page } =
        bodyCache && !q.taxNumbers
          ? await cachedPage(bodyCache, q)
          : await searchResources(db, q, selectBodies, unfiltered(q) ? bodyPages : undefined);
      const cache = q.taxNumbers ? undefined : bodyCache;
      return {
        ...page,
        bodies: (await made(rows, q.taxNumbers)).map(({ resource_type, id, body }) => {
          const bytes = cache?.bytesOf(resource_type, id, body);
          return bytes ? { id, body, bytes } : { id, body };
        }),
      };
    },

    /** One resource; `taxNumbers`: a RIF claim with its lines' tax numbers (`IncludeTaxNumbers: true`). */
    async findResource(
      resourceType: string,
      id: string,
      options: { taxNumbers?: boolean } = {},
    ): Promise<StoredResource | undefined> {
      const row = await readOne(resourceType, id, options.taxNumbers);
      if (!row) return undefined;
      const resource = storedResource((await made([row], options.taxNumbers))[0]!);
      const bytes = options.taxNumbers ? undefined : bodyCache?.bytesOf(resourceType, id, resource.body);
      return bytes ? { ...resource, bytes } : resource;
    },

    /** For `_include`: the resources `refs` name that exist; whose they are is the caller's to check. */
    async findReferenced(refs: ResourceRef[]): Promise<StoredResource[]> {
      return (await made(await findReferenced(db, refs))).map(storedResource);
    },

    /**
     * Brings the planner's statistics of the resource table up to date, and its visibility map. PostgreSQL
     * plans from statistics that autovacuum refreshes only some time after a bulk load; until then it
     * guesses, and an EOB page sorts every resource of the patient instead of walking the page index. The
     * visibility map, which only VACUUM sets, lets a search count its matches and walk past skipped ones on
     * the indexes alone, without visiting the table (an index-only scan). `fhir import` and `ingest rif`
     * call it on PostgreSQL (only) after each load (PostgreSQL manual: "Populating a Database", run ANALYZE
     * afterwards; "Index-Only Scans and Covering Indexes", the visibility map). It first merges the
     * patients' count rows the load added (`compactPatientCounts`).
     */
    async analyze(): Promise<void> {
      await compactPatientCounts(db);
      await sql`vacuum (analyze) fhir_resources`.execute(db);
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
    async findResources(resourceType: string, ids: string[]): Promise<StoredResource[]> {
      const rows = await findReferenced(
        db,
        ids.map((id) => ({ resourceType, id })),
      );
      return (await made(rows)).map(storedResource);
    },
  };
}

export type FhirStore = ReturnType<typeof createFhirStore>;

/** A resource named by a reference (`Organization/123`), as `_include` asks for them. */
export interface ResourceRef {
  resourceType: string;
  id: string;
}

/** The rows of the resources `refs` name that exist, in no particular order (bodies as stored). */
async function findReferenced(
  db: Kysely<Database>,
  refs: ResourceRef[],
): Promise<Selectable<FhirResourcesTable>[]> {
  const found: Selectable<FhirResourcesTable>[] = [];
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
      found.push(...rows);
    }
  }
  return found;
}

function storedResource(
  row: Omit<ReadRow, 'source'> & Pick<FhirResourcesTable, 'service_date'>,
): StoredResource {
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
