import type { IngestFormat } from '../format.js';
import { countiesFormat } from './counties.js';
import { zipCountyFormat } from './zip-county.js';
import { ratingAreasFormat } from './rating-areas.js';
import { medicaidFormat } from './medicaid.js';
import { landscapeFormat } from './landscape.js';
import { planAttributesFormat } from './plan-attributes.js';
import { serviceAreasFormat } from './service-areas.js';
import { ratesFormat } from './rates.js';
import { benefitsFormat } from './benefits.js';
import { crosswalkFormat } from './crosswalk.js';
import { qualityFormat } from './quality.js';
import { networksFormat } from './networks.js';
import { businessRulesFormat } from './business-rules.js';
import { nppesFormat } from '../../nppes/format.js';
import { nuccTaxonomyFormat } from '../../nucc-taxonomy/format.js';
import { oppsAddendumBFormat } from '../../price-lookup/opps-addendum-b.js';
import { ascAddendumAaFormat } from '../../price-lookup/asc-addendum-aa.js';
import { pplProceduresFormat } from '../../price-lookup/procedures.js';

/** Every ingest kind, in the order a first full load would run them (geography before plans). */
export const ingestFormats: IngestFormat[] = [
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

export function findFormat(kind: string): IngestFormat | undefined {
  return ingestFormats.find((f) => f.kind === kind);
}
