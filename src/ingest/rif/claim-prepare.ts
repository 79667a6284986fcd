/**
 * A batch of claims prepared for storing, without the database: each claim's EOB id, its search facts (or
 * why no resource can be made of it), the names it may need looked up and its cells as the JSON its source
 * keeps (docs/claims-rif.md#storage). Pure, so it runs in the claim file's thread (claim-thread.ts).
 */
import {
  claimCodes,
  claimNameKeys,
  claimSearchFacts,
  npiColumns,
  type NameKeys,
} from '../../fhir/bfd/claim-source.js';
import { eobId as bfdEobId } from '../../fhir/bfd/eob-header.js';
import type { RifClaimType } from '../../fhir/bfd/rif-record.js';
import type { ResourceFacts } from '../../fhir/validate.js';
import { errorMessage } from './context.js';
import type { RifAction, RifBatch } from './records.js';

/** The id BFD gives a claim's ExplanationOfBenefit: `carrier-9991831999`, `pde-89`. */
export const eobId = (type: RifClaimType, key: string) => `${type}-${key}`;

export interface PreparedClaim {
  action: RifAction;
  key: string;
  beneId: string;
  /** The 1-based line of each of its rows. */
  lines: number[];
  id: string;
  /** Why no resource can be made of it; undefined when one can. */
  refused?: string;
  facts?: Pick<ResourceFacts, 'serviceDate' | 'tokens' | 'dates' | 'samhsa'>;
  keys?: NameKeys;
  /** Its rows' cells as JSON (an array of arrays of text). */
  cells: string;
}

export interface PreparedBatch {
  type: RifClaimType;
  file: string;
  columns: readonly string[];
  claims: PreparedClaim[];
}

export function prepareBatch(batch: RifBatch): PreparedBatch {
  const type = batch.type as RifClaimType;
  const npis = npiColumns(batch.columns);
  const claims = batch.records.map((record): PreparedClaim => {
    const id = eobId(type, record.key);
    const base = {
      action: record.action,
      key: record.key,
      beneId: record.beneId,
      lines: [...record.lines],
      id,
      cells: JSON.stringify(record.cells),
    };
    const claim = { type, rows: record.rows };
    try {
      const codes = claimCodes(claim);
      const facts = claimSearchFacts(claim, codes);
      const made = bfdEobId(type, record.key);
      if (made !== id) throw new Error(`the transform names it ${made}, not ${id}`);
      return { ...base, facts, keys: claimNameKeys(claim, npis, codes) };
    } catch (error) {
      return { ...base, refused: `no ExplanationOfBenefit could be made of ${id}: ${errorMessage(error)}` };
    }
  });
  return { type, file: batch.file, columns: batch.columns, claims };
}
