import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  IMPORTABLE_RESOURCE_TYPES,
  InvalidResource,
  validateResource,
  type ImportableResourceType,
  type ResourceFacts,
} from '../fhir/validate.js';
import type { EnrolleeStore } from '../auth/store/enrollees.js';
import { NO_PATIENT, type FhirStore, type ImportWriter, type ResourceRow } from '../fhir/store/resources.js';

/** A rejected import: where (file and line, or Bundle entry) and why. */
export class FhirImportError extends Error {
  constructor(
    readonly file: string,
    readonly where: string,
    problem: string,
  ) {
    super(`${file}:${where}: ${problem}`);
  }
}

export interface FhirImportReport {
  files: string[];
  counts: Record<ImportableResourceType, number>;
  /** Patients whose id is an enrollee account's patient id. */
  linkedPatients: number;
  /** Patient ids with no enrollee account (stored, but nobody can authorize access to them yet). */
  unlinkedPatients: string[];
}

interface Located {
  value: unknown;
  where: string;
}

/** The files to read: each path, or the `.ndjson` / `.json` files of a directory, in name order. */
async function expand(paths: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    if ((await stat(path)).isDirectory()) {
      const names = (await readdir(path)).filter((n) => /\.(nd)?json$/i.test(n)).sort();
      files.push(...names.map((n) => join(path, n)));
    } else {
      files.push(path);
    }
  }
  return files;
}

/** FHIR Bulk Data NDJSON: one resource per line, streamed. */
async function* ndjson(file: string): AsyncGenerator<Located> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let number = 0;
  for await (const line of lines) {
    number += 1;
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new FhirImportError(file, String(number), 'not valid JSON');
    }
    yield { value, where: String(number) };
  }
}

/** A `.json` file: one resource, or a Bundle whose entries are resources (read whole: Bundles are bounded). */
async function* bundle(file: string): AsyncGenerator<Located> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    throw new FhirImportError(file, '1', 'not valid JSON');
  }
  const root = value as { resourceType?: unknown; entry?: unknown };
  if (root?.resourceType !== 'Bundle') {
    yield { value, where: '1' };
    return;
  }
  if (!Array.isArray(root.entry)) throw new FhirImportError(file, 'entry', 'a Bundle needs an entry array');
  for (const [i, entry] of root.entry.entries()) {
    yield { value: (entry as { resource?: unknown } | null)?.resource, where: `entry[${i}]` };
  }
}

function readResources(file: string): AsyncGenerator<Located> {
  return /\.ndjson$/i.test(file) ? ndjson(file) : bundle(file);
}

/**
 * Loads FHIR R4 NDJSON files and Bundles of Patient, Coverage, ExplanationOfBenefit, Organization and
 * Practitioner: every resource is validated (base shapes, plus the required elements of the CARIN Blue
 * Button profile it claims), references must resolve within the import or the database, and the whole
 * import is one transaction — a bad line is reported as `file:line` and nothing is stored. Re-importing a
 * resource replaces it in place; `meta.lastUpdated` becomes the import time and `meta.versionId` "1" for a
 * new resource, the stored version + 1 for a replaced one (FHIR R4 §3.1.0.5; a resource given twice in one
 * import counts as two versions). Organization and Practitioner are stored in no patient's compartment.
 */
export async function importFhir(
  paths: string[],
  stores: { fhir: FhirStore; enrollees: EnrolleeStore },
  now: number,
  onResource: (count: number) => void = () => {},
): Promise<FhirImportReport> {
  const files = await expand(paths);
  const counts = Object.fromEntries(IMPORTABLE_RESOURCE_TYPES.map((t) => [t, 0])) as Record<
    ImportableResourceType,
    number
  >;
  const patients = new Set<string>();
  const lastUpdated = new Date(now).toISOString();
  await stores.fhir.importAll(async (writer) => {
    const references = new Map<string, { file: string; where: string }>();
    const versions = new Map<string, number>();
    const storedVersions = writer.versions.bind(writer);
    let batch: Stampable[] = [];
    let total = 0;
    for (const file of files) {
      for await (const { value, where } of readResources(file)) {
        let facts;
        try {
          facts = validateResource(value);
        } catch (error) {
          if (error instanceof InvalidResource) throw new FhirImportError(file, where, error.message);
          throw error;
        }
        batch.push({ facts, resource: value as Versionable });
        for (const ref of facts.references) {
          const key = `${ref.resourceType}/${ref.id}`;
          if (!references.has(key)) references.set(key, { file, where });
        }
        if (facts.resourceType === 'Patient') patients.add(facts.id);
        counts[facts.resourceType] += 1;
        total += 1;
        if (batch.length >= 500) {
          await writer.upsert(await stampResources(batch, storedVersions, versions, lastUpdated, now));
          batch = [];
          onResource(total);
        }
      }
    }
    await writer.upsert(await stampResources(batch, storedVersions, versions, lastUpdated, now));
    onResource(total);
    await checkReferences(writer, references);
  });
  let linked = 0;
  const unlinked: string[] = [];
  for (const id of patients) {
    if (await stores.enrollees.findEnrolleeByPatientId(id)) linked += 1;
    else unlinked.push(id);
  }
  return { files, counts, linkedPatients: linked, unlinkedPatients: unlinked };
}

