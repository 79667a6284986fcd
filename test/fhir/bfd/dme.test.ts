/**
 * DME claims (CCW `dme` RIF records) against BFD's published v2 answers for the same record, with and without the
 * `IncludeTaxNumbers: true` header.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { dmeEob } from '../../../src/fhir/bfd/dme.js';
import type { Json } from '../../../src/fhir/bfd/elements.js';
import { TAX_NUM_URL, withoutTaxNumbers } from '../../../src/fhir/bfd/professional.js';
import type { RifClaim, TransformContext } from '../../../src/fhir/bfd/rif-record.js';
import { bfdResponse, fhirDifferences, fixtureLookups, rifClaims } from '../../helpers/bfd.js';

const context: TransformContext = { lookups: fixtureLookups(), created: '2024-01-02T03:04:05.000Z' };

function claim(): RifClaim {
  const claims = rifClaims('dme', 'sample-a-dme.txt');
  assert.equal(claims.length, 1);
  return claims[0]!;
}

describe('DME claim → ExplanationOfBenefit', () => {
  test('as BFD answers with IncludeTaxNumbers: true (what we store)', () => {
    assert.deepEqual(
      fhirDifferences(bfdResponse('eobReadDmeWithTaxNumbers.json'), dmeEob(claim(), context)),
      [],
    );
  });

  test('as BFD answers without the header: the stored body less its tax numbers', () => {
    assert.deepEqual(
      fhirDifferences(bfdResponse('eobReadDme.json'), withoutTaxNumbers(dmeEob(claim(), context))),
      [],
    );
  });

  test("the DME entry of BFD's patient search answer", () => {
    const entries = (bfdResponse('eobByPatientIdAll.json').entry as Json[]).map((e) => e.resource as Json);
    const expected = entries.find((r) => r.id === 'dme-2188888888');
    assert.ok(expected);
    assert.deepEqual(fhirDifferences(expected, withoutTaxNumbers(dmeEob(claim(), context))), []);
  });

  test('the includeTaxNumbers option builds what withoutTaxNumbers leaves of the stored body', () => {
    const without = dmeEob(claim(), context, { includeTaxNumbers: false });
    assert.deepEqual(withoutTaxNumbers(dmeEob(claim(), context)), without);
    const urls = ((without.item as Json[])[0]!.extension as Json[]).map((e) => e.url);
    assert.ok(!urls.includes(TAX_NUM_URL));
  });

  test('no PRVDR_NPI on the first line: the provider is UNKNOWN, as BFD writes it', () => {
    const row = { ...claim().rows[0]!, PRVDR_NPI: '' };
    const eob = dmeEob({ type: 'dme', rows: [row] }, context);
    assert.deepEqual(eob.provider, {
      type: 'Practitioner',
      identifier: { system: 'http://hl7.org/fhir/sid/us-npi', value: 'UNKNOWN' },
      display: 'UNKNOWN',
    });
    assert.ok(
      !(eob.careTeam as Json[]).some((m) => ((m.role as Json).coding as Json[])[0]!.code === 'performing'),
    );
  });

  test('no referring NPI: the referral and the referring careTeam member are the UPIN', () => {
    const row = { ...claim().rows[0]!, RFR_PHYSN_NPI: '' };
    const eob = dmeEob({ type: 'dme', rows: [row] }, context);
    const referral = eob.referral as Json;
    assert.equal((referral.identifier as Json).value, 'I99999');
    assert.equal(((((referral.identifier as Json).type as Json).coding as Json[])[0] as Json).code, 'UPIN');
    assert.equal(referral.display, undefined);
    const first = (eob.careTeam as Json[])[0]!;
    assert.equal(((first.provider as Json).identifier as Json).value, 'I99999');
  });
});
