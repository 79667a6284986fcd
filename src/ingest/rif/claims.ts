/**
 * Batches of claims (or Part D events) stored as ExplanationOfBenefit rows, with the DML indicator honoured
 * as BFD's pipeline does in production (its idempotent mode, docs/claims-rif.md#rif): an INSERT of a claim
 * already stored does nothing, an UPDATE replaces it (or stores it when it is not stored yet).
 *
 * A claim is stored as its RIF cells with the names looked up for it, and made into its resource when it
 * is first read (docs/claims-rif.md#storage); what its searches filter on is computed here, from the same
 * rows with the transforms' functions, and a claim no resource can be made of is refused at its lines.
 */
import { createHash } from 'node:crypto';
import {
  claimNames,
  claimSearchFacts,
  collectNpis,
  npiColumns,
  type ClaimSource,
} from '../../fhir/bfd/claim-source.js';
import { eobId as bfdEobId } from '../../fhir/bfd/eob-header.js';
import type { RifClaimType } from '../../fhir/bfd/rif-record.js';
import type { RifContext } from './context.js';
import { errorMessage } from './context.js';
import { refuseRecord, type RifBatch, type RifRecord } from './records.js';
import type { RifResourceRow } from './store.js';

/** The id BFD gives a claim's ExplanationOfBenefit: `carrier-9991831999`, `pde-89`. */
export const eobId = (type: RifClaimType, key: string) => `${type}-${key}`;

/** The id of a layout: a digest of its column names. */
function layoutId(columns: readonly string[]): string {
  return createHash('sha256').update(columns.join('|')).digest('base64url').slice(0, 22);
}

export interface ClaimPipeline {
  add(batch: RifBatch): Promise<void>;
}

/** The claims of a load, batch by batch, with the layouts of their files stored once. */
export function claimPipeline(context: RifContext): ClaimPipeline {
  const layouts = new Map<readonly string[], string>();
  const layoutOf = async (batch: RifBatch): Promise<string> => {
    let id = layouts.get(batch.columns);
    if (id === undefined) {
      id = layoutId(batch.columns);
      await context.trx
        .insertInto('rif_layouts')
        .values({ id, record_type: batch.type, columns: JSON.stringify(batch.columns) })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      layouts.set(batch.columns, id);
    }
    return id;
  };
  return {
    async add(batch) {
      await storeClaims(context, batch, await layoutOf(batch));
    },
  };
}

async function storeClaims(context: RifContext, batch: RifBatch, layout: string): Promise<void> {
  const type = batch.type as RifClaimType;
  const ids = batch.records.map((r) => eobId(type, r.key));
  const stored = await context.resources.versions('ExplanationOfBenefit', ids);
  const taken = new Set<string>();
  const records: { record: RifRecord; id: string }[] = [];
  batch.records.forEach((record, i) => {
    const id = ids[i]!;
    if (record.action === 'INSERT' && (stored.has(id) || taken.has(id))) {
      context.load.skipped(record.lines.length);
      return;
    }
    taken.add(id);
    records.push({ record, id });
  });
  if (records.length === 0) return;

  // Each claim's NPIs, and the batch's, looked up in one read.
  const columns = npiColumns(batch.columns);
  const npis = new Set<string>();
  const own = records.map(({ record }) => {
    const found = new Set<string>();
    collectNpis(record.rows, columns, found);
    for (const npi of found) npis.add(npi);
    return [...found];
  });
  const lookups = await context.lookups(context.trx, npis);

  const rows: RifResourceRow[] = [];
  const replaced = new Set<string>();
  for (const [i, { record, id }] of records.entries()) {
    const claim = { type, rows: record.rows };
    let facts;
    try {
      facts = claimSearchFacts(claim);
      const made = bfdEobId(type, record.key);
      if (made !== id) throw new Error(`the transform names it ${made}, not ${id}`);
    } catch (error) {
      const reason = `no ExplanationOfBenefit could be made of ${id}: ${errorMessage(error)}`;
      refuseRecord(context.load, batch.file, batch.type, record, new Map([[record.lines[0]!, reason]]));
      continue;
    }
    // One more than the stored version (a stored version that is no number counts as 1), as `fhir import`.
    const before = stored.has(id) ? Number.parseInt(stored.get(id)!, 10) : 0;
    const version = (Number.isSafeInteger(before) && before > 0 ? before : stored.has(id) ? 1 : 0) + 1;
    if (stored.has(id)) replaced.add(`ExplanationOfBenefit/${id}`);
    const source: ClaimSource = {
      meta: { versionId: String(version) },
      layout,
      rows: record.cells as string[][],
      names: claimNames(claim, own[i]!, lookups),
    };
    const row: RifResourceRow = {
      resourceType: 'ExplanationOfBenefit',
      id,
      patientId: record.beneId,
      eobType: type,
      serviceDate: facts.serviceDate,
      lastUpdated: context.now,
      body: '',
      source: JSON.stringify(source),
      tokens: facts.tokens,
      dates: facts.dates,
      samhsa: facts.samhsa,
    };
    rows.push(row);
  }
  await context.resources.write(rows, replaced);
}
