import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sandboxIdentity } from './sandbox-identity.js';
import {
  FIRST_SERVICE_DATE,
  LAST_SERVICE_DATE,
  SYNTHETIC_TAG,
  directoryResources,
  generateEnrollee,
  generateEnrollees,
  type FhirResource,
} from './generate.js';
import { EOB_TYPES, EOB_TYPE_SYSTEM, validateResource } from './validate.js';

const SEED = 20260101;
const ENROLLEES = 20;
const byEnrollee = Array.from({ length: ENROLLEES }, (_, n) => generateEnrollee(n, SEED));
const all = byEnrollee.flat();
const directory = directoryResources();
const directoryKeys = new Set(directory.map((r) => `${r.resourceType}/${r.id}`));
const eobsOf = (resources: FhirResource[]) =>
  resources.filter((r) => r.resourceType === 'ExplanationOfBenefit');

type Json = Record<string, unknown>;
const amountsOf = (eob: FhirResource) => {
  const totals = (eob.total as { amount: { value: number; currency: string } }[]).map((t) => t.amount);
  const items = (eob.item as { adjudication: { amount?: { value: number; currency: string } }[] }[]).flatMap(
    (i) => i.adjudication.flatMap((a) => (a.amount ? [a.amount] : [])),
  );
  return [...totals, ...items];
};

/** The Luhn check an NPI must pass once prefixed with 80840. */
function luhnValid(digits: string): boolean {
  let sum = 0;
  [...digits].reverse().forEach((c, i) => {
    const d = Number(c) * (i % 2 === 1 ? 2 : 1);
    sum += d > 9 ? d - 9 : d;
  });
  return sum % 10 === 0;
}

test('every generated resource passes validateResource (with the C4BB profile checks)', () => {
  for (const resource of [...directory, ...all]) {
    assert.doesNotThrow(() => validateResource(resource), `${resource.resourceType}/${resource.id}`);
  }
});

test('every resource is tagged synthetic, has a versioned C4BB profile and no lastUpdated', () => {
  for (const resource of [...directory, ...all]) {
    const meta = resource.meta as Json;
    assert.deepEqual(meta.tag, [SYNTHETIC_TAG]);
    assert.equal('lastUpdated' in meta, false);
    assert.match(
      (meta.profile as string[])[0]!,
      /^http:\/\/hl7\.org\/fhir\/us\/carin-bb\/StructureDefinition\/C4BB-[A-Za-z-]+\|2\.0\.0$/,
    );
  }
});

test('Patient ids and names are those of sandboxIdentity(n)', () => {
  byEnrollee.forEach((resources, n) => {
    const identity = sandboxIdentity(n);
    const patients = resources.filter((r) => r.resourceType === 'Patient');
    assert.equal(patients.length, 1);
    assert.equal(resources[0], patients[0], 'the Patient comes first');
    const patient = patients[0]!;
    assert.equal(patient.id, identity.patientId);
    assert.match(patient.id, /^-\d{14}$/);
    assert.deepEqual((patient.name as Json[])[0], {
      use: 'usual',
      family: identity.familyName,
      given: [identity.givenName],
    });
    const birthYear = Number((patient.birthDate as string).slice(0, 4));
    assert.ok(birthYear >= 2026 - 90 && birthYear <= 2026 - 65, `birth year ${birthYear}`);
    const [member, medicare] = patient.identifier as {
      type: { coding: Json[] };
      system: string;
      value: string;
    }[];
    assert.deepEqual(member!.type.coding[0]!.code, 'MB', 'C4BB-Patient identifier:memberid');
    assert.equal(member!.value, patient.id.replace('-', 'M'));
    assert.equal(medicare!.type.coding[0]!.code, 'MC');
    assert.equal(medicare!.system, 'http://hl7.org/fhir/sid/us-mbi');
    assert.match(medicare!.value, /^[1-9]S[A-Z]\d[A-Z]{2}\d[A-Z]{2}\d{2}$/);
    const address = (patient.address as Json[])[0]!;
    assert.match(address.state as string, /^[A-Z]{2}$/);
    assert.match(address.postalCode as string, /^\d{5}$/);
  });
});

