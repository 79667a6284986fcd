import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { CostLimit, PlanDetail, VariantDetail } from '../../../src/plans/store/plan-detail.js';
import { openZipEntry } from '../../../src/ingest/sources/zip-entry.js';
import { ingest, sharedData, skipWithoutSharedData } from '../../helpers/shared-data.js';
import { failedIngest, ingestSuite, rejectLines } from '../../helpers/ingest-suite.js';

const ZIP = 'marketplace_puf/2025/plan-attributes-puf.zip';
const suite = ingestSuite('plan-attributes');

const plan = (year: number, planId: string) =>
  suite.storage.db
    .selectFrom('plans')
    .selectAll()
    .where('year', '=', year)
    .where('plan_id', '=', planId)
    .executeTakeFirstOrThrow();

async function variant(year: number, variantId: string) {
  const row = await suite.storage.db
    .selectFrom('plan_variants')
    .selectAll()
    .where('year', '=', year)
    .where('variant_id', '=', variantId)
    .executeTakeFirstOrThrow();
  return { ...row, detail: JSON.parse(row.detail) as VariantDetail };
}

const inNetwork = (limits: CostLimit[], type: string, family = 'Individual') =>
  limits.find((l) => l.type === type && l.network_tier === 'In-Network' && l.family_cost === family);

const COMBINED_DEDUCTIBLE = 'Combined Medical and Drug EHB Deductible';
const TOTAL_MOOP = 'Maximum Out of Pocket for Medical and Drug EHB Benefits (Total)';

/** The first `lines` lines of the real PUF (header included), streamed out of the CMS zip. */
async function realCsvHead(lines: number): Promise<string> {
  const entry = await openZipEntry(sharedData(ZIP), /\.csv$/i);
  let text = '';
  for await (const chunk of entry.stream) {
    text += (chunk as Buffer).toString('utf8');
    if (text.split('\n').length > lines) break;
  }
  entry.stream.destroy();
  return text.split('\n').slice(0, lines).join('\n') + '\n';
}

const realFile = skipWithoutSharedData(ZIP);

