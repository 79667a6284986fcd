import type { Json } from './elements.js';
import type { RifBeneficiary, TransformContext } from './rif-record.js';

/** Not written yet. */
export function coverageResources(record: RifBeneficiary, context: TransformContext): Json[] {
  throw new Error(`coverageResources is not written yet (${String(record)}, ${context.created})`);
}
