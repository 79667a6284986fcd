import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Json } from '../../../src/fhir/bfd/elements.js';
import { hhaEob } from '../../../src/fhir/bfd/hha.js';
import type { RifClaim, TransformContext } from '../../../src/fhir/bfd/rif-record.js';
import { bfdResponse, fhirDifferences, fixtureLookups, rifClaims } from '../../helpers/bfd.js';

/**
 * BFD's sample home health agency claim (rif/sample-a-hha.txt) against BFD's v2 answer for it
 * (v2/eobReadHha.json), and what the sample does not exercise: absent optional columns, several lines.
 */

const context: TransformContext = { lookups: fixtureLookups(), created: '2024-01-01T00:00:00.000+00:00' };
const sample = (): RifClaim => rifClaims('hha', 'sample-a-hha.txt')[0]!;

/** The sample claim with some columns changed on every row (claim columns repeat on each line). */
function changed(claim: RifClaim, columns: Record<string, string>): RifClaim {
  return { type: claim.type, rows: claim.rows.map((row) => ({ ...row, ...columns })) };
}

/** The variable (or CARIN slice) code each supportingInfo entry is categorised by, in order. */
function infoCategories(eob: Json): string[] {
  return (eob.supportingInfo as Json[]).map((s) => {
    const codings = (s.category as Json).coding as Json[];
    return String(codings[codings.length - 1]!.code).replace(/^.*\//, '');
  });
}

test('the sample HHA claim is BFD’s eobReadHha answer, element for element', () => {
  assert.deepEqual(fhirDifferences(bfdResponse('eobReadHha.json'), hhaEob(sample(), context)), []);
});

test('the sample is also the HHA entry of BFD’s search by patient', () => {
  const bundle = bfdResponse('eobByPatientIdAll.json') as { entry: { resource: Json }[] };
  const expected = bundle.entry.find((e) => e.resource.id === 'hha-2925555555')!.resource;
  assert.deepEqual(fhirDifferences(expected, hhaEob(sample(), context)), []);
});

test('absent HHA codes and start of care are left out; an empty visit count is 0', () => {
  const eob = hhaEob(
    changed(sample(), {
      CLM_PPS_IND_CD: '',
      CLM_HHA_LUPA_IND_CD: '',
      CLM_HHA_RFRL_CD: '',
      CLM_HHA_TOT_VISIT_CNT: '',
      CLM_ADMSN_DT: '',
    }),
    context,
  );
  assert.deepEqual(infoCategories(eob), [
    'nch_wkly_proc_dt',
    'typeofbill',
    'discharge-status',
    'nch_prmry_pyr_cd',
    'clm_hha_tot_visit_cnt',
  ]);
  assert.deepEqual((eob.supportingInfo as Json[])[4]!.valueQuantity, { value: 0 });
});

test('a line without a deductible/coinsurance code or status keeps the revenue center alone', () => {
  const eob = hhaEob(
    changed(sample(), {
      REV_CNTR_DDCTBL_COINSRNC_CD: '',
      REV_CNTR_STUS_IND_CD: '',
      REV_CNTR_1ST_ANSI_CD: '',
    }),
    context,
  );
  const item = (eob.item as Json[])[0]!;
  assert.deepEqual(item.revenue, {
    coding: [
      {
        system: 'https://bluebutton.cms.gov/resources/variables/rev_cntr',
        code: '0023',
        display: (((bfdResponse('eobReadHha.json').item as Json[])[0]!.revenue as Json).coding as Json[])[0]!
          .display,
      },
    ],
  });
  assert.ok(!(item.adjudication as Json[]).some((a) => a.reason !== undefined));
});

test('several lines: one item each, the rendering physician entered once', () => {
  const first = sample().rows[0]!;
  const claim: RifClaim = {
    type: 'hha',
    rows: [first, { ...first, CLM_LINE_NUM: '2', REV_CNTR: '0551', RNDRNG_PHYSN_UPIN: 'U123' }],
  };
  const eob = hhaEob(claim, context);
  assert.deepEqual(
    (eob.item as Json[]).map((i) => [i.sequence, i.careTeamSequence]),
    [
      [1, [2]],
      [2, [3, 2]],
    ],
  );
  assert.equal((eob.careTeam as Json[]).length, 3, 'attending, the NPI, the UPIN');
});
