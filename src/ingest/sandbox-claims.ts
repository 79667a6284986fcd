import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateEnrollees } from '../fhir/generate.js';
import type { EnrolleeStore } from '../auth/store/enrollees.js';
import type { FhirStore } from '../fhir/store/resources.js';
import { importFhir, type FhirImportReport } from './fhir.js';

/** The random seed the zero-setup sandbox uses, so every fresh start serves the same sample claims. */
export const SANDBOX_SEED = 2026;

/** Writes the synthetic enrollees' resources as NDJSON (one resource per line), streaming. */
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
 * Sandbox mode, first start: generates sample claims for the sandbox enrollees and loads them through the
 * same import path a health plan uses. Does nothing when any FHIR data is already stored.
 */
export async function ensureSandboxClaims(
  stores: { fhir: FhirStore; enrollees: EnrolleeStore },
  enrollees: number,
  now: number,
): Promise<FhirImportReport | undefined> {
  if (enrollees === 0 || (await stores.fhir.countResources()) > 0) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'openenroll-sandbox-'));
  try {
    const file = join(dir, 'sandbox-claims.ndjson');
    await writeSyntheticNdjson(file, enrollees, SANDBOX_SEED);
    return await importFhir([file], stores, now);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
