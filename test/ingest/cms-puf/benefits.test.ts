import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BenefitDetail } from '../../../src/plans/store/plan-detail.js';
import { benefitType } from '../../../src/ingest/cms-puf/benefits.js';
import { BENEFITS_COLUMNS } from '../../../src/plans/tables/puf-columns.js';
import { ingest } from '../../helpers/shared-data.js';
import { benefitRow } from '../../helpers/fictional-issuer.js';
import { failedIngest, ingestSuite, rejectLines } from '../../helpers/ingest-suite.js';

const suite = ingestSuite('benefits');

/** PY2014–2016: the current layout (BENEFITS_COLUMNS) plus VersionNum, IssuerId2, StateCode2, IsStateMandate, IsSubjToDedTier1/2, MinimumStay, RowNumber. */
const OLD = [
  'BusinessYear',
  'StateCode',
  'IssuerId',
  'SourceName',
  'VersionNum',
  'ImportDate',
  'IssuerId2',
  'StateCode2',
  'StandardComponentId',
  'PlanId',
  'BenefitName',
  'CopayInnTier1',
  'CopayInnTier2',
  'CopayOutofNet',
  'CoinsInnTier1',
  'CoinsInnTier2',
  'CoinsOutofNet',
  'IsEHB',
  'IsStateMandate',
  'IsCovered',
  'IsSubjToDedTier1',
  'IsSubjToDedTier2',
  'QuantLimitOnSvc',
  'LimitQty',
  'LimitUnit',
  'MinimumStay',
  'Exclusions',
  'Explanation',
  'EHBVarReason',
  'IsExclFromInnMOOP',
  'IsExclFromOonMOOP',
  'RowNumber',
];

async function benefits(year: number, variantId: string) {
  const rows = await suite.storage.db
    .selectFrom('plan_benefits')
    .selectAll()
    .where('year', '=', year)
    .where('variant_id', '=', variantId)
    .execute();
  return new Map(rows.map((r) => [r.name, { ...r, detail: JSON.parse(r.detail) as BenefitDetail }]));
}

describe('benefits: the API type of a benefit name', () => {
  it('upper-snake-cases and collapses punctuation', () => {
    assert.equal(
      benefitType('Primary Care Visit to Treat an Injury or Illness'),
      'PRIMARY_CARE_VISIT_TO_TREAT_AN_INJURY_OR_ILLNESS',
    );
    assert.equal(
      benefitType('Inpatient Hospital Services (e.g., Hospital Stay)'),
      'INPATIENT_HOSPITAL_SERVICES_E_G_HOSPITAL_STAY',
    );
    assert.equal(benefitType('X-rays and Diagnostic Imaging'), 'X_RAYS_AND_DIAGNOSTIC_IMAGING');
    assert.equal(
      benefitType('Mental/Behavioral Health Outpatient Services'),
      'MENTAL_BEHAVIORAL_HEALTH_OUTPATIENT_SERVICES',
    );
    assert.equal(benefitType('Routine Dental Services (Adult)'), 'ROUTINE_DENTAL_SERVICES_ADULT');
  });
});

