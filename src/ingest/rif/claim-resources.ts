/**
 * Claims → stamped ExplanationOfBenefit rows, without the database: what the load's thread has read for a
 * batch (the claims to make, the stored versions of their ids, the names they need) in, the rows to
 * write and the claims refused out. Pure, so it runs as well in a worker thread (transform-thread.ts) as
 * on the load's own.
 */
import type { ClaimLookups } from '../../fhir/bfd/lookups.js';
import type { RifClaim, RifClaimType, RifRow, TransformContext } from '../../fhir/bfd/rif-record.js';
import { eobSearchFacts } from '../../fhir/validate.js';
import { stampResources } from '../fhir.js';
import { errorMessage, isSyntheticBene, tagSynthetic, type Storable } from './context.js';
import type { RifResourceRow } from './store.js';

type Json = Record<string, unknown>;

/** A batch's claims to turn into resources. */
export interface ClaimJob {
  type: RifClaimType;
  claims: { id: string; beneId: string; rows: readonly RifRow[] }[];
  /** `[id, meta.versionId]` of those of the claims' ids that are stored. */
  versions: [string, string][];
  now: number;
  created: string;
}

export interface ClaimResult {
  rows: RifResourceRow[];
  /** Claims refused: their index in the job and the reason. */
  refused: [number, string][];
}

/** The id BFD gives a claim's ExplanationOfBenefit: `carrier-9991831999`, `pde-89`. */
export const eobId = (type: RifClaimType, key: string) => `${type}-${key}`;

export async function claimResources(
  job: ClaimJob,
  claimEob: (claim: RifClaim, context: TransformContext) => Json,
  lookups: ClaimLookups,
): Promise<ClaimResult> {
  const context: TransformContext = { lookups, created: job.created };
  const items: Storable[] = [];
  const refused: [number, string][] = [];
  job.claims.forEach(({ id, beneId, rows }, i) => {
    try {
      const eob = claimEob({ type: job.type, rows }, context);
      if (eob.id !== id) throw new Error(`the transform named it ${String(eob.id)}, not ${id}`);
      if (isSyntheticBene(beneId)) tagSynthetic(eob);
      const facts = eobSearchFacts(eob);
      items.push({
        facts: { resourceType: 'ExplanationOfBenefit', id, patientId: beneId, eobType: job.type, ...facts },
        resource: eob,
      });
    } catch (error) {
      refused.push([i, `no ExplanationOfBenefit could be made of ${id}: ${errorMessage(error)}`]);
    }
  });
  const stored = new Map(job.versions);
  const stamped = await stampResources(
    items,
    async (_type, ids) => new Map(ids.flatMap((id) => (stored.has(id) ? [[id, stored.get(id)!]] : []))),
    new Map(),
    job.created,
    job.now,
  );
  const samhsa = new Set(items.filter((i) => i.facts.samhsa).map((i) => i.facts.id));
  return { rows: stamped.map((r) => ({ ...r, samhsa: samhsa.has(r.id) })), refused };
}