test('ids take the Blue Button forms (docs/decisions.md#fhir-ids), unique across all enrollees', () => {
  const ids = new Set<string>();
  for (const r of all) {
    const key = `${r.resourceType}/${r.id}`;
    assert.ok(!ids.has(key), `duplicate ${key}`);
    ids.add(key);
    if (r.resourceType === 'Coverage') assert.match(r.id, /^part-[abcd]--\d{14}$/);
    if (r.resourceType === 'ExplanationOfBenefit') {
      assert.match(r.id, /^(carrier|inpatient|outpatient|pde|dme|hha|hospice|snf)--\d{11}$/);
    }
  }
});

test('every reference points at a resource of the same enrollee or of the shared directory', () => {
  for (const resources of byEnrollee) {
    const here = new Set(resources.map((r) => `${r.resourceType}/${r.id}`));
    const patientId = resources[0]!.id;
    for (const r of resources) {
      const facts = validateResource(r);
      assert.equal(facts.patientId, patientId, `${r.id} belongs to its enrollee`);
      for (const ref of facts.references) {
        const key = `${ref.resourceType}/${ref.id}`;
        assert.ok(here.has(key) || directoryKeys.has(key), `${r.id} → ${key}`);
      }
    }
  }
  for (const r of directory)
    assert.equal(validateResource(r).patientId, null, `${r.id} is in no compartment`);
});

test('the directory (C4BB-Organization, C4BB-Practitioner) is the same for every seed and has unique ids', () => {
  assert.equal(JSON.stringify(directory), JSON.stringify(directoryResources()));
  assert.equal(directoryKeys.size, directory.length);
  const cms = directory.find((r) => r.id === 'cms')!;
  assert.equal(cms.resourceType, 'Organization');
  assert.equal(cms.name, 'Centers for Medicare and Medicaid Services');
  assert.match((cms.identifier as Json[])[0]!.value as string, /SAMPLE/, 'the payer id says it is a sample');
  for (const r of directory.filter((d) => d.resourceType !== 'Organization' || d.id !== 'cms')) {
    const identifier = (r.identifier as { system: string; value: string }[])[0]!;
    if (identifier.system === 'http://hl7.org/fhir/sid/us-npi') {
      assert.match(identifier.value, /^[12]\d{9}$/);
      assert.ok(luhnValid(`80840${identifier.value}`), `NPI ${identifier.value} has a valid check digit`);
    }
  }
  const coverages = all.filter((r) => r.resourceType === 'Coverage');
  for (const c of coverages) {
    const payor = (c.payor as { reference: string }[])[0]!.reference;
    assert.equal(
      payor,
      c.id.startsWith('part-c-') ? 'Organization/sample-ma-organization' : 'Organization/cms',
    );
  }
});

test('coverages: A, B and D for everyone, C for some; EOBs use the part that fits their type', () => {
  const partFor: Record<string, string> = { carrier: 'b', dme: 'b', pde: 'd' };
  let withPartC = 0;
  for (const resources of byEnrollee) {
    const pid = resources[0]!.id;
    const coverageIds = resources.filter((r) => r.resourceType === 'Coverage').map((r) => r.id);
    for (const part of ['a', 'b', 'd']) assert.ok(coverageIds.includes(`part-${part}-${pid}`));
    if (coverageIds.includes(`part-c-${pid}`)) withPartC++;
    assert.equal(coverageIds.length, coverageIds.includes(`part-c-${pid}`) ? 4 : 3);
    for (const c of resources.filter((r) => r.resourceType === 'Coverage')) {
      assert.equal(c.status, 'active');
      assert.equal(((c.relationship as Json).coding as Json[])[0]!.code, 'self');
      assert.match((c.period as Json).start as string, /^\d{4}-\d{2}-01$/);
    }
    for (const eob of eobsOf(resources)) {
      const type = eob.id.split('--')[0]!;
      const insurance = eob.insurance as { focal: boolean; coverage: { reference: string } }[];
      assert.deepEqual(insurance, [
        { focal: true, coverage: { reference: `Coverage/part-${partFor[type] ?? 'a'}-${pid}` } },
      ]);
    }
  }
  assert.ok(withPartC > 0 && withPartC < ENROLLEES, `${withPartC} of ${ENROLLEES} have part C`);
  const many = Array.from({ length: 200 }, (_, n) => generateEnrollee(n, SEED)).filter((rs) =>
    rs.some((r) => r.id.startsWith('part-c-')),
  ).length;
  assert.ok(many >= 40 && many <= 80, `${many} of 200 have part C (~30% expected)`);
});

