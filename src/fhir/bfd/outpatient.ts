import type { Json } from './elements.js';
import type { RifClaim, TransformContext } from './rif-record.js';

/** Not written yet. */
export function outpatientEob(record: RifClaim, context: TransformContext): Json {
  throw new Error(`outpatientEob is not written yet (${String(record)}, ${context.created})`);
}
