/**
 * What every batch of a RIF load shares: the engine's load (counts, refusals), the open transaction, the
 * resource writer, where names are looked up, the transforms, and the load's time. Resources are stored
 * through `storeResources`, which stamps them as `fhir import` does (fhir.ts `stampResources`).
 */
import type { Transaction } from 'kysely';
import type { RifBeneficiary, TransformContext } from '../../fhir/bfd/rif-record.js';
import type { ResourceFacts } from '../../fhir/validate.js';
import type { Database } from '../../storage/schema.js';
import type { KindLoad } from '../engine/kind.js';
import { stampResources } from '../fhir.js';
import type { BatchLookups } from './lookups.js';
import type { ResourceWriter } from './store.js';

type Json = Record<string, unknown>;

/**
 * The transforms of beneficiaries into FHIR resources: src/fhir/bfd/transform.ts `servedTransforms` (claims
 * are stored as their rows and made into resources when read: fhir/bfd/claim-source.ts).
 */
export interface RifTransforms {
  patientResource(record: RifBeneficiary, context: TransformContext): Json;
  coverageResources(record: RifBeneficiary, context: TransformContext): Json[];
}

export interface RifContext {
  readonly load: KindLoad;
  readonly trx: Transaction<Database>;
  readonly resources: ResourceWriter;
  readonly lookups: BatchLookups;
  readonly transforms: RifTransforms;
  /** The load's time: epoch milliseconds, and ISO 8601 (`meta.lastUpdated`, an EOB's `created`). */
  readonly now: number;
  readonly created: string;
  /** The next position of a history row in load order (rif_beneficiary_history.seq). */
  nextSeq(): Promise<number>;
}

/** A resource to store with what the store files it by. */
export interface Storable {
  facts: Pick<
    ResourceFacts,
    'resourceType' | 'id' | 'patientId' | 'eobType' | 'serviceDate' | 'tokens' | 'dates' | 'samhsa'
  >;
  resource: Json;
}

/**
 * Stamps and writes `items` (`meta.versionId` one more than the stored version, `meta.lastUpdated` the
 * load's time).
 */
export async function storeResources(context: RifContext, items: readonly Storable[]): Promise<void> {
  if (items.length === 0) return;
  const replaced = new Set<string>();
  const rows = await stampResources(
    items,
    async (type, ids) => {
      const found = await context.resources.versions(type, ids);
      for (const id of found.keys()) replaced.add(`${type}/${id}`);
      return found;
    },
    new Map(),
    context.created,
    context.now,
  );
  const samhsa = new Set(
    items.filter((i) => i.facts.samhsa).map((i) => `${i.facts.resourceType}/${i.facts.id}`),
  );
  await context.resources.write(
    rows.map((r) => ({ ...r, samhsa: samhsa.has(`${r.resourceType}/${r.id}`) })),
    replaced,
  );
}

/** The facts of a Patient or Coverage of a beneficiary: no search beyond its compartment. */
export function beneficiaryFacts(resource: Json, beneId: string): Storable['facts'] {
  return {
    resourceType: resource.resourceType === 'Patient' ? 'Patient' : 'Coverage',
    id: String(resource.id),
    patientId: beneId,
    eobType: null,
    serviceDate: null,
    tokens: [],
    dates: [],
    samhsa: false,
  };
}

/** The message of an error a transform threw. */
export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));