describe('benefits: fixtures in the current layout', () => {
  it('derives cost sharing per tier and the display strings', async () => {
    const file = suite.csv(
      'benefits.csv',
      [
        benefitRow('Primary Care Visit to Treat an Injury or Illness', {
          CopayInnTier1: '$30',
          CoinsInnTier1: '0%',
          CoinsOutofNet: '50% Coinsurance after deductible',
        }),
        benefitRow('Inpatient Hospital Services (e.g., Hospital Stay)', {
          CopayInnTier1: 'No Charge',
          CoinsInnTier1: '25% Coinsurance after deductible',
        }),
        benefitRow('Preventive Care/Screening/Immunization', {
          CopayInnTier1: 'No Charge',
          CoinsInnTier1: 'No Charge',
        }),
        benefitRow('Emergency Room Services', {
          CopayInnTier1: '$500 Copay with deductible',
          CoinsInnTier1: '20%',
        }),
        benefitRow('Generic Drugs', {
          CopayInnTier1: 'No Charge after deductible',
          CoinsInnTier1: 'Not Applicable',
        }),
        benefitRow('Skilled Nursing Facility', {
          CopayInnTier1: '$150 Copay per Day',
          CoinsInnTier1: 'Not Applicable',
          QuantLimitOnSvc: 'Yes',
          LimitQty: '25.0',
          LimitUnit: 'Days per Benefit Period',
          Explanation: 'Prior authorization required.',
        }),
        benefitRow('Bariatric Surgery', { IsCovered: 'Not Covered', IsEHB: '', Exclusions: 'Not covered.' }),
      ],
      { header: BENEFITS_COLUMNS, bom: true },
    );
    const summary = await ingest(suite.storage, 'benefits', [file]);
    assert.equal(summary.rejectedCount, 0);
    assert.equal(summary.stored, 7);
    const stored = await benefits(2031, '99999TX0010001-01');

    const primary = stored.get('Primary Care Visit to Treat an Injury or Illness')!;
    assert.equal(primary.plan_id, '99999TX0010001');
    assert.equal(Number(primary.is_ehb), 1);
    assert.equal(primary.detail.type, 'PRIMARY_CARE_VISIT_TO_TREAT_AN_INJURY_OR_ILLNESS');
    assert.deepEqual(primary.detail.cost_sharings, [
      {
        network_tier: 'In-Network',
        copay_amount: 30,
        copay_options: null,
        coinsurance_rate: 0,
        coinsurance_options: null,
        display_string: '$30',
      },
      {
        network_tier: 'Out-of-Network',
        copay_amount: null,
        copay_options: 'Not Applicable',
        coinsurance_rate: 0.5,
        coinsurance_options: 'Coinsurance after deductible',
        display_string: '50% Coinsurance after deductible',
      },
    ]);
    const display = (name: string) => stored.get(name)!.detail.cost_sharings[0]?.display_string;
    assert.equal(
      display('Inpatient Hospital Services (e.g., Hospital Stay)'),
      '25% Coinsurance after deductible',
    );
    assert.equal(
      stored.get('Inpatient Hospital Services (e.g., Hospital Stay)')!.detail.type,
      'INPATIENT_HOSPITAL_SERVICES_E_G_HOSPITAL_STAY',
    );
    assert.equal(display('Preventive Care/Screening/Immunization'), 'No Charge');
    assert.equal(display('Emergency Room Services'), '$500 Copay with deductible, 20% Coinsurance');
    assert.equal(display('Generic Drugs'), 'No Charge after deductible');
    const nursing = stored.get('Skilled Nursing Facility')!.detail;
    assert.equal(nursing.cost_sharings[0]?.copay_amount, 150);
    assert.equal(nursing.cost_sharings[0]?.copay_options, 'Copay per Day');
    assert.equal(nursing.has_limits, true);
    assert.equal(nursing.limit_quantity, 25);
    assert.equal(nursing.limit_unit, 'Days per Benefit Period');
    assert.equal(nursing.explanation, 'Prior authorization required.');
    const bariatric = stored.get('Bariatric Surgery')!;
    assert.equal(Number(bariatric.covered), 0);
    assert.equal(bariatric.detail.covered, false);
    assert.deepEqual(bariatric.detail.cost_sharings, []);
    assert.equal(bariatric.detail.exclusions, 'Not covered.');
  });

  it('keeps IsExclFromInnMOOP for the out-of-pocket estimate: Yes, No, or not stated', async () => {
    const file = suite.csv(
      'moop-exclusion.csv',
      [
        benefitRow('Routine Eye Exam (Adult)', { IsExclFromInnMOOP: 'Yes' }),
        benefitRow('Specialist Visit', { IsExclFromInnMOOP: 'No' }),
        benefitRow('Chiropractic Care', { IsExclFromInnMOOP: '' }),
      ],
      { header: BENEFITS_COLUMNS },
    );
    assert.equal((await ingest(suite.storage, 'benefits', [file])).rejectedCount, 0);
    const stored = await benefits(2031, '99999TX0010001-01');
    assert.equal(stored.get('Routine Eye Exam (Adult)')!.detail.excluded_from_inn_moop, true);
    assert.equal(stored.get('Specialist Visit')!.detail.excluded_from_inn_moop, false);
    assert.equal(stored.get('Chiropractic Care')!.detail.excluded_from_inn_moop, null);
    const bad = suite.csv('bad-exclusion.csv', [benefitRow('Dialysis', { IsExclFromInnMOOP: 'Sometimes' })], {
      header: BENEFITS_COLUMNS,
    });
    const error = await failedIngest(suite.storage, 'benefits', [bad]);
    assert.deepEqual(rejectLines(error.summary), [
      'bad-exclusion.csv:2: IsExclFromInnMOOP "Sometimes" is not Yes or No',
    ]);
  });

  it('re-running replaces the year', async () => {
    const file = suite.csv('again.csv', [benefitRow('Specialist Visit', { CopayInnTier1: '$60' })], {
      header: BENEFITS_COLUMNS,
    });
    await ingest(suite.storage, 'benefits', [file]);
    await ingest(suite.storage, 'benefits', [file]);
    assert.equal(await suite.count('plan_benefits', 2031), 1);
  });

  it('fails on bad rows with file:line, keeps the previous data, stores good rows when allowed', async () => {
    const file = suite.csv(
      'bad-benefits.csv',
      [
        benefitRow('Specialist Visit', { CopayInnTier1: '$60' }),
        benefitRow('Specialist Visit', { PlanId: '99999TX0010002-01' }),
        benefitRow('Specialist Visit', { PlanId: '99999TX0010001' }),
        benefitRow('Specialist Visit', { CopayInnTier1: 'sixty dollars' }),
        benefitRow('Specialist Visit', { IsCovered: 'Maybe' }),
        benefitRow('', {}),
      ],
      { header: BENEFITS_COLUMNS },
    );
    const error = await failedIngest(suite.storage, 'benefits', [file]);
    assert.deepEqual(rejectLines(error.summary), [
      'bad-benefits.csv:3: PlanId 99999TX0010002-01 is not a variant of 99999TX0010001',
      'bad-benefits.csv:4: PlanId "99999TX0010001" is not a plan variant id like 12345TX0010001-01',
      'bad-benefits.csv:5: CopayInnTier1 "sixty dollars" is not a copay',
      'bad-benefits.csv:6: IsCovered "Maybe" is not Covered or Not Covered',
      'bad-benefits.csv:7: BenefitName is empty',
    ]);
    assert.equal(await suite.count('plan_benefits', 2031), 1);
    const summary = await ingest(suite.storage, 'benefits', [file], { allowRejects: 5 });
    assert.equal(summary.stored, 1);
  });

  it('refuses a file without the copay columns', async () => {
    const header = BENEFITS_COLUMNS.filter((c) => !c.startsWith('Copay'));
    const error = await failedIngest(suite.storage, 'benefits', [
      suite.csv('no-copay.csv', [benefitRow('X')], { header }),
    ]);
    assert.match(error.message, /missing columns "CopayInnTier1", "CopayInnTier2", "CopayOutofNet"/);
  });
});

