import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { EOB_TYPES } from '../../src/fhir/validate.js';
import { createEnrolleeStore } from '../../src/auth/store/enrollees.js';
import { createFhirStore } from '../../src/fhir/store/resources.js';
import { rifClaimSources } from '../../src/fhir/bfd/claim-source.js';
import { FhirImportError, importFhir } from '../../src/ingest/fhir.js';
import { writeSyntheticNdjson } from '../../src/ingest/sandbox-claims.js';
import { migrate, type Storage } from '../../src/storage/connect.js';
import {
  carinResources,
  carinValidator,
  skipWithoutCarinPackage,
  type CarinValidator,
} from '../helpers/carin-validator.js';
import { createTestDatabase, type TestDatabase } from '../helpers/service.js';

/**
 * CARIN Blue Button 2.0.0 (hl7.fhir.us.carin-bb 2.0.0): what the service stores validates with Medplum's
 * validator against base R4 and the C4BB profile each resource claims, and the import refuses resources that
 * break a claimed profile's required elements. Needs the package in ../shared.
 */

const skip = skipWithoutCarinPackage();
const SEED = 20260101;
const ENROLLEES = 20; // with this seed, all eight claim types appear (generate.test.ts)
const T0 = Date.UTC(2026, 10, 1);

type Json = Record<string, unknown>;

let database: TestDatabase;
let storage: Storage;
let dir: string;
let stores: { fhir: ReturnType<typeof createFhirStore>; enrollees: ReturnType<typeof createEnrolleeStore> };
let validator: CarinValidator;

