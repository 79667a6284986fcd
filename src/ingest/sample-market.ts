import type { Storage } from '../storage/connect.js';
import { createDbCounters } from '../storage/counters.js';
import { PLAN_KINDS } from '../plans/tables/plan-kinds.js';
import { createDatasetStore, type DatasetStore } from '../storage/datasets.js';
import type { SampleMarketLoad } from './sample-market-load.js';

export type { SampleMarketLoad } from './sample-market-load.js';

/** The lease one instance takes to load the sample; others wait for it instead of loading it twice. */
const LEASE = 'sample-market:load';
// A load takes about a second; the lease outlasts a slow one by far, and a waiting instance gives up
// (and starts without the sample) only after the lease of a dead holder would have lapsed.
const LEASE_SECONDS = 120;
const WAIT_MS = 150_000;

async function hasPlans(datasets: DatasetStore): Promise<boolean> {
  return (await datasets.listDatasets()).some((d) => (PLAN_KINDS as readonly string[]).includes(d.kind));
}

/**
 * Zero-setup start (the caller decides when: a sandbox with `SAMPLE_MARKET` on): when no plan data is
 * loaded for any year, generates the sample market for the clock's year and loads every file through the
 * same ingest path as the public files, marked as sample so every answer built from it says so.
 *
 * Several instances starting at once load it once: the one that takes the lease (a counter in the shared
 * database) loads; the others wait until the plans are there, and take over only if the lease lapses (its
 * holder died). Returns what this instance loaded, or undefined when it loaded nothing.
 */
export async function ensureSampleMarket(
  storage: Storage,
  now: number,
  seed?: number,
): Promise<SampleMarketLoad | undefined> {
  const datasets = createDatasetStore(storage.db);
  const lease = createDbCounters(storage.db);
  const started = Date.now();
  const at = () => now + (Date.now() - started);
  while (!(await hasPlans(datasets))) {
    // Only reads while another instance holds the lease: on SQLite a write would wait for its load.
    const free = (await lease.peek(LEASE, at())) === 0;
    if (free && (await lease.hit(LEASE, LEASE_SECONDS, at())) === 1) {
      try {
        // Another instance may have finished between our check and our lease.
        if (await hasPlans(datasets)) return undefined;
        // The generator and the ingest formats are imported only now: a start over loaded plans never needs them.
        const { loadSampleMarket } = await import('./sample-market-load.js');
        const { SAMPLE_MARKET_SEED } = await import('../plans/sample/market.js');
        return await loadSampleMarket(storage, now, seed ?? SAMPLE_MARKET_SEED);
      } finally {
        await lease.reset(LEASE);
      }
    }
    if (Date.now() - started > WAIT_MS) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return undefined;
}
