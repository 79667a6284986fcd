import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { EnrolleeStore } from '../auth/store/enrollees.js';
import { generateEnrollees } from '../fhir/generate.js';
import { createFhirStore } from '../fhir/store/resources.js';
import { rifClaimSources } from '../fhir/bfd/claim-source.js';
import type { Database } from '../storage/schema.js';
import { importFhir, type FhirImportReport } from './fhir.js';
import { runIngest } from './engine/run.js';
import type { IngestSummary } from './engine/report.js';
import { rifKind } from './rif/kind.js';
import { sandboxLookups } from './rif/synthetic/lookups.js';
import { writeSyntheticRif } from './rif/synthetic/write.js';

/** The random seed the zero-setup sandbox uses, so every fresh start serves the same sample claims. */
export const SANDBOX_SEED = 2026;

/**
 * Writes the synthetic enrollees' resources as NDJSON (one resource per line, CARIN profiles, the NDJSON
 * generator of src/fhir/generate.ts), streaming. `openenroll fhir generate --format ndjson`.
 */
export async function writeSyntheticNdjson(path: string, enrollees: number, seed: number): Promise<number> {
  const out = createWriteStream(path, 'utf8');
  let count = 0;
  for (const resource of generateEnrollees(enrollees, seed)) {
    if (!out.write(`${JSON.stringify(resource)}\n`)) await once(out, 'drain');
    count += 1;
  }
  out.end();
  await once(out, 'finish');
  return count;
}

/**
 * Sandbox mode, first start: the sandbox enrollees' synthetic claims, in one of two shapes
 * (docs/decisions.md#sandbox-enrollees). `rif` (the default) writes them as CCW RIF files
 * (src/ingest/rif/synthetic/) and loads them through the RIF ingest, as a Medicare extract is loaded, so the
 * sandbox serves what Blue Button serves for such records (docs/claims-rif.md); the sample providers, drugs and
 * diagnoses are named from the sample tables. `carin` writes CARIN NDJSON (src/fhir/generate.ts), whose claims
 * refer to Organization and Practitioner resources by id, and loads it through `fhir import`, as a plan whose
 * claims are not in RIF form loads them. Does nothing when any FHIR data is already stored.
 */
export async function ensureSandboxClaims(
  stores: { db: Kysely<Database>; enrollees: EnrolleeStore },
  enrollees: number,
  shape: 'rif' | 'carin',
  now: number,
): Promise<IngestSummary | FhirImportReport | undefined> {
  const fhir = createFhirStore(stores.db, rifClaimSources);
  if (enrollees === 0 || (await fhir.countResources()) > 0) return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'openenroll-sandbox-'));
  try {
    if (shape === 'carin') {
      const file = join(dir, 'sandbox-claims.ndjson');
      await writeSyntheticNdjson(file, enrollees, SANDBOX_SEED);
      return await importFhir([file], { fhir, enrollees: stores.enrollees }, now);
    }
    const files = await writeSyntheticRif(dir, enrollees, SANDBOX_SEED);
    return await runIngest(
      rifKind({ lookups: sandboxLookups }),
      files.map((f) => f.path),
      stores.db,
      { sample: true, now },
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