describe('plan-attributes: the real PY2025 Plan Attributes PUF (CMS zip)', { skip: realFile }, () => {
  it('loads every variant of every plan: 5,734 plans, 24,527 variants, 405 issuers', async () => {
    const summary = await ingest(suite.storage, 'plan-attributes', [sharedData(ZIP)]);
    assert.equal(summary.read, 24527);
    assert.equal(summary.rejectedCount, 0);
    assert.deepEqual(summary.years, [2025]);
    assert.equal(await suite.count('plans', 2025), 5734);
    assert.equal(await suite.count('plan_variants', 2025), 24527);
    assert.equal(await suite.count('issuers', 2025), 405);
  });

  it('stores a BCBS of Texas Design 1 silver plan as the PUF states it', async () => {
    const row = await plan(2025, '33602TX0870010');
    assert.equal(row.name, 'Blue Advantage Plus Silver℠ Standard');
    assert.equal(row.issuer_id, '33602');
    assert.equal(row.state, 'TX');
    assert.equal(row.market, 'Individual');
    assert.equal(row.metal_level, 'Silver');
    assert.equal(row.design_type, 'DESIGN1');
    assert.equal(row.plan_type, 'POS');
    assert.equal(Number(row.dental_only), 0);
    assert.equal(Number(row.ehb_pct), 1);
    assert.equal(row.service_area_id, 'TXS019');
    assert.equal(row.network_id, 'TXN009');
    assert.equal(row.source, 'plan-attributes');
    const detail = JSON.parse(row.detail) as PlanDetail;
    assert.equal(detail.issuer_name, 'Blue Cross and Blue Shield of Texas');
    assert.equal(detail.effective_date, '2025-01-01');
    assert.ok(detail.disease_mgmt_programs.includes('High Blood Pressure and High Cholesterol'));
    const issuer = await suite.storage.db
      .selectFrom('issuers')
      .selectAll()
      .where('year', '=', 2025)
      .where('issuer_id', '=', '33602')
      .executeTakeFirstOrThrow();
    assert.equal(issuer.name, 'Blue Cross and Blue Shield of Texas');
    assert.equal(issuer.state, 'TX');
  });

  it('keeps the standard variant’s in-network deductible and MOOP ($5,000 / $8,000) and the CSR grid', async () => {
    const standard = await variant(2025, '33602TX0870010-01');
    assert.equal(standard.csr_type, 'Exchange variant (no CSR)');
    assert.equal(standard.plan_id, '33602TX0870010');
    const deductible = inNetwork(standard.detail.deductibles, COMBINED_DEDUCTIBLE);
    assert.deepEqual(deductible, {
      type: COMBINED_DEDUCTIBLE,
      amount: 5000,
      csr: 'Exchange variant (no CSR)',
      network_tier: 'In-Network',
      family_cost: 'Individual',
      individual: true,
      family: false,
      display_string: '$5,000',
    });
    assert.equal(inNetwork(standard.detail.moops, TOTAL_MOOP)?.amount, 8000);
    assert.equal(inNetwork(standard.detail.moops, TOTAL_MOOP)?.display_string, '$8,000');
    const group = inNetwork(standard.detail.deductibles, COMBINED_DEDUCTIBLE, 'Family');
    assert.equal(group?.display_string, '$10000 per group');
    assert.equal(group?.amount, 10000);
    assert.deepEqual(standard.detail.sbcs?.baby, {
      deductible: 5000,
      copay: 0,
      coinsurance: 3000,
      limit: 60,
    });
    // "Not Applicable" and empty cells are not limits: this integrated plan has no separate medical one.
    assert.equal(inNetwork(standard.detail.deductibles, 'Medical EHB Deductible'), undefined);

    const csr94 = await variant(2025, '33602TX0870010-06');
    assert.equal(csr94.csr_type, '94% AV Level Silver Plan CSR');
    assert.equal(inNetwork(csr94.detail.deductibles, COMBINED_DEDUCTIBLE)?.amount, 0);
    assert.equal(inNetwork(csr94.detail.moops, TOTAL_MOOP)?.amount, 2000);
    assert.equal((await variant(2025, '33602TX0870010-00')).csr_type, 'Non-Exchange variant');
    assert.equal((await variant(2025, '33602TX0870010-02')).csr_type, 'Zero Cost Sharing Plan Variation');
  });

  it('maps Expanded Bronze to Bronze and keeps separate medical and drug deductibles', async () => {
    const row = await plan(2025, '20069TX0100005');
    assert.equal(row.metal_level, 'Bronze');
    const standard = await variant(2025, '20069TX0100005-01');
    assert.equal(inNetwork(standard.detail.deductibles, 'Medical EHB Deductible')?.amount, 0);
    assert.equal(inNetwork(standard.detail.deductibles, 'Drug EHB Deductible')?.amount, 6500);
    assert.equal(inNetwork(standard.detail.moops, TOTAL_MOOP)?.amount, 9200);
  });

  it('keeps dental plans with their High/Low level and guaranteed rate', async () => {
    const row = await plan(2025, '12846TX0270004');
    assert.equal(row.metal_level, 'Low');
    assert.equal(Number(row.dental_only), 1);
    assert.equal(row.design_type, 'NOT_APPLICABLE');
    assert.equal(row.ehb_pct, null);
    assert.equal((JSON.parse(row.detail) as PlanDetail).guaranteed_rate, true);
    assert.equal((await variant(2025, '12846TX0270004-00')).detail.sbcs, null);
    const shop = await suite.storage.db
      .selectFrom('plans')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('year', '=', 2025)
      .where('market', '=', 'SHOP')
      .executeTakeFirstOrThrow();
    assert.equal(Number(shop.n), 374);
  });

  it('keeps the cells the out-of-pocket estimate reads, as published', async () => {
    const cells = async (variantId: string) => {
      const { detail } = await variant(2025, variantId);
      return [
        detail.specialty_drug_max_coinsurance,
        detail.inpatient_copay_max_days,
        detail.primary_care_cost_sharing_after_visits,
        detail.primary_care_deductible_after_copays,
      ];
    };
    // SpecialtyDrugMaximumCoinsurance, InpatientCopaymentMaximumDays, BeginPrimaryCareCostSharingAfter-
    // NumberOfVisits, BeginPrimaryCareDeductibleCoinsuranceAfterNumberOfCopays of each row.
    assert.deepEqual(await cells('69842LA0240022-01'), [150, 3, 0, 0]); // "$150", "3", "0", "0"
    assert.deepEqual(await cells('36194FL0160009-01'), [null, 3, 2, 0]); // "", "3", "2", "0"
    assert.deepEqual(await cells('33602TX0460552-00'), [null, 0, 0, 3]); // a catastrophic plan: 3 copays
    assert.deepEqual(await cells('33602TX0870010-01'), [null, 0, 0, 0]);
  });

  it('re-running the load replaces it: no duplicates', async () => {
    await ingest(suite.storage, 'plan-attributes', [sharedData(ZIP)]);
    assert.equal(await suite.count('plans', 2025), 5734);
    assert.equal(await suite.count('plan_variants', 2025), 24527);
    assert.equal(await suite.count('issuers', 2025), 405);
  });

  it('refuses a truncated zip (the first half of the real one) and keeps the loaded data', async () => {
    const bytes = readFileSync(sharedData(ZIP));
    const half = suite.file('truncated-plan-attributes-puf.zip', bytes.subarray(0, bytes.length >> 1));
    const error = await failedIngest(suite.storage, 'plan-attributes', [half]);
    assert.match(error.message, /ZIP archive.*nothing was stored/);
    assert.equal(await suite.count('plans', 2025), 5734);
    assert.equal(await suite.count('plan_variants', 2025), 24527);
  });

  it('refuses a zip whose compressed data is damaged (an inflate error mid-file), storing nothing', async () => {
    const bytes = Buffer.from(readFileSync(sharedData(ZIP)));
    bytes.fill(0xff, 300_000, 400_000);
    const error = await failedIngest(suite.storage, 'plan-attributes', [suite.file('damaged.zip', bytes)]);
    assert.match(error.message, /^damaged ZIP archive \(.+\); nothing was stored$/);
    assert.equal(await suite.count('plan_variants', 2025), 24527);
  });

  it('refuses a CSV without a required column, naming it', async () => {
    const head = (await realCsvHead(3)).replace(',CSRVariationType,', ',CSRVariation,');
    const error = await failedIngest(suite.storage, 'plan-attributes', [suite.file('no-csr.csv', head)]);
    assert.match(error.message, /not a plan-attributes file: missing column "CSRVariationType"/);
    assert.equal(await suite.count('plan_variants', 2025), 24527);
  });
  it('reads the .csv as well as the .zip (UTF-8 BOM), and a new load of the year replaces the old', async () => {
    const head = await realCsvHead(30);
    assert.ok(head.startsWith('\uFEFFBusinessYear,'));
    const csv = suite.file('plan-attributes-puf.csv', head);
    const wrongYear = await failedIngest(suite.storage, 'plan-attributes', [csv], { year: 2024 });
    assert.equal(wrongYear.summary?.rejectedCount, 29);
    assert.equal(
      rejectLines(wrongYear.summary)[0],
      'plan-attributes-puf.csv:2: the row is for 2025, the load is for 2024',
    );

    const summary = await ingest(suite.storage, 'plan-attributes', [csv]);
    assert.equal(summary.read, 29);
    assert.equal(summary.rejectedCount, 0);
    assert.equal(await suite.count('plan_variants', 2025), 29);
  });
});

