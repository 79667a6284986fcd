import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.js';
import { createDatasetStore } from '../storage/datasets.js';
import { missingCompanions } from './companions.js';
import type { IngestKind } from './engine/kind.js';
import type { IngestOptions, IngestSummary } from './engine/report.js';
import { runIngest } from './engine/run.js';
import type { TabularFormat } from './engine/tabular-format.js';
import { tabularKind } from './engine/tabular-kind.js';
import { benefitsFormat } from './cms-puf/benefits.js';
import { businessRulesFormat } from './cms-puf/business-rules.js';
import { crosswalkFormat } from './cms-puf/crosswalk.js';
import { landscapeFormat } from './cms-puf/landscape.js';
import { networksFormat } from './cms-puf/networks.js';
import { planAttributesFormat } from './cms-puf/plan-attributes.js';
import { qualityFormat } from './cms-puf/quality.js';
import { ratesFormat } from './cms-puf/rates.js';
import { serviceAreasFormat } from './cms-puf/service-areas.js';
import { decileMappingFormat } from './decile-mapping/format.js';
import { countiesFormat } from './geography/counties.js';
import { ratingAreasFormat } from './geography/rating-areas.js';
import { zipCountyFormat } from './geography/zip-county.js';
import { medicaidFormat } from './medicaid/format.js';
import { mrPufFormat } from './mr-puf/format.js';
import { nppesFormat } from './nppes/format.js';
import { nuccTaxonomyFormat } from './nucc-taxonomy/format.js';
import { ascAddendumAaFormat } from './price-lookup/asc-addendum-aa.js';
import { oppsAddendumBFormat } from './price-lookup/opps-addendum-b.js';
import { pplProceduresFormat } from './price-lookup/procedures.js';
import { rifKind } from './rif/kind.js';
import { rxnormFormat } from './rxnorm/format.js';
import { zipLocationsFormat } from './zip-locations/format.js';

/** The kinds read as one table per file, in the order a first full load would run them (geography before plans). */
export const tabularFormats: TabularFormat<unknown>[] = [
  countiesFormat,
  zipCountyFormat,
  ratingAreasFormat,
  medicaidFormat,
  landscapeFormat,
  planAttributesFormat,
  serviceAreasFormat,
  ratesFormat,
  benefitsFormat,
  crosswalkFormat,
  qualityFormat,
  networksFormat,
  businessRulesFormat,
  nuccTaxonomyFormat,
  nppesFormat,
  oppsAddendumBFormat,
  ascAddendumAaFormat,
  pplProceduresFormat,
];

/** Every ingest kind with its one-line summary: the tabular ones, then those that read their files themselves. */
export const ingestKinds: IngestKind[] = [
  ...tabularFormats.map((format) => tabularKind(format)),
  zipLocationsFormat,
  rxnormFormat,
  mrPufFormat(),
  decileMappingFormat,
  rifKind(),
];

/** Loads `files` as `kind` (one of `ingestKinds`), then warns of the kinds its years still need. */
export async function ingestKind(
  kind: string,
  files: string[],
  db: Kysely<Database>,
  options: IngestOptions,
): Promise<IngestSummary> {
  const found = ingestKinds.find((k) => k.kind === kind);
  if (!found) throw new Error(`no ingest kind "${kind}"`);
  const summary = await runIngest(found, files, db, options);
  const warnings = missingCompanions(
    kind,
    summary.years,
    await createDatasetStore(db).listDatasets(),
    options.sample ?? false,
  );
  summary.warnings = [...(summary.warnings ?? []), ...warnings];
  return summary;
}
