import assert from 'node:assert/strict';
import { test } from 'node:test';
import { directoryResources, generateEnrollee, type FhirResource } from './generate.js';
import { InvalidResource, validateResource } from './validate.js';

/** The import's own checks of the C4BB required elements (no Medplum): each family's slices, refused by path. */

const resources = Array.from({ length: 20 }, (_, n) => generateEnrollee(n, 20260101)).flat();
type Json = Record<string, unknown>;
const firstOf = (prefix: string) => structuredClone(resources.find((r) => r.id.startsWith(prefix))!) as Json;
const withoutInfo = (eob: Json, code: string) => {
  eob.supportingInfo = (eob.supportingInfo as Json[]).filter(
    (i) => ((i.category as Json).coding as Json[])[0]!.code !== code,
  );
  return eob;
};

function refused(resource: Json, message: RegExp) {
  assert.throws(
    () => validateResource(resource),
    (e: unknown) => e instanceof InvalidResource && message.test(e.message),
  );
}

test('the generated resources and directory pass', () => {
  for (const r of [...directoryResources(), ...resources]) validateResource(r as FhirResource);
});

test('C4BB-ExplanationOfBenefit-Pharmacy: the four required supportingInfo slices and benefitpaymentstatus', () => {
  for (const [code, slice] of [
    ['dayssupply', 'dayssupply'],
    ['dawcode', 'dawcode'],
    ['refillnum', 'refillNum'],
    ['refillsauthorized', 'refillsAuthorized'],
  ] as const) {
    refused(withoutInfo(firstOf('pde--'), code), new RegExp(`requires supportingInfo:${slice}$`));
  }
  const twice = firstOf('pde--');
  (twice.supportingInfo as Json[]).push((twice.supportingInfo as Json[])[0]!);
  refused(twice, /supportingInfo must have exactly 1 dayssupply entry/);
  const noStatus = firstOf('pde--');
  noStatus.adjudication = [];
  refused(noStatus, /requires adjudication:benefitpaymentstatus$/);
});

test('C4BB-ExplanationOfBenefit-Inpatient-Institutional: subType and supportingInfo:admissionperiod', () => {
  refused(withoutInfo(firstOf('inpatient--'), 'admissionperiod'), /requires supportingInfo:admissionperiod$/);
  const noSubType = firstOf('snf--');
  delete noSubType.subType;
  refused(noSubType, /^subType must have the coding .*C4BBInstitutionalClaimSubType#inpatient/);
});

test('C4BB-ExplanationOfBenefit-Outpatient-Institutional: servicedDate on every line (no period)', () => {
  const hha = firstOf('hha--');
  const item = (hha.item as Json[])[0]!;
  item.servicedPeriod = { start: item.servicedDate, end: item.servicedDate };
  delete item.servicedDate;
  refused(hha, /^item\[0\]\.servicedDate must be present \(a date: the profile allows no period\)/);
});

test('C4BB-ExplanationOfBenefit-Professional-NonClinician: place of service and line payment status', () => {
  const carrier = firstOf('carrier--');
  delete (carrier.item as Json[])[0]!.locationCodeableConcept;
  refused(carrier, /^item\[0\]\.locationCodeableConcept must be an object/);
  const dme = firstOf('dme--');
  const line = (dme.item as Json[])[0]!;
  line.adjudication = (line.adjudication as Json[]).slice(1);
  refused(dme, /requires item\[0\]\.adjudication:benefitpaymentstatus$/);
});

test('every C4BB EOB: a versioned profile, a literal insurer, a principal diagnosis type', () => {
  const eob = firstOf('outpatient--');
  (eob.meta as Json).profile = [((eob.meta as Json).profile as string[])[0]!.replace('|2.0.0', '')];
  refused(eob, /^meta\.profile\[0\] must name .*\|2\.0\.0/);
  const logical = firstOf('carrier--');
  logical.insurer = { display: 'CMS' };
  refused(logical, /^insurer\.reference must be "Organization\/<id>"$/);
  const noType = firstOf('inpatient--');
  delete (noType.diagnosis as Json[])[0]!.type;
  refused(noType, /^diagnosis\[0\]\.type must be a non-empty array$/);
});

test('C4BB-Patient identifier:memberid, C4BB-Coverage payor 1..1, C4BB-Organization name', () => {
  const patient = structuredClone(resources[0]!) as Json;
  patient.identifier = (patient.identifier as Json[]).slice(1);
  refused(patient, /requires identifier:memberid$/);
  const coverage = firstOf('part-a-');
  coverage.payor = [...(coverage.payor as Json[]), ...(coverage.payor as Json[])];
  refused(coverage, /^payor must have exactly one entry/);
  const organization = structuredClone(directoryResources()[0]!) as Json;
  delete organization.name;
  refused(organization, /^name must be present \(C4BB-Organization requires it\)$/);
});

test('a resource claiming no C4BB profile keeps the base checks only', () => {
  const eob = withoutInfo(firstOf('pde--'), 'dayssupply');
  (eob.meta as Json).profile = [];
  assert.equal(validateResource(eob).eobType, 'pde');
});
