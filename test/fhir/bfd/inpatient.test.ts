/**
 * Inpatient claims (CCW inpatient RIF records) against BFD's published v2 answer for the same record, and the
 * four-character DRG code BFD's own tests check.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Json } from '../../../src/fhir/bfd/elements.js';
import { inpatientEob, inpatientProductOrService } from '../../../src/fhir/bfd/inpatient.js';
import type { TransformContext } from '../../../src/fhir/bfd/rif-record.js';
import { bfdResponse, fhirDifferences, fixtureLookups, rifClaims } from '../../helpers/bfd.js';

const context: TransformContext = { lookups: fixtureLookups(), created: '2024-01-02T03:04:05.000Z' };

function only(name: string): Json {
  const claims = rifClaims('inpatient', name);
  assert.equal(claims.length, 1);
  return inpatientEob(claims[0]!, context);
}

/** The supportingInfo entry whose category names the CCW variable. */
function information(eob: Json, variable: string): Json | undefined {
  const url = `https://bluebutton.cms.gov/resources/variables/${variable}`;
  return (eob.supportingInfo as Json[]).find((info) =>
    (((info.category as Json).coding ?? []) as Json[]).some((c) => c.code === url),
  );
}

describe('inpatient claim → ExplanationOfBenefit', () => {
  test('sample A equals BFD eobReadInpatient.json', () => {
    const ours = only('sample-a-inpatient.txt');
    assert.deepEqual(fhirDifferences(bfdResponse('eobReadInpatient.json'), ours), []);
  });

  test('created is the load time, meta has no lastUpdated (the store sets it)', () => {
    const ours = only('sample-a-inpatient.txt');
    assert.equal(ours.created, context.created);
    assert.deepEqual(Object.keys(ours.meta as Json), ['profile']);
  });

  test('elements come in BFD order', () => {
    const ours = only('sample-a-inpatient.txt');
    const expected = bfdResponse('eobReadInpatient.json');
    assert.deepEqual(Object.keys(ours), Object.keys(expected));
    assert.deepEqual(Object.keys((ours.item as Json[])[0]!), Object.keys((expected.item as Json[])[0]!));
  });

  test('a four-character DRG code is kept whole (BFD shouldHaveFourCharacterClmDrgCdInfo)', () => {
    const ours = only('sample-a-inpatient-with-four-character-drg-code.txt');
    const drg = information(ours, 'clm_drg_cd');
    assert.deepEqual(drg?.code, {
      coding: [{ system: 'https://bluebutton.cms.gov/resources/variables/clm_drg_cd', code: '6955' }],
    });
    const sample = information(bfdResponse('eobReadInpatient.json'), 'clm_drg_cd');
    assert.deepEqual(drg?.category, sample?.category);
  });

  test('a line without a HCPCS code names the data as absent', () => {
    assert.deepEqual(inpatientProductOrService(undefined), {
      coding: [
        {
          system: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason',
          code: 'NULL',
          display: 'Data Absent Reason',
        },
      ],
    });
  });
});