/** A plan variant row in the PUF's column names (a subset of its 151 columns). */
function row(planVariantId: string, overrides: Record<string, string> = {}): Record<string, string> {
  const suffix = planVariantId.slice(15);
  return {
    BusinessYear: '2031',
    StateCode: 'TX',
    IssuerId: planVariantId.slice(0, 5),
    IssuerMarketPlaceMarketingName: 'Fixture Health of Texas',
    MarketCoverage: 'Individual',
    DentalOnlyPlan: 'No',
    StandardComponentId: planVariantId.slice(0, 14),
    PlanMarketingName: 'Fixture Silver',
    NetworkId: 'TXN001',
    ServiceAreaId: 'TXS001',
    IsNewPlan: 'New',
    PlanType: 'HMO',
    MetalLevel: 'Silver',
    DesignType: 'Design 2',
    EHBPercentTotalPremium: '0.9940000000000001',
    NationalNetwork: 'No',
    PlanEffectiveDate: '2031-01-01',
    PlanExpirationDate: '2031-12-31',
    PlanId: planVariantId,
    PlanVariantMarketingName: suffix === '04' ? 'Fixture Silver 73' : 'Fixture Silver',
    CSRVariationType: suffix === '04' ? '73% AV Level Silver Plan' : 'Standard Silver On Exchange Plan',
    IsHSAEligible: suffix === '04' ? 'No' : 'Yes',
    TEHBDedInnTier1Individual: suffix === '04' ? '$2,000' : '$4,500 ',
    TEHBDedInnTier1FamilyPerPerson: '$4500 per person',
    TEHBDedInnTier1FamilyPerGroup: '$9000 per group',
    TEHBDedOutOfNetIndividual: 'Not Applicable',
    TEHBDedOutOfNetFamilyPerPerson: 'per person not applicable',
    TEHBInnTier1IndividualMOOP: '$9,200',
    MEHBDedInnTier1Individual: '',
    ...overrides,
  };
}

