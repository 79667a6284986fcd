/**
 * BFD's sample RIF records and its published v2 answers for them (test/fixtures/bfd, see PROVENANCE.md),
 * and a comparison that lists every difference between an answer of BFD's and one of ours.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RifClaim, RifClaimType, RifRow } from '../../src/fhir/bfd/rif-record.js';
import type { ClaimLookups, NpiRecord } from '../../src/fhir/bfd/lookups.js';
import type { Kysely } from 'kysely';
import { rifClaimSources } from '../../src/fhir/bfd/claim-source.js';
import { createFhirStore } from '../../src/fhir/store/resources.js';
import type { Database } from '../../src/storage/schema.js';

export const BFD_FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'bfd');

/** The rows of a sample RIF file (`rif/<name>`), keyed by the header's column names. */
export function rifRows(name: string): RifRow[] {
  const lines = readFileSync(join(BFD_FIXTURES, 'rif', name), 'utf8')
    .split(/\r?\n/)
    .filter((l) => l !== '');
  const header = lines[0]!.split('|');
  return lines.slice(1).map((line) => {
    const cells = line.split('|');
    const row: Record<string, string> = {};
    header.forEach((column, i) => (row[column] = cells[i] ?? ''));
    return row;
  });
}

/** The claims of a sample RIF file: rows grouped by `CLM_ID` (`PDE_ID` for Part D events), in file order. */
export function rifClaims(type: RifClaimType, name: string): RifClaim[] {
  const key = type === 'pde' ? 'PDE_ID' : 'CLM_ID';
  const claims = new Map<string, RifRow[]>();
  for (const row of rifRows(name)) {
    const id = row[key]!;
    if (!claims.has(id)) claims.set(id, []);
    claims.get(id)!.push(row);
  }
  return [...claims.values()].map((rows) => ({ type, rows }));
}

/** One of BFD's published v2 answers (`v2/<name>`). */
export function bfdResponse(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(BFD_FIXTURES, 'v2', name), 'utf8')) as Record<string, unknown>;
}

/**
 * Every difference between BFD's answer and ours, one line each (`path: expected … got …`). What BFD's own
 * comparison ignores is marked `"IGNORED_FIELD"` in its answer and skipped here; so is `meta.lastUpdated`.
 */
export function fhirDifferences(expected: unknown, actual: unknown, path = ''): string[] {
  if (expected === 'IGNORED_FIELD' || path.endsWith('.meta.lastUpdated') || path === 'meta.lastUpdated')
    return [];
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const out: string[] = [];
    for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
      out.push(...fhirDifferences(expected[i], actual[i], `${path}[${i}]`));
    }
    return out;
  }
  if (isObject(expected) && isObject(actual)) {
    const out: string[] = [];
    for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      out.push(...fhirDifferences(expected[key], actual[key], path === '' ? key : `${path}.${key}`));
    }
    return out;
  }
  if (expected === actual) return [];
  return [`${path}: expected ${JSON.stringify(expected)} got ${JSON.stringify(actual)}`];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The names BFD's tests look up: NPIs and NDCs from the enrichment files of BFD's endpoint tests, and the diagnosis and
 * procedure descriptions BFD's answers show (CMS's CCW code files are not in BFD's public tree).
 */
export function fixtureLookups(): ClaimLookups {
  const npis = new Map<string, NpiRecord>();
  for (const line of readFileSync(join(BFD_FIXTURES, 'enrichment', 'npi_e2e_it.json'), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const r = JSON.parse(line) as Record<string, string>;
    npis.set(r.npi!, {
      entityType: r.entityTypeCode === '1' ? '1' : '2',
      organizationName: r.providerOrganizationName,
      prefix: r.providerNamePrefix,
      firstName: r.providerFirstName,
      middleName: r.providerMiddleName,
      lastName: r.providerLastName,
      suffix: r.providerNameSuffix,
      credential: r.providerCredential,
      taxonomyCode: r.taxonomyCode,
      taxonomyDisplay: r.taxonomyDisplay,
    });
  }
  const drugs = new Map<string, string>();
  for (const line of readFileSync(join(BFD_FIXTURES, 'enrichment', 'fakeDrugOrg.json'), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const r = JSON.parse(line) as { code: string; display: string };
    drugs.set(r.code, r.display);
  }
  const descriptions = new Map<string, string>();
  const collect = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(collect);
    else if (isObject(v)) {
      const { system, code, display } = v;
      if (
        typeof system === 'string' &&
        /icd|cpt|hcpcs/.test(system) &&
        typeof code === 'string' &&
        typeof display === 'string'
      ) {
        descriptions.set(`${system}|${code}`, display);
      }
      Object.values(v).forEach(collect);
    }
  };
  for (const name of ['eobByPatientIdAll.json', 'eobReadByPatientWithSamhsa.json'])
    collect(bfdResponse(name));
  return {
    npi: (npi) => npis.get(npi),
    drugName: (ndc) => drugs.get(ndc),
    codeDescription: (system, code) => descriptions.get(`${system}|${code}`),
  };
}

/**
 * The stored resources of `type` (all of them, or those of `ids`) as the store serves them: a claim loaded
 * from RIF files is made into its resource at its first read (docs/claims-rif.md#storage).
 */
export async function servedResources(
  db: Kysely<Database>,
  type: string,
  ids?: readonly string[],
): Promise<{ id: string; body: string }[]> {
  const wanted =
    ids ??
    (await db.selectFrom('fhir_resources').select('id').where('resource_type', '=', type).execute()).map(
      (r) => r.id,
    );
  const found = await createFhirStore(db, rifClaimSources).findResources(type, [...wanted]);
  return found.map(({ id, body }) => ({ id, body })).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** One stored resource's JSON as the store serves it (`taxNumbers`: to `IncludeTaxNumbers: true`), or undefined. */
export async function servedBody(
  db: Kysely<Database>,
  type: string,
  id: string,
  taxNumbers = false,
): Promise<string | undefined> {
  return (await createFhirStore(db, rifClaimSources).findResource(type, id, { taxNumbers }))?.body;
}

/** BFD's sample claim files (test/fixtures/bfd/rif/): the `sample-a-*` ones, then the SAMHSA samples. */
export const BFD_CLAIM_FILES: readonly (readonly [RifClaimType, string])[] = [
  ['carrier', 'sample-a-bcarrier.txt'],
  ['carrier', 'sample-a-bcarrier-multiple-lines.txt'],
  ['dme', 'sample-a-dme.txt'],
  ['hha', 'sample-a-hha.txt'],
  ['hospice', 'sample-a-hospice.txt'],
  ['inpatient', 'sample-a-inpatient.txt'],
  ['inpatient', 'sample-a-inpatient-with-four-character-drg-code.txt'],
  ['outpatient', 'sample-a-outpatient.txt'],
  ['snf', 'sample-a-snf.txt'],
  ['snf', 'sample-a-snf-with-four-character-drg-code.txt'],
  ['pde', 'sample-a-pde.txt'],
  ['carrier', 'samhsa/sample-a-carrier.txt'],
  ['dme', 'samhsa/sample-a-dme.txt'],
  ['hha', 'samhsa/sample-a-hha.txt'],
  ['hospice', 'samhsa/sample-a-hospice.txt'],
  ['inpatient', 'samhsa/sample-a-inpatient.txt'],
  ['outpatient', 'samhsa/sample-a-outpatient.txt'],
  ['snf', 'samhsa/sample-a-snf.txt'],
];
