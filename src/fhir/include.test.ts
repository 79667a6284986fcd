import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { includedEntries, parseIncludes, referencesOf, searchIncludes } from './include.js';

describe('FHIR R4 §3.1.1.5.5 _include values', () => {
  test('Type:param, Type:param:Target and Type:* of the searched type are applied; the rest is ignored', () => {
    const { includes, applied } = parseIncludes('ExplanationOfBenefit', [
      'ExplanationOfBenefit:insurer',
      'ExplanationOfBenefit:care-team:Practitioner',
      'ExplanationOfBenefit:insurer',
      'ExplanationOfBenefit:payee',
      'ExplanationOfBenefit:provider:Coverage',
      'Coverage:payor',
      'ExplanationOfBenefit:*:Patient',
      'ExplanationOfBenefit:insurer:Organization:extra',
      '',
    ]);
    assert.deepEqual(applied, [
      'ExplanationOfBenefit:insurer',
      'ExplanationOfBenefit:care-team:Practitioner',
    ]);
    assert.deepEqual(includes, [
      { param: 'insurer' },
      { param: 'care-team', target: 'Practitioner' },
      { param: 'insurer' },
    ]);
    assert.deepEqual(parseIncludes('Coverage', ['Coverage:*']).includes, [{ param: 'payor' }]);
    assert.deepEqual(parseIncludes('Patient', ['Patient:*', 'Patient:organization']).applied, []);
  });

  test('searchIncludes lists each parameter, then Type:*; none for a type without reference parameters', () => {
    assert.deepEqual(searchIncludes('Coverage'), ['Coverage:payor', 'Coverage:*']);
    assert.deepEqual(searchIncludes('Patient'), []);
    assert.deepEqual(searchIncludes('Organization'), []);
  });
});

describe('the references a page includes', () => {
  const eob = (id: string, extra: object) =>
    JSON.stringify({
      resourceType: 'ExplanationOfBenefit',
      id,
      patient: { reference: 'Patient/p1' },
      ...extra,
    });

  test('only literal relative references to a served target type, each once, in order of mention', () => {
    const bodies = [
      eob('e1', {
        provider: { reference: 'Organization/o1' },
        careTeam: [
          { provider: { reference: 'Practitioner/d1' } },
          { provider: { reference: 'http://elsewhere.example/fhir/Practitioner/d9' } },
          { provider: { reference: '#contained' } },
          { provider: { identifier: { value: '123' } } },
          { provider: { reference: 'PractitionerRole/r1' } },
        ],
        insurer: { reference: 'Organization/o1' },
      }),
      eob('e2', {
        provider: { reference: 'Practitioner/d1' },
        insurance: [{ coverage: { reference: 'Coverage/c1' } }],
      }),
    ];
    const { includes } = parseIncludes('ExplanationOfBenefit', ['ExplanationOfBenefit:*']);
    assert.deepEqual(
      referencesOf('ExplanationOfBenefit', bodies, includes).map((r) => `${r.resourceType}/${r.id}`),
      ['Patient/p1', 'Organization/o1', 'Practitioner/d1', 'Coverage/c1'],
    );
    const narrowed = parseIncludes('ExplanationOfBenefit', ['ExplanationOfBenefit:provider:Practitioner']);
    assert.deepEqual(
      referencesOf('ExplanationOfBenefit', bodies, narrowed.includes).map((r) => r.id),
      ['d1'],
    );
  });

  test('a match is never included again', () => {
    const coverage = JSON.stringify({
      resourceType: 'Coverage',
      id: 'c1',
      payor: [{ reference: 'Coverage/c1' }],
    });
    assert.deepEqual(referencesOf('Coverage', [coverage], [{ param: 'payor' }]), []);
  });

  test('included entries: what exists and is visible, in the order named', async () => {
    const stored = (resourceType: string, id: string, patientId: string) => ({
      resourceType,
      id,
      patientId,
      eobType: null,
      serviceDate: null,
      lastUpdated: 0,
      body: `{"id":"${id}"}`,
    });
    const find = () =>
      Promise.resolve([
        stored('Practitioner', 'd1', ''),
        stored('Patient', 'p2', 'p2'),
        stored('Patient', 'p1', 'p1'),
      ]);
    const refs = ['Patient/p1', 'Organization/gone', 'Practitioner/d1', 'Patient/p2'].map((r) => {
      const [resourceType, id] = r.split('/') as [string, string];
      return { resourceType, id };
    });
    const entries = await includedEntries(find, refs, (r) => r.patientId !== 'p2');
    assert.deepEqual(
      entries.map((e) => `${e.type}/${e.id}`),
      ['Patient/p1', 'Practitioner/d1'],
    );
  });
});
