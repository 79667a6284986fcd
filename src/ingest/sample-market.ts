import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ingestKind, tabularFormats } from './kinds.js';
import { refreshBulkData } from './bulk-data.js';
import type { IngestSummary } from './engine/report.js';
import { loadBundledZipPoints } from './zip-locations/bundled.js';
import type { Storage } from '../storage/connect.js';
import { createDbCounters } from '../storage/counters.js';
import { PLAN_KINDS } from '../plans/tables/plan-kinds.js';
import { createDatasetStore, type DatasetInfo, type DatasetStore } from '../storage/datasets.js';
import { writeSampleMarket } from '../plans/sample/files.js';
import { PRICE_KINDS } from '../prices/scope.js';
import { SAMPLE_MARKET_SEED } from '../plans/sample/market.js';

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
 * Geography (and Texas's published Medicaid limits) the sample brings along only where none is loaded yet
 * (from real files, or by an earlier sample load that stopped half way): a national county list must not
 * give way to three counties, nor a national Medicaid table to one state's rows. The same holds for the
 * one-vintage drug and provider lists (RxNorm, NUCC, NPPES).
 */
const GEOGRAPHY = new Set(['counties', 'zip-county', 'rating-areas', 'medicaid']);
const ONE_VINTAGE = new Set(['counties', 'zip-county', 'rxnorm', 'nucc-taxonomy', 'nppes', 'zip-locations']);

/** The price lookup's kinds: once any price data is loaded, the sample brings none (the lookup prefers real data). */
const PRICES = new Set<string>(PRICE_KINDS);

function alreadyLoaded(datasets: DatasetInfo[], kind: string, year: number): boolean {
  if (PRICES.has(kind)) return datasets.some((d) => PRICES.has(d.kind));
  // Geography of one vintage (counties, ZIPs) is one dataset whatever its year; rating areas are per year.
  const same = (d: DatasetInfo) => d.kind === kind && (ONE_VINTAGE.has(kind) || d.year === year);
  return (GEOGRAPHY.has(kind) || ONE_VINTAGE.has(kind)) && datasets.some(same);
}

/**
 * The `--year` a sample file is loaded with: tabular formats without a year column (rating areas) take the
 * market year; lists of one vintage stay yearless; the issuers' files carry their own years.
 */
function yearOfLoad(kind: string, year: number): number | undefined {
  const tabular = tabularFormats.find((f) => f.kind === kind);
  return tabular && !tabular.yearOptional ? year : undefined;
}

export interface SampleMarketLoad {
  year: number;
  summaries: IngestSummary[];
}

async function load(storage: Storage, now: number, seed: number): Promise<SampleMarketLoad> {
  const year = new Date(now).getUTCFullYear();
  const datasets = createDatasetStore(storage.db);
  const before = await datasets.listDatasets();
  const dir = await mkdtemp(join(tmpdir(), 'openenroll-sample-market-'));
  try {
    const summaries: IngestSummary[] = [];
    for (const file of await writeSampleMarket(dir, { year, seed })) {
      if (alreadyLoaded(before, file.kind, year)) continue;
      summaries.push(
        await ingestKind(file.kind, [file.path], storage.db, {
          // Formats without a year column (rating areas) take the market year; geography and lists of
          // one vintage stay yearless; the PUFs and issuer files carry their own years.
          year: yearOfLoad(file.kind, year),
          sample: true,
          now,
        }),
      );
    }
    // Real ZIP points (not sample: the 2021 Census Gazetteer, bundled) for provider distances.
    if (!alreadyLoaded(before, 'zip-locations', year))
      summaries.push(await loadBundledZipPoints(storage.db, now));
    await refreshBulkData(storage.db, now);
    return { year, summaries };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
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
  seed = SAMPLE_MARKET_SEED,
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
        return (await hasPlans(datasets)) ? undefined : await load(storage, now, seed);
      } finally {
        await lease.reset(LEASE);
      }
    }
    if (Date.now() - started > WAIT_MS) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return undefined;
}
