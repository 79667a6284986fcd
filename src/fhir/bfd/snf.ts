import type { Json } from './elements.js';
import type { RifClaim, TransformContext } from './rif-record.js';

/** Not written yet. */
export function snfEob(record: RifClaim, context: TransformContext): Json {
  throw new Error(`snfEob is not written yet (${String(record)}, ${context.created})`);
}
