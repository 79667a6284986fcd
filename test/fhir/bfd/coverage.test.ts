/**
 * The beneficiary record (CCW `beneficiary` RIF) → its Coverages of Medicare Parts A to D, against BFD's
 * published v2 answers for the same beneficiary: the read of Part A and the searches by beneficiary, for the
 * record with a reference year and for the one without.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  coverageId,
  coverageResource,
  coverageResources,
  memberIdentifier,
} from '../../../src/fhir/bfd/coverage.js';
import type { Json } from '../../../src/fhir/bfd/elements.js';
import type { RifBeneficiary, TransformContext } from '../../../src/fhir/bfd/rif-record.js';
import { bfdResponse, fhirDifferences, fixtureLookups, rifRows } from '../../helpers/bfd.js';

const context: TransformContext = { lookups: fixtureLookups(), created: '2024-01-02T03:04:05.000Z' };

function beneficiary(file = 'sample-a-beneficiaries.txt'): RifBeneficiary {
  const rows = rifRows(file);
  assert.equal(rows.length, 1);
  return { row: rows[0]!, history: [] };
}

function bundleResources(name: string): Json[] {
  return (bfdResponse(name).entry as Json[]).map((e) => e.resource as Json);
}

/**
 * Ours less the one element we add to BFD's Coverage, the CARIN must-support member identifier (the MBI),
 * after checking it is there.
 */
function asBfd(coverage: Json | undefined): Json | undefined {
  if (coverage === undefined) return undefined;
  const { identifier, ...rest } = coverage;
  assert.deepEqual(identifier, [memberIdentifier(String(coverage.subscriberId))], String(coverage.id));
  return rest;
}

describe('beneficiary → Coverage', () => {
  test('Part A as BFD answers its read', () => {
    assert.deepEqual(
      fhirDifferences(bfdResponse('coverageRead.json'), asBfd(coverageResource(beneficiary(), 'A', context))),
      [],
    );
  });

  for (const [name, file] of [
    ['coverageSearchByPatientId.json', 'sample-a-beneficiaries.txt'],
    [
      'coverageSearchByPatientIdWithoutReferenceYear.json',
      'sample-a-beneficiaries-without-reference-year.txt',
    ],
  ] as const) {
    test(`Parts A to D as BFD answers the search by beneficiary (${name})`, () => {
      const expected = bundleResources(name);
      const ours = coverageResources(beneficiary(file), context);
      assert.deepEqual(
        ours.map((c) => c.id),
        expected.map((c) => c.id),
      );
      for (const coverage of expected) {
        const mine = ours.find((c) => c.id === coverage.id);
        assert.deepEqual(fhirDifferences(coverage, asBfd(mine)), [], String(coverage.id));
      }
    });
  }

  test('ids: part-a … part-d followed by the beneficiary id', () => {
    assert.equal(coverageId('C', '567834'), 'part-c-567834');
    assert.deepEqual(
      coverageResources(beneficiary(), context).map((c) => c.id),
      ['part-a-567834', 'part-b-567834', 'part-c-567834', 'part-d-567834'],
    );
  });

  test('a part whose termination code is missing is cancelled, as BFD has it', () => {
    const bene = beneficiary();
    const row = { ...bene.row, BENE_PTB_TRMNTN_CD: '' };
    const coverage = coverageResource({ ...bene, row }, 'B', context);
    assert.equal(coverage.status, 'cancelled');
    assert.ok(!(coverage.extension as Json[]).some((e) => String(e.url).endsWith('/b_trm_cd')));
  });

  test('Part D monthly contracts: only the months with enrollment data, "0" for a month without a contract', () => {
    const bene = beneficiary();
    const row: Record<string, string> = { ...bene.row };
    for (const key of Object.keys(row)) if (/_DEC_|_12_IND$/.test(key)) row[key] = '';
    row.PTD_CNTRCT_NOV_ID = '';
    const coverage = coverageResource({ ...bene, row }, 'D', context);
    const monthly = (coverage.extension as Json[]).filter((e) => /\/\d{4}-\d+$/.test(String(e.url)));
    assert.equal(monthly.length, 11);
    const november = monthly[10]!;
    assert.equal(november.url, 'https://bluebutton.cms.gov/resources/variables/ptdcntrct11/2018-11');
    assert.equal((november.valueCoding as Json).code, '0');
  });
});
