/**
 * How the RIF ingest writes resources into the FHIR store, inside the load's one transaction: the rows of
 * `fhir_resources` (with the SAMHSA mark) and the search values kept beside them (`fhir_search_tokens`,
 * `fhir_search_dates`), as `fhir import` writes them. A resource already stored is replaced: its rows are
 * deleted, then written anew (a fresh load, the common case, only inserts, in the engine's multi-row
 * statements).
 */
import { PostgresAdapter, sql, type Transaction } from 'kysely';
import type { DatasetWriter } from '../engine/dataset-load.js';
import type { PlanDataTable } from '../engine/writes.js';
import type { ResourceRow } from '../../fhir/store/resources.js';
import type { Database } from '../../storage/schema.js';

/** The columns of `fhir_resources` a RIF load writes, in the order of `resourceValues`. */
const RESOURCE_COLUMNS = [
  'resource_type',
  'id',
  'patient_id',
  'eob_type',
  'service_date',
  'last_updated',
  'body',
  'samhsa',
] as const;

/** A stamped resource as a RIF load writes it: the store's row and the SAMHSA mark of an EOB. */
export type RifResourceRow = ResourceRow & { samhsa: boolean };

/** How many ids one read or delete names. */
const CHUNK = 500;

export interface ResourceWriter {
  /** The stored `meta.versionId` of those of `ids` (of one type) that exist ("1" when a body has none). */
  versions(resourceType: string, ids: readonly string[]): Promise<Map<string, string>>;
  /** Writes stamped resources: new ones inserted, those of `replaced` (`type/id`) in place of the stored. */
  write(rows: readonly RifResourceRow[], replaced: ReadonlySet<string>): Promise<void>;
}

/** The writer of one load, over its dataset writer (whose transaction it shares). */
export function resourceWriter(writer: DatasetWriter): ResourceWriter {
  const trx = writer.db;
  const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
  const version = postgres
    ? sql<string | null>`(body::json -> 'meta' ->> 'versionId')`
    : sql<string | null>`json_extract(body, '$.meta.versionId')`;
  return {
    async versions(resourceType, ids) {
      const found = new Map<string, string>();
      for (let i = 0; i < ids.length; i += CHUNK) {
        const rows = await trx
          .selectFrom('fhir_resources')
          .select(['id', version.as('version')])
          .where('resource_type', '=', resourceType)
          .where('id', 'in', ids.slice(i, i + CHUNK))
          .execute();
        for (const row of rows) {
          found.set(row.id, typeof row.version === 'string' && row.version !== '' ? row.version : '1');
        }
      }
      return found;
    },
    async write(rows, replaced) {
      if (rows.length === 0) return;
      if (replaced.size > 0) await removeStored(trx, rows, replaced);
      const values: unknown[] = [];
      for (const r of rows) {
        values.push(
          r.resourceType,
          r.id,
          r.patientId,
          r.eobType,
          r.serviceDate,
          r.lastUpdated,
          r.body,
          r.samhsa ? 1 : 0,
        );
      }
      // The engine's multi-row insert, which also counts the rows as the load's stored rows: the FHIR
      // store's table is not one of the plan tables its type names.
      await writer.addRows('fhir_resources' as PlanDataTable, RESOURCE_COLUMNS, values);
      await insertSearchValues(trx, rows);
    },
  };
}

/** Deletes the rows (and search values) of those of `rows` that are stored, before they are written anew. */
async function removeStored(
  trx: Transaction<Database>,
  rows: readonly RifResourceRow[],
  stored: ReadonlySet<string>,
): Promise<void> {
  const byType = new Map<string, string[]>();
  for (const r of rows) {
    if (!stored.has(`${r.resourceType}/${r.id}`)) continue;
    let ids = byType.get(r.resourceType);
    if (!ids) byType.set(r.resourceType, (ids = []));
    ids.push(r.id);
  }
  for (const [resourceType, ids] of byType) {
    for (let i = 0; i < ids.length; i += CHUNK) {
      const slice = ids.slice(i, i + CHUNK);
      for (const table of ['fhir_resources', 'fhir_search_tokens', 'fhir_search_dates'] as const) {
        await trx
          .deleteFrom(table)
          .where('resource_type', '=', resourceType)
          .where('id', 'in', slice)
          .execute();
      }
    }
  }
}

/** Rows per insert of search values (five columns each: well under both databases' limits). */
const SEARCH_CHUNK = 1000;

async function insertSearchValues(
  trx: Transaction<Database>,
  rows: readonly RifResourceRow[],
): Promise<void> {
  const tokens = rows.flatMap((r) =>
    r.tokens.map((t) => ({
      resource_type: r.resourceType,
      id: r.id,
      param: t.param,
      system: t.system,
      value: t.value,
    })),
  );
  for (let i = 0; i < tokens.length; i += SEARCH_CHUNK) {
    await trx
      .insertInto('fhir_search_tokens')
      .values(tokens.slice(i, i + SEARCH_CHUNK))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  const dates = rows.flatMap((r) =>
    r.dates.map((d) => ({
      resource_type: r.resourceType,
      id: r.id,
      param: d.param,
      first_day: d.first,
      last_day: d.last,
    })),
  );
  for (let i = 0; i < dates.length; i += SEARCH_CHUNK) {
    await trx
      .insertInto('fhir_search_dates')
      .values(dates.slice(i, i + SEARCH_CHUNK))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}
