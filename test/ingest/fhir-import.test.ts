import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ensureSandboxEnrollees } from '../../src/auth/sandbox/enrollees.js';
import { createEnrolleeStore } from '../../src/auth/store/enrollees.js';
import { createPatientPort } from '../../src/fhir/patient-port.js';
import { NO_PATIENT, createFhirStore } from '../../src/fhir/store/resources.js';
import { rifClaimSources } from '../../src/fhir/bfd/claim-source.js';
import { FhirImportError, importFhir } from '../../src/ingest/fhir.js';
import { migrate, type Storage } from '../../src/storage/connect.js';
import { createTestDatabase, type TestDatabase } from '../helpers/service.js';

const PID = '-19990000000001'; // sandbox enrollee BBUser00000
const T0 = Date.UTC(2026, 10, 1);

function patient(id = PID) {
  return {
    resourceType: 'Patient',
    id,
    identifier: [{ system: 'http://hl7.org/fhir/sid/us-mbi', value: '1S00E00AA00' }],
    name: [{ family: 'Doe', given: ['Jane'] }],
    gender: 'female',
    birthDate: '1950-04-02',
  };
}

function coverage(part: string, pid = PID) {
  return {
    resourceType: 'Coverage',
    id: `part-${part}--${pid}`,
    status: 'active',
    beneficiary: { reference: `Patient/${pid}` },
    payor: [{ identifier: { value: 'CMS' } }],
  };
}

function eob(id: string, overrides: Record<string, unknown> = {}) {
  return {
    resourceType: 'ExplanationOfBenefit',
    id,
    identifier: [{ value: id.split('--')[1] }],
    status: 'active',
    type: {
      coding: [{ system: 'https://bluebutton.cms.gov/resources/codesystem/eob-type', code: 'CARRIER' }],
    },
    use: 'claim',
    patient: { reference: `Patient/${PID}` },
    billablePeriod: { start: '2025-03-04', end: '2025-03-04' },
    created: '2025-03-10T00:00:00Z',
    insurer: { identifier: { value: 'CMS' } },
    provider: { identifier: { system: 'http://hl7.org/fhir/sid/us-npi', value: '1234567890' } },
    outcome: 'complete',
    insurance: [{ focal: true, coverage: { reference: `Coverage/part-b--${PID}` } }],
    total: [
      { category: { coding: [{ code: 'paidtoprovider' }] }, amount: { value: 81.25, currency: 'USD' } },
    ],
    ...overrides,
  };
}

const ndjson = (...resources: unknown[]) => resources.map((r) => JSON.stringify(r)).join('\n') + '\n';

let database: TestDatabase;
let storage: Storage;
let dir: string;
let stores: { fhir: ReturnType<typeof createFhirStore>; enrollees: ReturnType<typeof createEnrolleeStore> };