test('each enrollee has 20–60 EOBs including carrier and pde, dated within the window', () => {
  for (const resources of byEnrollee) {
    const eobs = eobsOf(resources);
    assert.ok(eobs.length >= 20 && eobs.length <= 60, `${eobs.length} EOBs`);
    const types = new Set(eobs.map((e) => validateResource(e).eobType));
    assert.ok(types.has('carrier') && types.has('pde'), [...types].join());
    for (const eob of eobs) {
      const { start, end } = eob.billablePeriod as { start: string; end: string };
      assert.ok(start >= FIRST_SERVICE_DATE && end <= LAST_SERVICE_DATE && start <= end, `${start}..${end}`);
      assert.ok((eob.created as string) > end, 'created after the service ends');
    }
  }
});

test('every one of 2000 enrollees has 20–60 EOBs with a carrier and a pde claim', () => {
  for (let n = 0; n < 2000; n++) {
    const types = eobsOf(generateEnrollee(n, SEED + n)).map((e) => e.id.split('--')[0]);
    assert.ok(types.length >= 20 && types.length <= 60, `enrollee ${n}: ${types.length} EOBs`);
    assert.ok(types.includes('carrier') && types.includes('pde'), `enrollee ${n}: ${types.join()}`);
  }
});

test('all eight claim types appear across 20 enrollees, carrier and pde the most frequent', () => {
  const counts = new Map<string, number>();
  for (const eob of eobsOf(all)) {
    const type = validateResource(eob).eobType!;
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  assert.deepEqual([...counts.keys()].sort(), [...EOB_TYPES].sort());
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([t]) => t);
  assert.deepEqual(ranked.slice(0, 2).sort(), ['carrier', 'pde']);
});

