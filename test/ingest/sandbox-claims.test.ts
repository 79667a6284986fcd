import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type RunningService } from '../helpers/service.js';
import { NO_PATIENT, createFhirStore } from '../../src/fhir/store/resources.js';

let running: RunningService;
before(async () => {
  running = await startService({ SANDBOX_ENROLLEES: '3' });
});
after(() => running.close());

test('a sandbox start loads synthetic claims for every sandbox enrollee through the import path', async () => {
  const fhir = createFhirStore(running.service.storage.db);
  assert.equal(await fhir.countResources('Patient'), 3);
  assert.ok((await fhir.countResources('Coverage')) >= 9);
  assert.ok((await fhir.countResources('ExplanationOfBenefit')) >= 60);
  const insurer = await fhir.findResource('Organization', 'cms');
  assert.equal(insurer?.patientId, NO_PATIENT, 'the shared insurer, in no patient compartment');
  assert.ok((await fhir.countResources('Practitioner')) > 0, 'the care teams point at stored clinicians');
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
  const fhir = createFhirStore(running.service.storage.db);
  const before = await fhir.countResources();
  const { ensureSandboxClaims } = await import('../../src/ingest/sandbox-claims.js');
  assert.equal(
    await ensureSandboxClaims({ fhir, enrollees: running.service.deps.enrollees }, 3, Date.now()),
    undefined,
  );
  assert.equal(await fhir.countResources(), before);
});
