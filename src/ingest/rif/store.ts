/**
 * How the RIF ingest writes resources into the FHIR store, inside the load's one transaction: the rows of
 * `fhir_resources` (with the SAMHSA mark) and the search values kept beside them (`fhir_search_tokens`,
 * `fhir_search_dates`), with the FHIR store's functions that `fhir import` writes them with
 * (fhir/store/resources.ts). A resource already stored is replaced: its rows are deleted, then written anew (a
 * fresh load, the common case, only inserts). The resource rows go through the engine's multi-row statements,
 * which also count them as the load's rows.
 */
import type { DatasetWriter } from '../engine/dataset-load.js';
import type { PlanDataTable } from '../engine/writes.js';
import {
  RESOURCE_COLUMNS,
  SEARCH_TABLES,
  deleteResourceRows,
  insertSearchValues,
  resourceRecord,
  storedVersions,
  type ResourceRow,
} from '../../fhir/store/resources.js';

/** A stamped resource as a RIF load writes it: the store's row and the SAMHSA mark of an EOB. */
export type RifResourceRow = ResourceRow & { samhsa: boolean };

export interface ResourceWriter {
  /** The stored `meta.versionId` of those of `ids` (of one type) that exist ("1" when a body has none). */
  versions(resourceType: string, ids: readonly string[]): Promise<Map<string, string>>;
  /** Writes stamped resources: new ones inserted, those of `replaced` (`type/id`) in place of the stored. */
  write(rows: readonly RifResourceRow[], replaced: ReadonlySet<string>): Promise<void>;
}

/** The writer of one load, over its dataset writer (whose transaction it shares). */
export function resourceWriter(writer: DatasetWriter): ResourceWriter {
  const trx = writer.db;
  return {
    versions: (resourceType, ids) => storedVersions(trx, resourceType, ids),
    async write(rows, replaced) {
      if (rows.length === 0) return;
      // A replaced resource is deleted whole (its row and search values), then inserted anew with the rest.
      if (replaced.size > 0) {
        const stored = rows.filter((r) => replaced.has(`${r.resourceType}/${r.id}`));
        await deleteResourceRows(trx, ['fhir_resources', ...SEARCH_TABLES], stored);
      }
      const values: unknown[] = [];
      for (const r of rows) {
        const record = resourceRecord(r);
        for (const column of RESOURCE_COLUMNS) values.push(record[column]);
      }
      // The engine's multi-row insert, which also counts the rows as the load's stored rows: the FHIR
      // store's table is not one of the plan tables its type names.
      await writer.addRows('fhir_resources' as PlanDataTable, RESOURCE_COLUMNS, values);
      await insertSearchValues(trx, rows);
    },
  };
}