test('EOB content: type codings, profile, codes and diagnoses fit the claim type', () => {
  const hl7 = 'http://terminology.hl7.org/CodeSystem/claim-type';
  const expected: Record<string, [string, string]> = {
    carrier: ['professional', 'Professional-NonClinician'],
    dme: ['professional', 'Professional-NonClinician'],
    pde: ['pharmacy', 'Pharmacy'],
    inpatient: ['institutional', 'Inpatient-Institutional'],
    outpatient: ['institutional', 'Outpatient-Institutional'],
  };
  for (const eob of eobsOf(all)) {
    const type = eob.id.split('--')[0]!;
    const codings = (eob.type as { coding: Json[] }).coding;
    assert.deepEqual(codings.find((c) => c.system === EOB_TYPE_SYSTEM)?.code, type.toUpperCase());
    const claimType = codings.find((c) => c.system === hl7)?.code;
    assert.ok(claimType, 'has an HL7 claim-type coding');
    const profile = ((eob.meta as Json).profile as string[])[0]!;
    if (expected[type]) {
      assert.equal(claimType, expected[type][0]);
      assert.ok(profile.endsWith(`C4BB-ExplanationOfBenefit-${expected[type][1]}|2.0.0`), profile);
    } else {
      assert.equal(claimType, 'institutional');
    }
    assert.equal(eob.use, 'claim');
    assert.equal(eob.status, 'active');
    assert.equal(eob.outcome, 'complete');
    assert.equal((eob.insurer as Json).reference, 'Organization/cms');
    assert.ok(directoryKeys.has((eob.provider as Json).reference as string), 'provider is in the directory');
    const careTeam = eob.careTeam as { provider: { reference: string } }[];
    assert.ok(
      careTeam.every((m) => directoryKeys.has(m.provider.reference)),
      'care team is in the directory',
    );
    const items = eob.item as Json[];
    assert.ok(items.length > 0);
    if (type === 'pde') {
      const coding = (items[0]!.productOrService as { coding: Json[] }).coding[0]!;
      assert.equal(coding.system, 'http://hl7.org/fhir/sid/ndc');
      assert.match(coding.code as string, /^\d{5}-\d{4}-\d{2}$/);
      assert.ok(typeof coding.display === 'string' && coding.display.length > 0);
      assert.equal(eob.diagnosis, undefined);
    } else {
      const diagnoses = eob.diagnosis as { diagnosisCodeableConcept: { coding: Json[] } }[];
      assert.ok(diagnoses.length > 0);
      for (const d of diagnoses) {
        assert.equal(d.diagnosisCodeableConcept.coding[0]!.system, 'http://hl7.org/fhir/sid/icd-10-cm');
        assert.match(d.diagnosisCodeableConcept.coding[0]!.code as string, /^[A-Z]\d{2}(\.\d{1,2})?$/);
      }
    }
    if (type === 'carrier') {
      for (const item of items) {
        const code = (item.productOrService as { coding: Json[] }).coding[0]!.code as string;
        assert.match(code, /^(\d{5}|G\d{4})$/);
      }
    }
  }
});

test('EOB amounts are positive USD with at most 2 decimals, and totals add up', () => {
  for (const eob of eobsOf(all)) {
    for (const amount of amountsOf(eob)) {
      assert.equal(amount.currency, 'USD');
      assert.ok(amount.value > 0, `${eob.id}: ${amount.value}`);
      assert.equal(Math.round(amount.value * 100) / 100, amount.value, `${eob.id}: ${amount.value}`);
    }
    const totals = eob.total as { category: { coding: Json[] }; amount: { value: number } }[];
    const total = (code: string) => totals.find((t) => t.category.coding[0]!.code === code)!.amount.value;
    assert.ok(total('benefit') <= total('eligible') && total('eligible') <= total('submitted'), eob.id);
    const itemSum = (
      eob.item as { adjudication: { category: { coding: Json[] }; amount: { value: number } }[] }[]
    )
      .flatMap((i) => i.adjudication.filter((a) => a.category.coding[0]!.code === 'submitted'))
      .reduce((sum, a) => sum + Math.round(a.amount.value * 100), 0);
    assert.equal(itemSum, Math.round(total('submitted') * 100), `${eob.id} items add up to the total`);
  }
});

test('same (n, seed) gives identical JSON; another seed or enrollee gives different claims', () => {
  for (const n of [0, 7, 19, 12345]) {
    assert.equal(JSON.stringify(generateEnrollee(n, SEED)), JSON.stringify(generateEnrollee(n, SEED)));
  }
  const claims = (n: number, seed: number) => JSON.stringify(eobsOf(generateEnrollee(n, seed)));
  assert.notEqual(claims(3, SEED), claims(3, SEED + 1));
  assert.notEqual(claims(3, SEED), claims(4, SEED));
  // The identity does not depend on the random seed: it links to the same sandbox account.
  assert.equal(generateEnrollee(3, 1)[0]!.id, generateEnrollee(3, 2)[0]!.id);
});

test('generateEnrollees streams enrollees 0..count-1 in order Patient, Coverages, EOBs', () => {
  const stream = generateEnrollees(ENROLLEES, SEED);
  assert.equal(typeof (stream as Iterator<unknown>).next, 'function', 'a lazy iterator, not an array');
  const streamed = [...stream];
  assert.equal(JSON.stringify(streamed), JSON.stringify([...directory, ...all]), 'the directory once, first');
  const rank = { Organization: -1, Practitioner: -1, Patient: 0, Coverage: 1, ExplanationOfBenefit: 2 };
  for (const resources of byEnrollee) {
    const ranks = resources.map((r) => rank[r.resourceType]);
    assert.deepEqual(
      ranks,
      [...ranks].sort((a, b) => a - b),
    );
  }
  const first = [...take(generateEnrollees(1_000_000, SEED), directory.length + 1)].at(-1);
  assert.equal(first!.id, sandboxIdentity(0).patientId);
  assert.deepEqual([...generateEnrollees(0, SEED)], []);
});

