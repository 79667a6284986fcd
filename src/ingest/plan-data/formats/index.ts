import type { IngestFormat } from '../format.js';
import { countiesFormat } from './counties.js';
import { zipCountyFormat } from './zip-county.js';
import { ratingAreasFormat } from './rating-areas.js';
import { medicaidFormat } from './medicaid.js';
import { landscapeFormat } from './landscape.js';

/** Every ingest kind, in the order a first full load would run them (geography before plans). */
export const ingestFormats: IngestFormat[] = [
  countiesFormat,
  zipCountyFormat,
  ratingAreasFormat,
  medicaidFormat,
  landscapeFormat,
];

export function findFormat(kind: string): IngestFormat | undefined {
  return ingestFormats.find((f) => f.kind === kind);
}
