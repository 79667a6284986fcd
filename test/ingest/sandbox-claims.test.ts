import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type RunningService } from '../helpers/service.js';
import { NO_PATIENT, createFhirStore } from '../../src/fhir/store/resources.js';
import { servedResources } from '../helpers/bfd.js';
import { rifClaimSources } from '../../src/fhir/bfd/claim-source.js';

let running: RunningService;
before(async () => {
  running = await startService({ SANDBOX_ENROLLEES: '3' });
});
after(() => running.close());

test('a sandbox start loads synthetic claims for every sandbox enrollee through the RIF ingest', async () => {
  const fhir = createFhirStore(running.service.storage.db, rifClaimSources);
  assert.equal(await fhir.countResources('Patient'), 3);
  assert.equal(await fhir.countResources('Coverage'), 12, 'Parts A, B, C and D of each, as BFD makes them');
  assert.ok((await fhir.countResources('ExplanationOfBenefit')) >= 60);
  // BFD-shaped claims name providers by NPI and the insurer by identifier: no directory resources are stored,
  // and every resource is in the compartment of one of the sandbox patients.
  assert.equal(await fhir.countResources('Organization'), 0);
  assert.equal(await fhir.countResources('Practitioner'), 0);
  const patients = new Set((await running.service.deps.enrollees.listEnrollees()).map((e) => e.patientId));
  const rows = await running.service.storage.db.selectFrom('fhir_resources').select(['patient_id']).execute();
  for (const row of rows) {
    assert.ok(row.patient_id !== NO_PATIENT && patients.has(row.patient_id), `${row.patient_id}`);
  }
  for (const row of await servedResources(running.service.storage.db, 'ExplanationOfBenefit')) {
    const body = JSON.parse(row.body) as { resourceType: string; careTeam?: { provider: object }[] };
    for (const member of body.careTeam ?? []) {
      assert.ok('identifier' in member.provider && !('reference' in member.provider), 'a provider by NPI');
    }
  }
  for (const enrollee of await running.service.deps.enrollees.listEnrollees()) {
    const patient = await fhir.findResource('Patient', enrollee.patientId);
    assert.ok(patient, `${enrollee.username} has a Patient`);
    const body = JSON.parse(patient.body) as {
      meta: { tag: { code: string }[]; lastUpdated: string; versionId: string };
    };
    assert.ok(
      body.meta.tag.some((t) => t.code === 'synthetic'),
      'labelled as synthetic sample data',
    );
    assert.ok(body.meta.lastUpdated, 'the import stamped meta.lastUpdated');
    assert.equal(body.meta.versionId, '1', 'and meta.versionId');
  }
});

test('a second start over the same database does not load them again', async () => {
  const fhir = createFhirStore(running.service.storage.db, rifClaimSources);
  const before = await fhir.countResources();
  const { ensureSandboxClaims } = await import('../../src/ingest/sandbox-claims.js');
  const stores = { db: running.service.storage.db, enrollees: running.service.deps.enrollees };
  assert.equal(await ensureSandboxClaims(stores, 3, 'rif', Date.now()), undefined);
  assert.equal(await ensureSandboxClaims(stores, 3, 'carin', Date.now()), undefined);
  assert.equal(await fhir.countResources(), before);
});

test('SANDBOX_CLAIMS=carin: CARIN NDJSON claims that refer to the directory by id, through fhir import', async () => {
  const carin = await startService({ SANDBOX_ENROLLEES: '2', SANDBOX_CLAIMS: 'carin' });
  try {
    const fhir = createFhirStore(carin.service.storage.db, rifClaimSources);
    assert.equal(await fhir.countResources('Patient'), 2);
    assert.ok((await fhir.countResources('Organization')) > 0, 'the directory the claims refer to');
    const eob = await carin.service.storage.db
      .selectFrom('fhir_resources')
      .select('body')
      .where('resource_type', '=', 'ExplanationOfBenefit')
      .executeTakeFirstOrThrow();
    assert.match(eob.body, /"insurer":\{"reference":"Organization\//);
  } finally {
    await carin.close();
  }
});