function* take<T>(items: Iterable<T>, count: number): Generator<T> {
  if (count <= 0) return;
  for (const item of items) {
    yield item;
    if (--count === 0) return;
  }
}

test('CARIN slices: the coded values each claim family carries', () => {
  const supporting = (eob: FhirResource, code: string) =>
    (eob.supportingInfo as Json[]).filter((i) => ((i.category as Json).coding as Json[])[0]!.code === code);
  const c4bb = 'http://hl7.org/fhir/us/carin-bb/CodeSystem/';
  for (const eob of eobsOf(all)) {
    const type = eob.id.split('--')[0]!;
    assert.equal(supporting(eob, 'clmrecvddate').length, 1, `${eob.id}: claim received date`);
    const received = supporting(eob, 'clmrecvddate')[0]!.timingDate as string;
    assert.ok(
      received > (eob.billablePeriod as Json).end! && received <= (eob.created as string).slice(0, 10),
    );
    if (type === 'pde') {
      for (const code of ['dayssupply', 'dawcode', 'refillnum', 'refillsauthorized'])
        assert.equal(supporting(eob, code).length, 1, `${eob.id}: ${code}`);
      const refill = (supporting(eob, 'refillnum')[0]!.valueQuantity as Json).value as number;
      const authorized = (supporting(eob, 'refillsauthorized')[0]!.valueQuantity as Json).value as number;
      assert.ok(refill <= authorized);
    } else {
      const types = (eob.diagnosis as { type: { coding: Json[] }[] }[]).map((d) => d.type[0]!.coding[0]!);
      assert.deepEqual(types[0], {
        system: 'http://terminology.hl7.org/CodeSystem/ex-diagnosistype',
        code: 'principal',
        display: 'Principal Diagnosis',
      });
      const other = type === 'carrier' || type === 'dme' ? 'secondary' : 'other';
      for (const t of types.slice(1))
        assert.deepEqual([t.system, t.code], [`${c4bb}C4BBClaimDiagnosisType`, other]);
    }
    if (['inpatient', 'outpatient', 'snf', 'hha', 'hospice'].includes(type)) {
      assert.equal(supporting(eob, 'typeofbill').length, 1, `${eob.id}: type of bill`);
      assert.equal(supporting(eob, 'discharge-status').length, 1, `${eob.id}: discharge status`);
      const sub = ((eob.subType as Json).coding as Json[])[0]!.code;
      assert.equal(sub, type === 'inpatient' || type === 'snf' ? 'inpatient' : 'outpatient');
      if (sub === 'inpatient') assert.equal(supporting(eob, 'admissionperiod').length, 1);
    }
    if (type === 'hha' || type === 'hospice' || type === 'outpatient') {
      for (const item of eob.item as Json[]) {
        assert.equal(item.servicedPeriod, undefined, `${eob.id}: C4BB Outpatient allows servicedDate only`);
        assert.equal(item.servicedDate, (eob.billablePeriod as Json).start);
      }
    }
    if (type === 'carrier' || type === 'dme') {
      for (const item of eob.item as Json[]) {
        const pos = ((item.locationCodeableConcept as Json).coding as Json[])[0]!;
        assert.match(pos.code as string, type === 'dme' ? /^12$/ : /^(11|22)$/);
      }
    }
  }
});

test('rejects a bad enrollee number', () => {
  assert.throws(() => generateEnrollee(-1, SEED), RangeError);
  assert.throws(() => generateEnrollee(1.5, SEED), RangeError);
});