before(async () => {
  if (skip) return;
  database = createTestDatabase();
  storage = await database.open();
  await migrate(storage);
  stores = { fhir: createFhirStore(storage.db, rifClaimSources), enrollees: createEnrolleeStore(storage.db) };
  dir = mkdtempSync(join(tmpdir(), 'openenroll-carin-'));
  validator = carinValidator();
});
after(async () => {
  if (skip) return;
  await storage.close();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** Every stored body of these types, as the service serves them. */
async function storedBodies(types: string[]): Promise<Json[]> {
  const rows = await storage.db
    .selectFrom('fhir_resources')
    .select(['body'])
    .where('resource_type', 'in', types)
    .execute();
  return rows.map((r) => JSON.parse(r.body) as Json);
}

const profileOf = (r: Json) => ((r.meta as Json).profile as string[])[0]!;

function errorsOf(resources: Json[]): string[] {
  return resources.flatMap((r) =>
    validator.errors(r).map((e) => `${r.resourceType as string}/${r.id as string} ${e}`),
  );
}

describe('the validator helper (Medplum + CARIN 2.0.0)', { skip }, () => {
  test('catches what the C4BB profiles require below the top level (not only what Medplum checks)', () => {
    const examples = carinResources();
    const professional = structuredClone(
      examples.get('example/ExplanationOfBenefit-EOBProfessional1.json')!,
    ) as Json;
    delete (professional.item as Json[])[0]!.locationCodeableConcept;
    assert.ok(
      validator.errors(professional).some((e) => e.includes('item.location[x]')),
      'C4BB-ExplanationOfBenefit-Professional-NonClinician item.location[x] 1..1',
    );
    const inpatient = structuredClone(
      examples.get('example/ExplanationOfBenefit-EOBInpatient1.json')!,
    ) as Json;
    ((inpatient.diagnosis as Json[])[0]!.type as Json[])[0] = {
      coding: [{ system: 'http://terminology.hl7.org/CodeSystem/ex-diagnosistype', code: 'secondary' }],
    };
    assert.ok(
      validator.errors(inpatient).some((e) => e.includes('C4BBClaimInpatientInstitutionalDiagnosisType')),
      'the required binding of diagnosis.type',
    );
    const unversioned = structuredClone(examples.get('example/Patient-Patient1.json')!) as Json;
    (unversioned.meta as Json).profile = [profileOf(unversioned).split('|')[0]];
    assert.ok(validator.errors(unversioned).some((e) => e.includes('patient-meta-profile-version')));
  });
});

describe('generated sample data meets the C4BB profiles it claims', { skip }, () => {
  test('every resource of enrollees covering all eight claim types, and the directory, as imported: zero errors against base R4 and C4BB-*', async () => {
    const path = join(dir, 'sample.ndjson');
    await writeSyntheticNdjson(path, ENROLLEES, SEED);
    await importFhir([path], stores, T0);
    const stored = await storedBodies([
      'Patient',
      'Coverage',
      'ExplanationOfBenefit',
      'Organization',
      'Practitioner',
    ]);
    // Medplum's validation is slow (bench/RESULTS.md): validate whole enrollees, as few as cover every
    // claim type.
    const patientOf = (r: Json) =>
      r.resourceType === 'Patient'
        ? (r.id as string)
        : (((r.beneficiary ?? r.patient) as Json | undefined)?.reference as string | undefined)?.slice(8);
    const typesOf = new Map<string, Set<string>>();
    for (const r of stored.filter((s) => s.resourceType === 'ExplanationOfBenefit')) {
      const types = typesOf.get(patientOf(r)!) ?? new Set<string>();
      types.add((r.id as string).split('--')[0]!);
      typesOf.set(patientOf(r)!, types);
    }
    const chosen = new Set<string>();
    const covered = new Set<string>();
    while (covered.size < EOB_TYPES.length) {
      const [best] = [...typesOf].sort(
        (x, y) =>
          [...y[1]].filter((t) => !covered.has(t)).length - [...x[1]].filter((t) => !covered.has(t)).length,
      );
      assert.ok(
        best && [...best[1]].some((t) => !covered.has(t)),
        `claim types covered: ${[...covered].join()}`,
      );
      chosen.add(best[0]);
      best[1].forEach((t) => covered.add(t));
      typesOf.delete(best[0]);
    }
    const sample = stored.filter((r) => {
      const patient = patientOf(r);
      return patient === undefined
        ? r.resourceType === 'Organization' || r.resourceType === 'Practitioner'
        : chosen.has(patient);
    });
    const profiles = new Set(sample.map((r) => profileOf(r).split('/').at(-1)));
    assert.deepEqual(
      [...profiles].sort(),
      [
        'C4BB-Coverage|2.0.0',
        'C4BB-ExplanationOfBenefit-Inpatient-Institutional|2.0.0',
        'C4BB-ExplanationOfBenefit-Outpatient-Institutional|2.0.0',
        'C4BB-ExplanationOfBenefit-Pharmacy|2.0.0',
        'C4BB-ExplanationOfBenefit-Professional-NonClinician|2.0.0',
        'C4BB-Organization|2.0.0',
        'C4BB-Practitioner|2.0.0',
        'C4BB-Patient|2.0.0',
      ].sort(),
    );
    const eobs = sample.filter((r) => r.resourceType === 'ExplanationOfBenefit').length;
    assert.ok(eobs >= 20 * chosen.size, `${chosen.size} enrollees, ${eobs} EOBs, ${sample.length} resources`);
    assert.deepEqual(errorsOf(sample), []);
  });
});

/**
 * The package's own examples of the five types we import (its RelatedPerson example is not a type we
 * store). All of them validate clean with the helper, so none is excluded.
 */
describe('the CARIN package examples import and validate clean', { skip }, () => {
  test('Patient, Coverage, ExplanationOfBenefit (all claim profiles, oral too), Organization, Practitioner', async () => {
    const types = ['Patient', 'Coverage', 'ExplanationOfBenefit', 'Organization', 'Practitioner'];
    const examples = [...carinResources()]
      .filter(([name, r]) => name.startsWith('example/') && types.includes(r.resourceType))
      .map(([, r]) => r);
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: examples.map((resource) => ({ resource })),
    };
    const path = join(dir, 'carin-examples.json');
    writeFileSync(path, JSON.stringify(bundle));
    const report = await importFhir([path], stores, T0);
    assert.deepEqual(report.counts, {
      Patient: 2,
      Coverage: 4,
      ExplanationOfBenefit: 10,
      Organization: 10,
      Practitioner: 5,
    });
    const stored = (await storedBodies(types)).filter((r) => examples.some((e) => e.id === r.id));
    assert.equal(stored.length, examples.length);
    assert.deepEqual(errorsOf(stored), []);
    const oral = await stores.fhir.findResource('ExplanationOfBenefit', 'EOBOral1');
    assert.equal(oral?.eobType, null, 'an oral claim has no Blue Button claim type');
    const inpatient = await stores.fhir.findResource('ExplanationOfBenefit', 'EOBInpatient1');
    assert.equal(inpatient?.eobType, 'inpatient', 'from claim-type institutional + C4BB subType');
  });
});

describe('the import refuses what breaks a claimed C4BB profile, and writes nothing', { skip }, () => {
  const pharmacy = () =>
    structuredClone(carinResources().get('example/ExplanationOfBenefit-EOBPharmacy1.json')!) as Json;

  async function refused(resources: Json[], name: string): Promise<string> {
    const path = join(dir, name);
    writeFileSync(path, resources.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const before = await stores.fhir.countResources();
    const error = await importFhir([path], stores, T0).then(
      () => assert.fail('the import should have been refused'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof FhirImportError, String(error));
    assert.equal(await stores.fhir.countResources(), before, 'nothing of the import was stored');
    return error.message;
  }

  test('C4BB-ExplanationOfBenefit-Pharmacy without supportingInfo:dayssupply', async () => {
    const eob = pharmacy();
    eob.id = 'pde-no-days-supply';
    eob.supportingInfo = (eob.supportingInfo as Json[]).filter(
      (i) => ((i.category as Json).coding as Json[])[0]!.code !== 'dayssupply',
    );
    const organization = { resourceType: 'Organization', id: 'new-org', active: true, name: 'Sample' };
    const message = await refused([organization, eob], 'pde-no-days-supply.ndjson');
    assert.match(
      message,
      /pde-no-days-supply\.ndjson:2: supportingInfo must have exactly 1 dayssupply entry .*C4BB-ExplanationOfBenefit-Pharmacy requires supportingInfo:dayssupply$/,
    );
    assert.equal(await stores.fhir.findResource('Organization', 'new-org'), undefined);
  });

  test('a meta.profile without the |2.0.0 version (C4BB *-meta-profile-version)', async () => {
    const eob = pharmacy();
    eob.id = 'pde-unversioned';
    (eob.meta as Json).profile = [profileOf(eob).split('|')[0]];
    assert.match(
      await refused([eob], 'pde-unversioned.ndjson'),
      /:1: meta\.profile\[0\] must name http:\/\/hl7\.org\/fhir\/us\/carin-bb\/StructureDefinition\/C4BB-ExplanationOfBenefit-Pharmacy\|2\.0\.0/,
    );
  });

  test('a C4BB EOB whose insurer is a logical reference only', async () => {
    const eob = pharmacy();
    eob.id = 'pde-logical-insurer';
    eob.insurer = { identifier: { value: 'CMS' }, display: 'CMS' };
    assert.match(
      await refused([eob], 'pde-logical-insurer.ndjson'),
      /:1: insurer\.reference must be "Organization\/<id>"$/,
    );
  });
});
