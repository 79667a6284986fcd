/**
 * Batches of claims (or Part D events) stored as ExplanationOfBenefit rows, with the DML indicator honoured
 * as BFD's pipeline does in production (its idempotent mode, docs/claims-rif.md#rif): an INSERT of a claim
 * already stored does nothing, an UPDATE replaces it (or stores it when it is not stored yet).
 *
 * A claim is stored as its RIF cells with the names looked up for it, and made into its resource when it
 * is first read (docs/claims-rif.md#storage). Its search facts are computed beforehand from the same rows
 * (claim-prepare.ts, in the claim file's thread); a claim no resource can be made of is refused at its lines.
 */
import { createHash } from 'node:crypto';
import { namesOf } from '../../fhir/bfd/claim-source.js';
import { storedVersionNumber } from '../fhir.js';
import type { RifContext } from './context.js';
import type { PreparedBatch } from './claim-prepare.js';
import { refuseRecord } from './records.js';
import type { RifResourceRow } from './store.js';

/** The id of a layout: a digest of its column names. */
function layoutId(columns: readonly string[]): string {
  return createHash('sha256').update(columns.join('|')).digest('base64url').slice(0, 22);
}

export interface ClaimPipeline {
  add(batch: PreparedBatch): Promise<void>;
}

/** The claims of a load, batch by batch, with the layouts of their files stored once. */
export function claimPipeline(context: RifContext): ClaimPipeline {
  const layouts = new Map<string, string>();
  const layoutOf = async (batch: PreparedBatch): Promise<string> => {
    const key = batch.columns.join('|');
    let id = layouts.get(key);
    if (id === undefined) {
      id = layoutId(batch.columns);
      await context.trx
        .insertInto('rif_layouts')
        .values({ id, record_type: batch.type, columns: JSON.stringify(batch.columns) })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      layouts.set(key, id);
    }
    return id;
  };
  return {
    async add(batch) {
      await storeClaims(context, batch, await layoutOf(batch));
    },
  };
}

async function storeClaims(context: RifContext, batch: PreparedBatch, layout: string): Promise<void> {
  const stored = await context.resources.versions(
    'ExplanationOfBenefit',
    batch.claims.map((c) => c.id),
  );
  const taken = new Set<string>();
  const claims = batch.claims.filter((claim) => {
    if (claim.action === 'INSERT' && (stored.has(claim.id) || taken.has(claim.id))) {
      context.load.skipped(claim.lines.length);
      return false;
    }
    taken.add(claim.id);
    if (claim.refused !== undefined) {
      const reasons = new Map([[claim.lines[0]!, claim.refused]]);
      refuseRecord(context.load, batch.file, batch.type, claim, reasons);
      return false;
    }
    return true;
  });
  if (claims.length === 0) return;

  // The batch's NPIs looked up in one read; each claim keeps the names of its own.
  const npis = new Set<string>();
  for (const claim of claims) for (const npi of claim.keys!.npis) npis.add(npi);
  const lookups = await context.lookups(context.trx, npis);

  const rows: RifResourceRow[] = [];
  const replaced = new Set<string>();
  for (const claim of claims) {
    // One more than the stored version, as `fhir import` numbers them.
    const storedVersion = stored.get(claim.id);
    const version = (storedVersion === undefined ? 0 : storedVersionNumber(storedVersion)) + 1;
    if (stored.has(claim.id)) replaced.add(`ExplanationOfBenefit/${claim.id}`);
    // The source's JSON (fhir/bfd/claim-source.ts ClaimSource), the cells as the thread serialised them.
    const source =
      `{"meta":{"versionId":${JSON.stringify(String(version))}},"layout":${JSON.stringify(layout)},` +
      `"rows":${claim.cells},"names":${JSON.stringify(namesOf(claim.keys!, lookups))}}`;
    const facts = claim.facts!;
    rows.push({
      resourceType: 'ExplanationOfBenefit',
      id: claim.id,
      patientId: claim.beneId,
      eobType: batch.type,
      serviceDate: facts.serviceDate,
      lastUpdated: context.now,
      body: '',
      source,
      tokens: facts.tokens,
      dates: facts.dates,
      samhsa: facts.samhsa,
    });
  }
  await context.resources.write(rows, replaced);
}
