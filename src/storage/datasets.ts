import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

// The record of loaded datasets (`plan_datasets`, one row per kind and year) is written by every ingest load
// in its own transaction (ingest/engine/dataset-load.ts) and read by the plan API, the price lookup, the
// commands and ingest itself: a store below all of them, as the counters are.

export interface DatasetInfo {
  kind: string;
  year: number;
  sample: boolean;
  /** The files it was loaded from (for a format that replaces part of a year: every file of the year). */
  source: string;
  /** Rows written by its latest load. */
  rows: number;
  loadedAt: number;
  /** How long its latest load took; null for loads made before this was recorded. */
  durationMs: number | null;
}

/**
 * Kinds whose loads are enrollees' claims (CCW RIF files): recorded like every load, for operators (`/metrics`,
 * the commands), but they are neither plan nor price data, so the public APIs' lists of loaded datasets
 * (`/api/v1/versions`, the sample labels) leave them out.
 */
export const CLAIMS_DATASET_KINDS: readonly string[] = ['rif'];

/** Whether a dataset belongs in the public APIs' lists (not an enrollees' claims load). */
export function isPublicDataset(dataset: DatasetInfo): boolean {
  return !CLAIMS_DATASET_KINDS.includes(dataset.kind);
}

export function createDatasetStore(db: Kysely<Database>) {
  return {
    async listDatasets(): Promise<DatasetInfo[]> {
      const rows = await db.selectFrom('plan_datasets').selectAll().orderBy('kind').orderBy('year').execute();
      return rows.map((r) => ({
        kind: r.kind,
        year: Number(r.year),
        sample: r.sample === 1,
        source: r.source,
        rows: Number(r.rows),
        loadedAt: Number(r.loaded_at),
        durationMs: r.duration_ms === null ? null : Number(r.duration_ms),
      }));
    },
  };
}

export type DatasetStore = ReturnType<typeof createDatasetStore>;
