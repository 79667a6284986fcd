import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Json } from '../../../src/fhir/bfd/elements.js';
import { hospiceEob } from '../../../src/fhir/bfd/hospice.js';
import type { RifClaim, TransformContext } from '../../../src/fhir/bfd/rif-record.js';
import { bfdResponse, fhirDifferences, fixtureLookups, rifClaims } from '../../helpers/bfd.js';

/**
 * BFD's sample hospice claim (rif/sample-a-hospice.txt) against BFD's v2 answer for it
 * (v2/eobReadHospice.json), and what the sample does not exercise: absent optional columns.
 */

const context: TransformContext = { lookups: fixtureLookups(), created: '2024-01-01T00:00:00.000+00:00' };
const sample = (): RifClaim => rifClaims('hospice', 'sample-a-hospice.txt')[0]!;

/** The sample claim with some columns changed on every row (claim columns repeat on each line). */
function changed(claim: RifClaim, columns: Record<string, string>): RifClaim {
  return { type: claim.type, rows: claim.rows.map((row) => ({ ...row, ...columns })) };
}

test('the sample hospice claim is BFD’s eobReadHospice answer, element for element', () => {
  assert.deepEqual(fhirDifferences(bfdResponse('eobReadHospice.json'), hospiceEob(sample(), context)), []);
});

test('the sample is also the hospice entry of BFD’s search by patient', () => {
  const bundle = bfdResponse('eobByPatientIdAll.json') as { entry: { resource: Json }[] };
  const expected = bundle.entry.find((e) => e.resource.id === 'hospice-9992223422')!.resource;
  assert.deepEqual(fhirDifferences(expected, hospiceEob(sample(), context)), []);
});

test('absent hospice columns: no patient status, period count or admission period; 0 utilization days', () => {
  const eob = hospiceEob(
    changed(sample(), {
      NCH_PTNT_STATUS_IND_CD: '',
      BENE_HOSPC_PRD_CNT: '',
      CLM_HOSPC_START_DT_ID: '',
      NCH_BENE_DSCHRG_DT: '',
      CLM_UTLZTN_DAY_CNT: '',
    }),
    context,
  );
  const text = JSON.stringify(eob);
  assert.ok(!text.includes('nch_ptnt_stus_ind_cd'));
  assert.ok(!text.includes('bene_hospc_prd_cnt'));
  assert.ok(!text.includes('admissionperiod'));
  const days = ((eob.benefitBalance as Json[])[0]!.financial as Json[])[0]!;
  assert.equal(days.usedUnsignedInt, 0);
});

test('a discharge date alone makes an admission period with an end only', () => {
  const eob = hospiceEob(changed(sample(), { CLM_HOSPC_START_DT_ID: '' }), context);
  const period = (eob.supportingInfo as Json[]).find((s) => s.timingPeriod !== undefined)!;
  assert.deepEqual(period.timingPeriod, { end: '2015-06-29' });
});

test('a hospice line without a non-covered charge has no noncovered adjudication (the column is nullable)', () => {
  const eob = hospiceEob(changed(sample(), { REV_CNTR_NCVRD_CHRG_AMT: '' }), context);
  const item = (eob.item as Json[])[0]!;
  assert.ok(!JSON.stringify(item.adjudication).includes('rev_cntr_ncvrd_chrg_amt'));
  assert.equal((item.adjudication as Json[]).length, 5);
});
