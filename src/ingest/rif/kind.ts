/**
 * `openenroll ingest rif FILE|DIR…`: CCW RIF extracts (beneficiaries, their history, and the claims of
 * every type BFD serves) into the FHIR store as the Patient, Coverage and ExplanationOfBenefit resources
 * Blue Button 2.0 serves for them (docs/claims-rif.md). Files are read in the order given, a directory's
 * RIF files in name order; each file's header says what it holds. One transaction like every ingest
 * kind: a refused line is reported as `file:line` and, past `--allow-rejects`, nothing is stored.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RifRecordType } from '../../fhir/bfd/rif-record.js';
import { servedTransforms } from '../../fhir/bfd/transform.js';
import type { IngestKind, KindLoad } from '../engine/kind.js';
import { storeBeneficiaryBatch } from './beneficiaries.js';
import { prepareBatch } from './claim-prepare.js';
import { readClaimFileInThread } from './claim-thread.js';
import { claimPipeline } from './claims.js';
import { fileRecordType } from './header.js';
import type { RifContext, RifTransforms } from './context.js';
import { loadLookups, type BatchLookups } from './lookups.js';
import { readRifBatches } from './records.js';
import { resourceWriter } from './store.js';

/** The files of a directory read as RIF files: text extracts, not manifests or notes. */
const RIF_FILE = /\.(txt|csv|dat|rif)$/i;

/** The files to read: each path, or a directory's RIF files in name order. */
export async function rifFiles(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    if ((await stat(path)).isDirectory()) {
      const names = (await readdir(path)).filter((n) => RIF_FILE.test(n) && !n.startsWith('.')).sort();
      files.push(...names.map((n) => join(path, n)));
    } else {
      files.push(path);
    }
  }
  return files;
}

export interface RifKindOptions {
  /** Where names are looked up (default: the NPPES and NUCC tables of this database). */
  lookups?: BatchLookups;
}

/** BFD's resources as the service serves them: conformed to CARIN (docs/claims-rif.md#carin). */
const TRANSFORMS: RifTransforms = servedTransforms;

/** The record types stored by beneficiaries.ts (the others are claims). */
const BENEFICIARY_TYPES = new Set<RifRecordType>(['beneficiary', 'beneficiary-history', 'mbi-history']);

/** The `rif` ingest kind. */
export function rifKind(options: RifKindOptions = {}): IngestKind {
  return {
    kind: 'rif',
    summary: 'CCW RIF extracts (beneficiaries, their history, claims, Part D events): claims data as FHIR',
    owns: [],
    async size(paths) {
      let total = 0;
      for (const file of await rifFiles(paths)) total += (await stat(file)).size;
      return total;
    },
    load: (paths, load) => loadRif(paths, load, options),
  };
}

async function loadRif(paths: string[], load: KindLoad, options: RifKindOptions): Promise<void> {
  const { writer } = load;
  // Year 0: the load is recorded as one dataset (rows: the resources written), not per year.
  await writer.startYear(0);
  const now = Date.now();
  let seq: number | undefined;
  const context: RifContext = {
    load,
    trx: writer.db,
    resources: resourceWriter(writer),
    lookups: options.lookups ?? loadLookups(),
    transforms: TRANSFORMS,
    now,
    created: new Date(now).toISOString(),
    async nextSeq() {
      if (seq === undefined) {
        const row = await writer.db
          .selectFrom('rif_beneficiary_history')
          .select((eb) => eb.fn.max('seq').as('last'))
          .executeTakeFirst();
        seq = Number(row?.last ?? 0);
      }
      return (seq += 1);
    },
  };
  const claims = claimPipeline(context);
  for (const file of await rifFiles(paths)) {
    load.reading(file);
    // A claim file is read and prepared in a thread while this one stores (claim-thread.ts); the others
    // here, in order.
    const type = await fileRecordType(file);
    if (type !== undefined && !BENEFICIARY_TYPES.has(type)) {
      await readClaimFileInThread(file, load, (batch) => claims.add(batch));
      continue;
    }
    for await (const batch of readRifBatches(file, load)) {
      if (BENEFICIARY_TYPES.has(batch.type)) await storeBeneficiaryBatch(context, batch);
      else await claims.add(prepareBatch(batch));
    }
  }
}
