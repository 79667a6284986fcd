import type { Json } from './elements.js';
import type { RifClaim, TransformContext } from './rif-record.js';

/** Not written yet. */
export function carrierEob(record: RifClaim, context: TransformContext): Json {
  throw new Error(`carrierEob is not written yet (${String(record)}, ${context.created})`);
}