type Versionable = { meta?: Record<string, unknown> };

/** What stamping needs to know of a resource besides its body: where the store files it. */
export type StampFacts = Pick<
  ResourceFacts,
  'resourceType' | 'id' | 'patientId' | 'eobType' | 'serviceDate' | 'tokens' | 'dates' | 'samhsa'
>;

/** A resource to store and its facts. */
export interface Stampable {
  facts: StampFacts;
  resource: Versionable;
}

/** A stored `meta.versionId` as a number: one that is no positive whole number counts as 1. */
export function storedVersionNumber(version: string): number {
  const number = Number.parseInt(version, 10);
  return Number.isSafeInteger(number) && number > 0 ? number : 1;
}

/**
 * The batch as stored rows: each body with `meta.lastUpdated` (the import time) and `meta.versionId` (one
 * more than the stored or earlier-in-this-import version, else "1"). `storedVersions` reads the stored
 * `meta.versionId` of the ids of one type that exist; `versions` carries the versions this import assigned
 * across batches (a loader whose earlier batches are already written in its transaction may start one per
 * batch). A resource given twice in one batch is written once, as its last copy. Shared by `fhir import`
 * and `ingest rif`.
 */
export async function stampResources(
  batch: readonly Stampable[],
  storedVersions: (resourceType: string, ids: string[]) => Promise<Map<string, string>>,
  versions: Map<string, number>,
  lastUpdated: string,
  now: number,
): Promise<ResourceRow[]> {
  const unseen = new Map<string, string[]>();
  for (const { facts } of batch) {
    if (versions.has(`${facts.resourceType}/${facts.id}`)) continue;
    let ids = unseen.get(facts.resourceType);
    if (!ids) unseen.set(facts.resourceType, (ids = []));
    ids.push(facts.id);
  }
  for (const [type, ids] of unseen) {
    for (const [id, version] of await storedVersions(type, ids)) {
      versions.set(`${type}/${id}`, storedVersionNumber(version));
    }
  }
  const rows = new Map<string, ResourceRow>();
  for (const { facts, resource } of batch) {
    const key = `${facts.resourceType}/${facts.id}`;
    const versionId = (versions.get(key) ?? 0) + 1;
    versions.set(key, versionId);
    resource.meta = { ...resource.meta, versionId: String(versionId), lastUpdated };
    rows.delete(key);
    rows.set(key, {
      resourceType: facts.resourceType,
      id: facts.id,
      patientId: facts.patientId ?? NO_PATIENT,
      eobType: facts.eobType,
      serviceDate: facts.serviceDate,
      lastUpdated: now,
      body: JSON.stringify(resource),
      tokens: facts.tokens,
      dates: facts.dates,
      samhsa: facts.samhsa,
    });
  }
  return [...rows.values()];
}

async function checkReferences(
  writer: ImportWriter,
  references: Map<string, { file: string; where: string }>,
) {
  const byType = new Map<string, string[]>();
  for (const key of references.keys()) {
    const [type, id] = key.split('/') as [string, string];
    const ids = byType.get(type) ?? [];
    ids.push(id);
    byType.set(type, ids);
  }
  for (const [type, ids] of byType) {
    const found = await writer.existing(type, ids);
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined) {
      const at = references.get(`${type}/${missing}`)!;
      throw new FhirImportError(
        at.file,
        at.where,
        `refers to ${type}/${missing}, which is neither in this import nor stored`,
      );
    }
  }
}