describe('benefits: the PY2014–2016 layout with its extra columns', () => {
  it('reads past VersionNum, IssuerId2, IsStateMandate, IsSubjToDedTier1/2, MinimumStay, RowNumber', async () => {
    const old = (name: string, extra: Record<string, string>) =>
      benefitRow(name, {
        BusinessYear: '2015',
        VersionNum: '7',
        IssuerId2: '99999',
        StateCode2: 'TX',
        IsStateMandate: '',
        IsSubjToDedTier1: 'Yes',
        IsSubjToDedTier2: '',
        MinimumStay: '',
        RowNumber: '42',
        ...extra,
      });
    const file = suite.csv(
      'old-benefits.csv',
      [
        old('Routine Dental Services (Adult)', { CopayInnTier1: '$0', CoinsInnTier1: '20%', IsCovered: '' }),
        old('Generic Drugs', { CopayInnTier1: '$10', CoinsInnTier1: '', IsEHB: 'Yes' }),
      ],
      { header: OLD },
    );
    const summary = await ingest(suite.storage, 'benefits', [file]);
    assert.equal(summary.rejectedCount, 0);
    const stored = await benefits(2015, '99999TX0010001-01');
    const dental = stored.get('Routine Dental Services (Adult)')!.detail;
    assert.equal(dental.type, 'ROUTINE_DENTAL_SERVICES_ADULT');
    assert.equal(dental.covered, false, 'an empty IsCovered is not stated as covered');
    assert.equal(dental.cost_sharings[0]?.display_string, '20% Coinsurance');
    assert.equal(stored.get('Generic Drugs')!.detail.cost_sharings[0]?.display_string, '$10');
  });
});
