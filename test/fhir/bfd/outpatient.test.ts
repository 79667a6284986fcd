import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Json } from '../../../src/fhir/bfd/elements.js';
import { outpatientEob } from '../../../src/fhir/bfd/outpatient.js';
import type { RifClaim, TransformContext } from '../../../src/fhir/bfd/rif-record.js';
import { bfdResponse, fhirDifferences, fixtureLookups, rifClaims } from '../../helpers/bfd.js';

/**
 * BFD's sample outpatient claim (rif/sample-a-outpatient.txt) against BFD's v2 answer for it
 * (v2/eobReadOutpatient.json), and what the sample does not exercise: absent optional columns, several lines.
 */

const context: TransformContext = { lookups: fixtureLookups(), created: '2024-01-01T00:00:00.000+00:00' };
const sample = (): RifClaim => rifClaims('outpatient', 'sample-a-outpatient.txt')[0]!;

/** The sample claim with some columns changed on every row (claim columns repeat on each line). */
function changed(claim: RifClaim, columns: Record<string, string>): RifClaim {
  return { type: claim.type, rows: claim.rows.map((row) => ({ ...row, ...columns })) };
}

test('the sample outpatient claim is BFD’s eobReadOutpatient answer, element for element', () => {
  assert.deepEqual(
    fhirDifferences(bfdResponse('eobReadOutpatient.json'), outpatientEob(sample(), context)),
    [],
  );
});

test('the sample is also the outpatient entry of BFD’s search by patient', () => {
  const bundle = bfdResponse('eobByPatientIdAll.json') as { entry: { resource: Json }[] };
  const expected = bundle.entry.find((e) => e.resource.id === 'outpatient-1234567890')!.resource;
  assert.deepEqual(fhirDifferences(expected, outpatientEob(sample(), context)), []);
});

test('a line without an NDC carries the data-absent-reason extension; without HCPCS, the NULL product', () => {
  const eob = outpatientEob(changed(sample(), { REV_CNTR_IDE_NDC_UPC_NUM: '', HCPCS_CD: '' }), context);
  const item = (eob.item as Json[])[0]!;
  const absent = 'http://hl7.org/fhir/StructureDefinition/data-absent-reason';
  assert.deepEqual(item.productOrService, {
    extension: [
      { url: absent, valueCoding: { system: absent, code: 'NULL', display: 'Data Absent Reason' } },
    ],
    coding: [{ system: absent, code: 'NULL' }],
  });
});

test('absent optional claim columns leave their elements out; defaulted amounts are 0', () => {
  const eob = outpatientEob(
    changed(sample(), {
      CLM_MCO_PD_SW: '',
      PTNT_DSCHRG_STUS_CD: '',
      NCH_PRMRY_PYR_CD: '',
      FI_NUM: '',
      CLM_MDCR_NON_PMT_RSN_CD: '',
      NCH_BENE_PTB_DDCTBL_AMT: '',
      OT_PHYSN_NPI: '',
      REV_CNTR_1ST_ANSI_CD: '',
      REV_CNTR_STUS_IND_CD: '',
      RNDRNG_PHYSN_NPI: '',
    }),
    context,
  );
  const info = (eob.supportingInfo as Json[]).map((s) => JSON.stringify(s.category));
  assert.equal(info.length, 2, 'received date and type of bill only');
  assert.ok(!JSON.stringify(eob.extension).includes('fi_num'));
  assert.ok(!JSON.stringify(eob.extension).includes('clm_mdcr_non_pmt_rsn_cd'));
  const financial = ((eob.benefitBalance as Json[])[0]!.financial as Json[]).find((f) =>
    JSON.stringify(f.type).includes('nch_bene_ptb_ddctbl_amt'),
  )!;
  assert.deepEqual(financial.usedMoney, { value: 0, currency: 'USD' });
  assert.equal((eob.careTeam as Json[]).length, 2, 'attending and operating');
  const item = (eob.item as Json[])[0]!;
  assert.equal(item.careTeamSequence, undefined);
  assert.equal((item.revenue as Json).extension, undefined);
  const reasons = (item.adjudication as Json[]).filter((a) => a.reason !== undefined);
  assert.equal(reasons.length, 1, 'the second ANSI code only');
});

test('several lines: one item each, in file order, sharing the rendering physician’s care-team entry', () => {
  const base = sample();
  const first = base.rows[0]!;
  const claim: RifClaim = {
    type: 'outpatient',
    rows: [first, { ...first, CLM_LINE_NUM: '26', REV_CNTR: '0450', HCPCS_CD: '99283' }],
  };
  const eob = outpatientEob(claim, context);
  const items = eob.item as Json[];
  assert.deepEqual(
    items.map((i) => i.sequence),
    [25, 26],
  );
  assert.deepEqual(
    items.map((i) => i.careTeamSequence),
    [[4], [4]],
  );
  assert.equal((eob.careTeam as Json[]).length, 4);
});