describe('plan-attributes: fixtures in the PUF layout', () => {
  it('stores the plan from its standard variant and one row per variant', async () => {
    const file = suite.csv('fixture-pa.csv', [row('99999TX0010001-04'), row('99999TX0010001-01')], {
      bom: true,
    });
    const summary = await ingest(suite.storage, 'plan-attributes', [file]);
    assert.equal(summary.rejectedCount, 0);
    const stored = await plan(2031, '99999TX0010001');
    assert.equal(stored.design_type, 'DESIGN2');
    assert.equal(Number(stored.ehb_pct), 0.994);
    assert.equal(Number(stored.hsa_eligible), 1, 'from the -01 variant, not the CSR one');
    const standard = await variant(2031, '99999TX0010001-01');
    assert.equal(standard.detail.deductibles.length, 3);
    assert.equal(inNetwork(standard.detail.deductibles, COMBINED_DEDUCTIBLE)?.display_string, '$4,500');
    assert.equal((await variant(2031, '99999TX0010001-04')).detail.hsa_eligible, false);
  });

  it('fails a load with a bad plan id, reporting file:line, and keeps the previous data', async () => {
    const rows = [row('99999TX0010001-01'), row('99999TX0010001-04', { PlanId: '99999TX001001-04' })];
    const file = suite.csv('bad-id.csv', rows);
    const error = await failedIngest(suite.storage, 'plan-attributes', [file]);
    assert.match(error.message, /1 row rejected \(allowed: 0\); nothing was stored/);
    assert.deepEqual(rejectLines(error.summary), [
      'bad-id.csv:3: PlanId "99999TX001001-04" is not a plan variant id like 12345TX0010001-01',
    ]);
    assert.equal(await suite.count('plan_variants', 2031), 2);

    const partial = await ingest(suite.storage, 'plan-attributes', [file], { allowRejects: 1 });
    assert.equal(partial.rejectedCount, 1);
    assert.equal(await suite.count('plan_variants', 2031), 1);
    assert.equal(await suite.count('plans', 2031), 1);
  });

  it('rejects a variant of another plan, an unknown metal level and an unreadable amount', async () => {
    const file = suite.csv('bad-cells.csv', [
      row('99999TX0010001-01', { StandardComponentId: '99999TX0010002' }),
      row('99999TX0010001-01', { MetalLevel: 'Titanium' }),
      row('99999TX0010001-01', { TEHBInnTier1IndividualMOOP: 'about $9k' }),
      row('99999TX0010001-01', { StateCode: 'OK' }),
      row('99999TX0010001-01', { InpatientCopaymentMaximumDays: 'three' }),
      row('99999TX0010001-01', { SpecialtyDrugMaximumCoinsurance: 'ask us' }),
    ]);
    const error = await failedIngest(suite.storage, 'plan-attributes', [file], { allowRejects: 5 });
    assert.deepEqual(rejectLines(error.summary), [
      'bad-cells.csv:2: PlanId 99999TX0010001-01 is not a variant of 99999TX0010002',
      'bad-cells.csv:3: MetalLevel "Titanium" is not a metal or dental level',
      'bad-cells.csv:4: TEHBInnTier1IndividualMOOP "about $9k" is not an amount',
      'bad-cells.csv:5: StandardComponentId 99999TX0010001 is not a plan of issuer 99999 in OK',
      'bad-cells.csv:6: InpatientCopaymentMaximumDays "three" is not a whole number',
      'bad-cells.csv:7: SpecialtyDrugMaximumCoinsurance "ask us" is not an amount',
    ]);
  });

  it('takes over plans the QHP Landscape loaded for the same year and state', async () => {
    const db = suite.storage.db;
    const landscapePlan = (planId: string, state: string) => ({
      year: 2032,
      plan_id: planId,
      state,
      issuer_id: planId.slice(0, 5),
      name: 'From the landscape',
      market: 'Individual',
      dental_only: 0,
      metal_level: 'Silver',
      plan_type: 'HMO',
      design_type: 'NOT_APPLICABLE',
      hsa_eligible: 0,
      source: 'landscape',
      detail: '{}',
    });
    await db
      .insertInto('plans')
      .values([landscapePlan('99999TX0010001', 'TX'), landscapePlan('88888OK0010001', 'OK')])
      .execute();
    await db
      .insertInto('issuers')
      .values({ year: 2032, issuer_id: '99999', state: 'TX', name: 'Landscape name', source: 'landscape' })
      .execute();
    await db
      .insertInto('plan_variants')
      .values({
        year: 2032,
        variant_id: '99999TX0010001-01',
        plan_id: '99999TX0010001',
        csr_type: 'Exchange variant (no CSR)',
        name: 'From the landscape',
        source: 'landscape',
        detail: '{}',
      })
      .execute();
    const file = suite.csv('after-landscape.csv', [row('99999TX0010001-01', { BusinessYear: '2032' })]);
    await ingest(suite.storage, 'plan-attributes', [file]);
    const plans = await db
      .selectFrom('plans')
      .select(['plan_id', 'source', 'name'])
      .where('year', '=', 2032)
      .orderBy('plan_id')
      .execute();
    assert.deepEqual(plans, [
      { plan_id: '88888OK0010001', source: 'landscape', name: 'From the landscape' },
      { plan_id: '99999TX0010001', source: 'plan-attributes', name: 'Fixture Silver' },
    ]);
    const issuer = await db
      .selectFrom('issuers')
      .selectAll()
      .where('year', '=', 2032)
      .executeTakeFirstOrThrow();
    assert.equal(issuer.source, 'plan-attributes');
    assert.equal((await variant(2032, '99999TX0010001-01')).source, 'plan-attributes');
  });
});
