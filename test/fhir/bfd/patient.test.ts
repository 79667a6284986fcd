/**
 * The beneficiary record (CCW `beneficiary` RIF, with its `beneficiary-history` rows) → Patient, against BFD's
 * published v2 answers for the same beneficiary: a read without headers, a read with `IncludeIdentifiers` and
 * `IncludeAddressFields: true`, and the search by `_id`. BFD's comparison sorts the Patient's identifiers (by
 * system, then value) before comparing, so ours are sorted the same way here.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Json } from '../../../src/fhir/bfd/elements.js';
import {
  InvalidHeaderError,
  includeIdentifiersValues,
  patientOptionsFromHeaders,
  patientResource,
} from '../../../src/fhir/bfd/patient.js';
import type { RifBeneficiary, TransformContext } from '../../../src/fhir/bfd/rif-record.js';
import { bfdResponse, fhirDifferences, fixtureLookups, rifRows } from '../../helpers/bfd.js';

const context: TransformContext = { lookups: fixtureLookups(), created: '2024-01-02T03:04:05.000Z' };

function beneficiary(file = 'sample-a-beneficiaries.txt'): RifBeneficiary {
  const rows = rifRows(file);
  assert.equal(rows.length, 1);
  const row = rows[0]!;
  const history = rifRows('sample-a-beneficiaryhistory.txt').filter((h) => h.BENE_ID === row.BENE_ID);
  return { row, history };
}

/** The Patient with its identifiers in the order BFD's answer comparison puts them. */
function sortedIdentifiers(patient: Json): Json {
  const key = (i: Json): string => `${String(i.system)}\u0000${String(i.value)}`;
  const identifier = [...(patient.identifier as Json[])].sort((a, b) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0,
  );
  return { ...patient, identifier };
}

function searchEntry(name: string, id: string): Json {
  const bundle = bfdResponse(name);
  const entry = (bundle.entry as Json[]).find((e) => (e.resource as Json).id === id);
  assert.ok(entry, `${name} has no entry ${id}`);
  return entry.resource as Json;
}

describe('beneficiary → Patient', () => {
  test('as BFD answers a read without headers (state and ZIP only, every MBI)', () => {
    const ours = sortedIdentifiers(patientResource(beneficiary(), context));
    assert.deepEqual(fhirDifferences(bfdResponse('patientRead.json'), ours), []);
  });

  test('as BFD answers a read with IncludeIdentifiers: hicn,mbi and IncludeAddressFields: true', () => {
    const options = patientOptionsFromHeaders({
      IncludeIdentifiers: 'hicn,mbi',
      IncludeAddressFields: 'true',
    });
    const ours = sortedIdentifiers(patientResource(beneficiary(), context, options));
    assert.deepEqual(fhirDifferences(bfdResponse('patientReadWithIncludeIdentifiers.json'), ours), []);
  });

  test('as BFD answers the search by _id', () => {
    const ours = sortedIdentifiers(patientResource(beneficiary(), context));
    assert.deepEqual(fhirDifferences(searchEntry('patientSearchById.json', '567834'), ours), []);
  });

  for (const [name, headers] of [
    [
      'patientSearchByIdWithIncludeIdentifiers.json',
      { IncludeIdentifiers: 'hicn,mbi', IncludeAddressFields: 'true' },
    ],
    ['patientByIdentifier.json', {}],
    [
      'patientByIdentifierWithIncludeIdentifiers.json',
      { IncludeIdentifiers: 'hicn,mbi', IncludeAddressFields: 'true' },
    ],
  ] as const) {
    test(`as BFD answers ${name}`, () => {
      const ours = sortedIdentifiers(
        patientResource(beneficiary(), context, patientOptionsFromHeaders(headers)),
      );
      assert.deepEqual(fhirDifferences(searchEntry(name, '567834'), ours), []);
    });
  }

  test('the identifiers in BFD order: member number, current MBI, then the distinct earlier MBIs', () => {
    const values = (patientResource(beneficiary(), context).identifier as Json[]).map((i) => i.value);
    assert.deepEqual(values, ['567834', '3456789', '3456689', '9AB2WW3GR44', '543217066']);
  });

  test("without historical MBIs (BFD's searches by Part D contract): member number and current MBI", () => {
    const values = (
      patientResource(beneficiary(), context, { historicalMbis: false }).identifier as Json[]
    ).map((i) => i.value);
    assert.deepEqual(values, ['567834', '3456789']);
  });

  test('what Blue Button 2.0 sends (includeAddressFields: False) gives state and ZIP only', () => {
    const options = patientOptionsFromHeaders({ includeaddressfields: 'False' });
    assert.deepEqual(options, { includeAddressFields: false });
    assert.deepEqual(patientResource(beneficiary(), context, options).address, [
      { state: 'MO', postalCode: '12345' },
    ]);
    assert.deepEqual(patientOptionsFromHeaders({ includeAddressFields: 'TRUE' }), {
      includeAddressFields: true,
    });
    assert.deepEqual(patientOptionsFromHeaders({}), { includeAddressFields: false });
  });

  test('IncludeIdentifiers values are read as BFD reads them, and an unknown one is refused', () => {
    assert.deepEqual(includeIdentifiersValues(undefined), ['']);
    assert.deepEqual(includeIdentifiersValues('[MBI, hicn, mbi]'), ['hicn', 'mbi']);
    assert.throws(() => patientOptionsFromHeaders({ includeidentifiers: 'ssn' }), InvalidHeaderError);
  });

  test('the record without a reference year: no rfrnc_yr and no dual-eligibility extensions', () => {
    const patient = patientResource(
      beneficiary('sample-a-beneficiaries-without-reference-year.txt'),
      context,
    );
    const urls = (patient.extension as Json[]).map((e) => String(e.url).split('/').pop());
    assert.deepEqual(urls, ['us-core-sex', 'race', 'us-core-race']);
    // BFD's own answer for this record (patientByIdentifierWithoutReferenceYear.json) has the same body.
    const expected = (bfdResponse('patientByIdentifierWithoutReferenceYear.json').entry as Json[])[0]!
      .resource as Json;
    assert.deepEqual(fhirDifferences(expected, sortedIdentifiers(patient)), []);
  });

  test('no death date: deceasedBoolean false; sex 0: gender unknown and no US Core sex', () => {
    const bene = beneficiary();
    const patient = patientResource(
      { ...bene, row: { ...bene.row, DEATH_DT: '', BENE_SEX_IDENT_CD: '0' } },
      context,
    );
    assert.equal(patient.deceasedBoolean, false);
    assert.equal(patient.deceasedDateTime, undefined);
    assert.equal(patient.gender, 'unknown');
    assert.ok(!(patient.extension as Json[]).some((e) => String(e.url).endsWith('us-core-sex')));
  });
});
