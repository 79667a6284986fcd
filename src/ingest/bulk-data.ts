import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.js';
import { createBulkService, type BulkBuild } from '../plans/bulk/build.js';
import { bulkDataYears } from '../plans/market-years.js';
import { createBulkDocumentStore } from '../plans/store/bulk-documents.js';
import { createBulkSourceStore } from '../plans/store/bulk-sources.js';
import { createDatasetStore } from '../storage/datasets.js';

/**
 * After a load commits: builds the bulk documents of the served years (current and previous market year)
 * whose datasets changed, so the first request after a load does not wait for a build.
 */
export async function refreshBulkData(db: Kysely<Database>, now: number): Promise<BulkBuild[]> {
  const datasets = await createDatasetStore(db).listDatasets();
  const bulk = createBulkService({
    documents: createBulkDocumentStore(db),
    sources: createBulkSourceStore(db),
    now: () => now,
  });
  return bulk.refresh(bulkDataYears(datasets, now), datasets);
}

/** One line per document built, for the CLI. */
export function describeBuilds(builds: BulkBuild[]): string[] {
  return builds.map(({ name, year, document }) =>
    document
      ? `bulk data: ${name} ${year} built (${document.bytes.toLocaleString('en-US')} bytes, ` +
        `${document.gzipBytes.toLocaleString('en-US')} gzipped, ${document.buildMs} ms)`
      : `bulk data: ${name} ${year}: no data`,
  );
}
