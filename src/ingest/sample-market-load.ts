import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ingestKind, tabularFormats } from './kinds.js';
import { refreshBulkData } from './bulk-data.js';
import type { IngestSummary } from './engine/report.js';
import { loadBundledZipPoints } from './zip-locations/bundled.js';
import type { Storage } from '../storage/connect.js';
import { createDatasetStore, type DatasetInfo } from '../storage/datasets.js';
import { writeSampleMarket } from '../plans/sample/files.js';
import { PRICE_KINDS } from '../prices/scope.js';

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

/**
 * Writes the sample market's files for the clock's year and loads each through its ingest kind, marked as
 * sample, skipping what real data already covers; then builds the bulk documents. The caller holds the lease.
 */
export async function loadSampleMarket(
  storage: Storage,
  now: number,
  seed: number,
): Promise<SampleMarketLoad> {
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