before(async () => {
  database = createTestDatabase();
  storage = await database.open();
  await migrate(storage);
  stores = { fhir: createFhirStore(storage.db, rifClaimSources), enrollees: createEnrolleeStore(storage.db) };
  await ensureSandboxEnrollees(
    { enrollees: stores.enrollees, patients: createPatientPort(stores.fhir) },
    1,
    T0,
  );
  dir = mkdtempSync(join(tmpdir(), 'openenroll-fhir-'));
});
after(async () => {
  await storage.close();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function rejection(paths: string[]): Promise<FhirImportError> {
  const before = await stores.fhir.countResources();
  const error = await importFhir(paths, stores, T0).then(
    () => assert.fail('the import should have been refused'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof FhirImportError, String(error));
  assert.equal(await stores.fhir.countResources(), before, 'nothing of the import was stored');
  return error;
}

describe('refused imports leave the data as it was', () => {
  test('a resource missing a required element: file and line, nothing stored', async () => {
    const bad = eob('carrier--2', { status: undefined });
    const path = file('bad-status.ndjson', ndjson(patient(), coverage('b'), eob('carrier--1'), bad));
    const error = await rejection([path]);
    assert.equal(
      error.message,
      `${path}:4: status must be one of active, cancelled, draft, entered-in-error`,
    );
  });

  test('a line that is not JSON', async () => {
    const path = file('not-json.ndjson', `${JSON.stringify(patient())}\n{"resourceType":\n`);
    assert.equal((await rejection([path])).message, `${path}:2: not valid JSON`);
  });

  test('a reference to a resource that exists nowhere', async () => {
    const orphan = eob('carrier--3', {
      insurance: [{ focal: true, coverage: { reference: 'Coverage/part-x--1' } }],
    });
    const path = file('orphan.ndjson', ndjson(patient(), coverage('b'), orphan));
    const error = await rejection([path]);
    assert.match(
      error.message,
      /:3: refers to Coverage\/part-x--1, which is neither in this import nor stored$/,
    );
  });

  test('a wrong reference type and an unknown claim type', async () => {
    const wrongType = eob('carrier--4', { patient: { reference: `Coverage/${PID}` } });
    const path = file('wrong-type.ndjson', ndjson(patient(), coverage('b'), wrongType));
    assert.match((await rejection([path])).message, /:3: patient\.reference must be "Patient\/<id>"$/);
    const unknownType = eob('dental--5', { type: { coding: [{ system: 'x', code: 'y' }] } });
    const other = file('bad-type.ndjson', ndjson(patient(), coverage('b'), unknownType));
    assert.match((await rejection([other])).message, /:3: type must carry/);
  });

  test('a bad Bundle entry is named by its index', async () => {
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [{ resource: patient() }, { resource: { resourceType: 'Claim', id: 'x' } }],
    };
    const path = file('bundle-bad.json', JSON.stringify(bundle));
    assert.match((await rejection([path])).message, /:entry\[1\]: resourceType must be one of/);
  });
});

describe('accepted imports', () => {
  test('NDJSON files and a Bundle in a directory, linked to the enrollee account', async () => {
    const sub = join(dir, 'load');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(sub);
    writeFileSync(join(sub, '1-patients.ndjson'), ndjson(patient(), patient('-19990000099999')));
    writeFileSync(join(sub, '2-coverage.ndjson'), ndjson(coverage('a'), coverage('b'), coverage('d')));
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [{ resource: eob('carrier--10') }, { resource: eob('carrier--11') }],
    };
    writeFileSync(join(sub, '3-claims.json'), JSON.stringify(bundle));
    writeFileSync(join(sub, 'README.txt'), 'not read');
    const report = await importFhir([sub], stores, T0);
    assert.equal(report.files.length, 3);
    assert.deepEqual(report.counts, {
      Patient: 2,
      Coverage: 3,
      ExplanationOfBenefit: 2,
      Organization: 0,
      Practitioner: 0,
    });
    assert.equal(report.linkedPatients, 1);
    assert.deepEqual(report.unlinkedPatients, ['-19990000099999']);
    const stored = await stores.fhir.findResource('ExplanationOfBenefit', 'carrier--10');
    assert.equal(stored?.patientId, PID);
    assert.equal(stored?.eobType, 'carrier');
    assert.equal(stored?.serviceDate, '2025-03-04');
    const meta = (JSON.parse(stored!.body) as { meta: { lastUpdated: string; versionId: string } }).meta;
    assert.equal(meta.lastUpdated, new Date(T0).toISOString());
    assert.equal(meta.versionId, '1', 'a new resource is version 1 (FHIR R4 §3.1.0.5)');
  });

  test('re-importing updates in place and moves meta.lastUpdated', async () => {
    const later = T0 + 86_400_000;
    const changed = eob('carrier--10', { status: 'cancelled' });
    await importFhir([file('again.ndjson', ndjson(changed))], stores, later);
    const stored = await stores.fhir.findResource('ExplanationOfBenefit', 'carrier--10');
    const body = JSON.parse(stored!.body) as {
      status: string;
      meta: { lastUpdated: string; versionId: string };
    };
    assert.equal(body.status, 'cancelled');
    assert.equal(body.meta.lastUpdated, new Date(later).toISOString());
    assert.equal(body.meta.versionId, '2', 'replacing a resource moves meta.versionId on by one');
    assert.equal(stored?.lastUpdated, later);
    assert.equal(await stores.fhir.countResources('ExplanationOfBenefit'), 2, 'updated, not duplicated');
  });
});

describe('Organization and Practitioner (the directory claims point at)', () => {
  const organization = { resourceType: 'Organization', id: 'payer-1', active: true, name: 'Sample Payer' };
  const practitioner = {
    resourceType: 'Practitioner',
    id: 'doc-1',
    identifier: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '1234567893' }],
    name: [{ family: 'Sample', given: ['Avery'] }],
  };

  test('an EOB whose insurer is an Organization that exists nowhere is refused', async () => {
    const orphan = eob('carrier--20', { insurer: { reference: 'Organization/nowhere' } });
    const path = file('orphan-insurer.ndjson', ndjson(patient(), coverage('b'), orphan));
    assert.match(
      (await rejection([path])).message,
      /:3: refers to Organization\/nowhere, which is neither in this import nor stored$/,
    );
  });

  test('imported with the claims that point at them, in no patient compartment; a re-import is version 2', async () => {
    const claim = eob('carrier--21', {
      insurer: { reference: 'Organization/payer-1' },
      careTeam: [{ sequence: 1, provider: { reference: 'Practitioner/doc-1' }, role: { text: 'rendering' } }],
    });
    const path = file(
      'directory.ndjson',
      ndjson(organization, practitioner, patient(), coverage('b'), claim),
    );
    const report = await importFhir([path], stores, T0);
    assert.equal(report.counts.Organization, 1);
    assert.equal(report.counts.Practitioner, 1);
    const [payer] = await stores.fhir.findResources('Organization', ['payer-1', 'absent']);
    assert.equal(payer?.patientId, NO_PATIENT);
    assert.equal((JSON.parse(payer!.body) as { meta: { versionId: string } }).meta.versionId, '1');
    await importFhir([file('directory-again.ndjson', ndjson(organization))], stores, T0 + 1000);
    const again = await stores.fhir.findResource('Organization', 'payer-1');
    assert.equal((JSON.parse(again!.body) as { meta: { versionId: string } }).meta.versionId, '2');
  });
});
