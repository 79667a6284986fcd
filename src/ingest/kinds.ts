import type { DatasetStore } from '../plans/store/datasets.js';
import { ingestFormats } from './plan-data/formats/index.js';
import { runIngest } from './plan-data/run.js';
import type { IngestOptions, IngestSummary } from './report.js';
import { missingCompanions } from './companions.js';
import { mrPufFormat } from './mr-puf/format.js';
import { rxnormFormat } from './rxnorm/format.js';
import { runStreamIngest, type StreamFormat } from './streamed.js';
import { zipLocationsFormat } from './zip-locations/format.js';
import { decileMappingFormat } from './decile-mapping/format.js';

/** The kinds read as one table per file, then those that read their files themselves. */
const streamFormats: StreamFormat[] = [zipLocationsFormat, rxnormFormat, mrPufFormat(), decileMappingFormat];

/** Every ingest kind with its one-line summary, in the order a first full load would run them. */
export const ingestKinds: { kind: string; summary: string }[] = [...ingestFormats, ...streamFormats];

/** Loads `files` as `kind` (one of `ingestKinds`). */
export async function ingestKind(
  kind: string,
  files: string[],
  datasets: DatasetStore,
  options: IngestOptions,
): Promise<IngestSummary> {
  const tabular = ingestFormats.find((f) => f.kind === kind);
  const streamed = streamFormats.find((f) => f.kind === kind);
  if (!tabular && !streamed) throw new Error(`no ingest kind "${kind}"`);
  const summary = tabular
    ? await runIngest(tabular, files, datasets, options)
    : await runStreamIngest(streamed!, files, datasets, options);
  const warnings = missingCompanions(
    kind,
    summary.years,
    await datasets.listDatasets(),
    options.sample ?? false,
  );
  summary.warnings = [...(summary.warnings ?? []), ...warnings];
  return summary;
}
