/**
 * Batches of claims (or Part D events) stored as ExplanationOfBenefit resources, with the DML indicator
 * honoured as BFD's pipeline does in production (its idempotent mode, docs/claims-rif.md#rif): an INSERT of
 * a claim already stored does nothing, an UPDATE replaces it (or stores it when it is not stored yet). A
 * claim the transform cannot turn into a resource is refused at its lines.
 *
 * Each batch is prepared on the load's thread (the stored versions of its ids, the names it needs), made
 * into rows (in the transform thread when there is one, while the next batch is read), then written in
 * file order.
 */
import type { RifClaimType } from '../../fhir/bfd/rif-record.js';
import { claimResources, eobId, type ClaimJob, type ClaimResult } from './claim-resources.js';
import type { RifContext } from './context.js';
import { collectNpis, npiColumns, readNpiRecords } from './lookups.js';
import { refuseRecord, type RifBatch, type RifRecord } from './records.js';
import type { TransformThread } from './transform-thread.js';

/** A batch ready to be made into rows. */
interface Prepared {
  batch: RifBatch;
  job: ClaimJob;
  /** The records of `job.claims`, in the same order. */
  records: RifRecord[];
  /** `ExplanationOfBenefit/id` of the claims that replace a stored one. */
  replaced: Set<string>;
  npis: Set<string>;
}

/** Reads what a batch needs from the database; undefined when none of its claims is to be written. */
async function prepare(context: RifContext, batch: RifBatch): Promise<Prepared | undefined> {
  const type = batch.type as RifClaimType;
  const ids = batch.records.map((r) => eobId(type, r.key));
  const stored = await context.resources.versions('ExplanationOfBenefit', ids);
  const taken = new Set<string>();
  const records: RifRecord[] = [];
  const claims: ClaimJob['claims'] = [];
  const replaced = new Set<string>();
  batch.records.forEach((record, i) => {
    const id = ids[i]!;
    if (record.action === 'INSERT' && (stored.has(id) || taken.has(id))) {
      context.load.skipped(record.lines.length);
      return;
    }
    taken.add(id);
    if (stored.has(id)) replaced.add(`ExplanationOfBenefit/${id}`);
    records.push(record);
    claims.push({ id, beneId: record.beneId, rows: record.rows });
  });
  if (records.length === 0) return undefined;
  const npis = new Set<string>();
  const columns = npiColumns(Object.keys(records[0]!.rows[0]!));
  for (const record of records) collectNpis(record.rows, columns, npis);
  const versions = [...stored].filter(([id]) => taken.has(id));
  const job: ClaimJob = { type, claims, versions, now: context.now, created: context.created };
  return { batch, job, records, replaced, npis };
}

/** Refuses what the transform could not make, writes the rest. */
async function finish(context: RifContext, prepared: Prepared, result: ClaimResult): Promise<void> {
  const { batch, records } = prepared;
  for (const [index, reason] of result.refused) {
    const record = records[index]!;
    refuseRecord(context.load, batch.file, batch.type, record, new Map([[record.lines[0]!, reason]]));
  }
  await context.resources.write(result.rows, prepared.replaced);
}

/** How many batches the transform thread may hold while the load's thread reads on. */
const AHEAD = 2;

export interface ClaimPipeline {
  add(batch: RifBatch): Promise<void>;
  /** Waits until every batch added is written. */
  drain(): Promise<void>;
}

/**
 * The claims of a load, batch by batch: made on the load's thread with its transforms and lookups, or,
 * given a transform `thread` (started when first asked for), made there with names from the NPPES tables
 * while the next batches are prepared.
 */
export function claimPipeline(context: RifContext, thread?: () => TransformThread): ClaimPipeline {
  const queue: { prepared: Prepared; result: Promise<ClaimResult> }[] = [];
  /** Ids of the claims of queued batches: a batch naming one waits until they are written. */
  const queued = new Set<string>();
  const writeOldest = async () => {
    const { prepared, result } = queue.shift()!;
    await finish(context, prepared, await result);
    for (const { id } of prepared.job.claims) queued.delete(id);
  };
  const drain = async () => {
    while (queue.length > 0) await writeOldest();
  };
  return {
    drain,
    async add(batch) {
      const type = batch.type as RifClaimType;
      if (batch.records.some((r) => queued.has(eobId(type, r.key)))) await drain();
      const prepared = await prepare(context, batch);
      if (!prepared) return;
      if (!thread) {
        const lookups = await context.lookups(context.trx, prepared.npis);
        const { claimEob } = context.transforms;
        return finish(context, prepared, await claimResources(prepared.job, claimEob, lookups));
      }
      const npis = await readNpiRecords(context.trx, prepared.npis);
      const result = thread().run(prepared.job, [...npis]);
      // A load that stops early leaves queued results unread: their failure is not an unhandled one.
      result.catch(() => undefined);
      queue.push({ prepared, result });
      for (const { id } of prepared.job.claims) queued.add(id);
      while (queue.length > AHEAD) await writeOldest();
    },
  };
}
