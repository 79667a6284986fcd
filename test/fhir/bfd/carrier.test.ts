/**
 * Carrier claims (CCW `bcarrier` RIF records) against BFD's published v2 answers for the same records, with and
 * without the `IncludeTaxNumbers: true` header, and the tax-number rule on its own.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { carrierEob } from '../../../src/fhir/bfd/carrier.js';
import type { Json } from '../../../src/fhir/bfd/elements.js';
import {
  includeTaxNumbersHeader,
  TAX_NUM_URL,
  withoutTaxNumbers,
} from '../../../src/fhir/bfd/professional.js';
import type { TransformContext } from '../../../src/fhir/bfd/rif-record.js';
import { bfdResponse, fhirDifferences, fixtureLookups, rifClaims } from '../../helpers/bfd.js';

const context: TransformContext = { lookups: fixtureLookups(), created: '2024-01-02T03:04:05.000Z' };

function only(name: string): Json {
  const claims = rifClaims('carrier', name);
  assert.equal(claims.length, 1);
  return carrierEob(claims[0]!, context);
}

function itemExtensionUrls(eob: Json): string[][] {
  return (eob.item as Json[]).map((item) => ((item.extension ?? []) as Json[]).map((e) => String(e.url)));
}

describe('carrier claim → ExplanationOfBenefit', () => {
  test('one line, as BFD answers with IncludeTaxNumbers: true (what we store)', () => {
    assert.deepEqual(
      fhirDifferences(bfdResponse('eobReadCarrierWithTaxNumbers.json'), only('sample-a-bcarrier.txt')),
      [],
    );
  });

  test('one line, as BFD answers without the header: the stored body less its tax numbers', () => {
    const stored = only('sample-a-bcarrier.txt');
    assert.deepEqual(fhirDifferences(bfdResponse('eobReadCarrier.json'), withoutTaxNumbers(stored)), []);
  });

  test('seven lines (one careTeam entry per provider, one observation and supportingInfo per line)', () => {
    const stored = only('sample-a-bcarrier-multiple-lines.txt');
    assert.deepEqual(
      fhirDifferences(bfdResponse('eobReadCarrierWithMultipleLines.json'), withoutTaxNumbers(stored)),
      [],
    );
  });

  test("the carrier entries of BFD's search answers (patient bundle, SAMHSA sample)", () => {
    for (const [bundle, rif, id] of [
      ['eobByPatientIdAll.json', 'sample-a-bcarrier.txt', 'carrier-9991831999'],
      ['eobReadByPatientWithSamhsa.json', 'samhsa/sample-a-carrier.txt', 'carrier-9991831000'],
    ] as const) {
      const entries = (bfdResponse(bundle).entry as Json[]).map((e) => e.resource as Json);
      const expected = entries.find((r) => r.id === id);
      assert.ok(expected, `${bundle} has ${id}`);
      const ours = rifClaims('carrier', rif)
        .map((claim) => carrierEob(claim, context))
        .find((eob) => eob.id === id);
      assert.deepEqual(fhirDifferences(expected, withoutTaxNumbers(ours!)), [], bundle);
    }
  });

  test('the includeTaxNumbers option builds what withoutTaxNumbers leaves of the stored body', () => {
    for (const name of ['sample-a-bcarrier.txt', 'sample-a-bcarrier-multiple-lines.txt']) {
      const claim = rifClaims('carrier', name)[0]!;
      const without = carrierEob(claim, context, { includeTaxNumbers: false });
      assert.deepEqual(withoutTaxNumbers(carrierEob(claim, context)), without);
      assert.ok(itemExtensionUrls(without).every((urls) => !urls.includes(TAX_NUM_URL)));
    }
  });

  test('a claim line without a performing NPI names its UPIN as the performing provider', () => {
    const [claim] = rifClaims('carrier', 'sample-a-bcarrier.txt');
    const row = { ...claim!.rows[0]!, PRF_PHYSN_NPI: '', PRF_PHYSN_UPIN: 'UPIN77' };
    const eob = carrierEob({ type: 'carrier', rows: [row] }, context);
    const performing = (eob.careTeam as Json[]).find(
      (member) => ((member.role as Json).coding as Json[])[0]!.code === 'performing',
    )!;
    assert.deepEqual(((performing.provider as Json).identifier as Json).value, 'UPIN77');
    assert.equal(
      (((((performing.provider as Json).identifier as Json).type as Json).coding as Json[])[0] as Json).code,
      'UPIN',
    );
    assert.equal(performing.responsible, true);
  });
});

describe('withoutTaxNumbers', () => {
  test('drops only the tax_num item extensions, without touching its argument', () => {
    const stored = only('sample-a-bcarrier.txt');
    const before = JSON.stringify(stored);
    const stripped = withoutTaxNumbers(stored);
    assert.equal(JSON.stringify(stored), before);
    assert.deepEqual(
      itemExtensionUrls(stored)[0]!.filter((u) => u !== TAX_NUM_URL),
      itemExtensionUrls(stripped)[0],
    );
    assert.ok(itemExtensionUrls(stored)[0]!.includes(TAX_NUM_URL));
  });

  test('an item whose only extension is a tax number keeps no empty extension list', () => {
    const eob: Json = {
      resourceType: 'ExplanationOfBenefit',
      item: [
        { extension: [{ url: TAX_NUM_URL, valueCoding: { system: TAX_NUM_URL, code: '1' } }], sequence: 1 },
      ],
    };
    assert.deepEqual(withoutTaxNumbers(eob), {
      resourceType: 'ExplanationOfBenefit',
      item: [{ sequence: 1 }],
    });
  });

  test('an EOB with no items or no tax numbers comes back equal', () => {
    const pde: Json = { resourceType: 'ExplanationOfBenefit', id: 'pde-1' };
    assert.deepEqual(withoutTaxNumbers(pde), pde);
  });
});

describe('includeTaxNumbersHeader (BFD: absent or "false" → false, "true" → true, anything else a 400)', () => {
  test('values', () => {
    assert.equal(includeTaxNumbersHeader(undefined), false);
    assert.equal(includeTaxNumbersHeader([]), false);
    assert.equal(includeTaxNumbersHeader('true'), true);
    assert.equal(includeTaxNumbersHeader('TRUE'), true);
    assert.equal(includeTaxNumbersHeader(['False']), false);
    assert.throws(() => includeTaxNumbersHeader('yes'), /Unsupported IncludeTaxNumbers header value/);
    assert.throws(
      () => includeTaxNumbersHeader(['true', 'true']),
      /Unsupported IncludeTaxNumbers header value/,
    );
  });
});
