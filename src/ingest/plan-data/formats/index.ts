import type { IngestFormat } from '../format.js';
import { countiesFormat } from './counties.js';

/** Every ingest kind, in the order a first full load would run them (geography before plans). */
export const ingestFormats: IngestFormat[] = [countiesFormat];

export function findFormat(kind: string): IngestFormat | undefined {
  return ingestFormats.find((f) => f.kind === kind);
}
