/**
 * Skilled nursing facility claims (CCW SNF RIF records) against BFD's published v2 answer for the same record,
 * and the four-character DRG code BFD's own tests check.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Json } from '../../../src/fhir/bfd/elements.js';
import type { TransformContext } from '../../../src/fhir/bfd/rif-record.js';
import { snfEob } from '../../../src/fhir/bfd/snf.js';
import { bfdResponse, fhirDifferences, fixtureLookups, rifClaims } from '../../helpers/bfd.js';

const context: TransformContext = { lookups: fixtureLookups(), created: '2024-01-02T03:04:05.000Z' };

function only(name: string): Json {
  const claims = rifClaims('snf', name);
  assert.equal(claims.length, 1);
  return snfEob(claims[0]!, context);
}

/** The supportingInfo entry whose category names the CCW variable. */
function information(eob: Json, variable: string): Json | undefined {
  const url = `https://bluebutton.cms.gov/resources/variables/${variable}`;
  return (eob.supportingInfo as Json[]).find((info) =>
    (((info.category as Json).coding ?? []) as Json[]).some((c) => c.code === url),
  );
}

describe('SNF claim → ExplanationOfBenefit', () => {
  test('sample A equals BFD eobReadSnf.json', () => {
    const ours = only('sample-a-snf.txt');
    assert.deepEqual(fhirDifferences(bfdResponse('eobReadSnf.json'), ours), []);
  });

  test('elements come in BFD order', () => {
    const ours = only('sample-a-snf.txt');
    const expected = bfdResponse('eobReadSnf.json');
    assert.deepEqual(Object.keys(ours), Object.keys(expected));
    assert.deepEqual(Object.keys((ours.item as Json[])[0]!), Object.keys((expected.item as Json[])[0]!));
  });

  test('without a name for the NPI, the physician has no qualification (nothing is invented)', () => {
    const lookups = { ...fixtureLookups(), npi: () => undefined };
    const ours = snfEob(rifClaims('snf', 'sample-a-snf.txt')[0]!, { ...context, lookups });
    const other = (ours.careTeam as Json[]).find(
      (m) => ((m.role as Json).coding as Json[])[0]!.code === 'otheroperating',
    );
    assert.equal(other?.qualification, undefined);
  });

  test('a four-character DRG code is kept whole (BFD shouldHaveFourCharacterDRGClmDrgCdSupInfo)', () => {
    const ours = only('sample-a-snf-with-four-character-drg-code.txt');
    assert.deepEqual(information(ours, 'clm_drg_cd')?.code, {
      coding: [{ system: 'https://bluebutton.cms.gov/resources/variables/clm_drg_cd', code: '6455' }],
    });
  });
});
