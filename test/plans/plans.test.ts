import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { skipWithoutSharedData } from '../helpers/shared-data.js';
import { REAL, assertPlanError, filesOf, planApiSuite } from './plan-api.js';

// Real files: the PY2025 Plan Attributes PUF, and for 2014 the Idaho QHP Landscape with the 2014 Business
// Rules PUF.
const loads = [REAL.counties, REAL.landscapeIdaho2014, REAL.businessRules2014, REAL.planAttributes2025];
const skip = skipWithoutSharedData(...filesOf(...loads));

interface CostLimit {
  type: string;
  amount: number | null;
  csr: string;
  network_tier: string;
  family_cost: string;
}

interface PlanBody {
  id: string;
  name: string;
  issuer: Record<string, unknown>;
  metal_level: string;
  type: string;
  design_type: string;
  deductibles: CostLimit[];
  moops: CostLimit[];
  [field: string]: unknown;
}

/** The in-network amount for one person of one CSR variant and one kind. */
function inNetworkIndividual(limits: CostLimit[], csr: string, type: string): number | null | undefined {
  return limits.find(
    (l) =>
      l.csr === csr && l.type === type && l.network_tier === 'In-Network' && l.family_cost === 'Individual',
  )?.amount;
}

const COMBINED_DEDUCTIBLE = 'Combined Medical and Drug EHB Deductible';
const COMBINED_MOOP = 'Maximum Out of Pocket for Medical and Drug EHB Benefits (Total)';

describe('plan API plan details (real Plan Attributes, Landscape and Business Rules files)', { skip }, () => {
  const api = planApiSuite(loads);
  const plan = async (path: string) => (await api.json<{ plan: PlanBody }>(path)).plan;

  describe('GET /plans/{plan_id}: a PY2025 standardized silver plan (11718TX0140020)', () => {
    test('plan fields as the PUF states them', async () => {
      const found = await plan('/plans/11718TX0140020?year=2025');
      const { deductibles, moops, ...rest } = found;
      assert.ok(deductibles.length > 0 && moops.length > 0);
      assert.deepEqual(rest, {
        id: '11718TX0140020',
        name: 'Community Ultra Select Silver 020 (No Deductible for PCP, Specialists & Generics, $0 PCP 24/7 Virtual Care Options)',
        issuer: {
          id: '11718',
          name: 'Community Health Choice',
          state: 'TX',
          individual_url: '',
          shop_url: '',
          toll_free: '',
          tty: '',
          eligible_dependents: [],
        },
        metal_level: 'Silver',
        type: 'HMO',
        design_type: 'DESIGN1',
        is_standardized_plan: true,
        market: 'Individual',
        state: 'TX',
        product_division: 'HealthCare',
        insurance_market: 'QHP',
        hsa_eligible: false,
        has_national_network: false,
        specialist_referral_required: false,
        guaranteed_rate: false,
        disease_mgmt_programs: ['Asthma', 'Heart Disease', 'Diabetes', 'Pregnancy'],
        benefits_url:
          'https://www.communityhealthchoice.org/wp-content/uploads/2024/06/11718TX0140020-01-2025.pdf',
        brochure_url:
          'https://www.communityhealthchoice.org/wp-content/uploads/2024/06/plan-brochure-select-ultra-select-2025.pdf',
        formulary_url:
          'https://www.communityhealthchoice.org/wp-content/uploads/2024/06/formulary-select-ultra-select-2025.pdf',
        network_url: '',
        service_area_id: 'TXS001',
        benefits: [],
        // The standard variant's (-01) coverage examples.
        sbcs: {
          baby: { deductible: 5000, copay: 30, coinsurance: 2800, limit: 0 },
          diabetes: { deductible: 4100, copay: 600, coinsurance: 0, limit: 0 },
          fracture: { deductible: 2100, copay: 400, coinsurance: 0, limit: 0 },
        },
        quality_rating: {
          available: false,
          year: 2025,
          global_rating: 0,
          global_not_rated_reason: '',
          clinical_quality_management_rating: 0,
          clinical_quality_management_not_rated_reason: '',
          enrollee_experience_rating: 0,
          enrollee_experience_not_rated_reason: '',
          plan_efficiency_rating: 0,
          plan_efficiency_not_rated_reason: '',
        },
        // No Business Rules PUF for 2025 is loaded, no Benefits PUF lists the benefit, and no public file
        // carries the last five (docs/decisions.md#plan-fields).
        max_age_child: null,
        tobacco_lookback: null,
        covers_nonhyde_abortion: null,
        simple_choice: null,
        suppression_state: null,
        certification: null,
        network_adequacy: null,
        rx_3mo_mail_order: null,
      });
    });

    test('deductibles and MOOPs of every variant, each tagged with its CSR', async () => {
      const { deductibles, moops } = await plan('/plans/11718TX0140020?year=2025');
      // TEHBDedInnTier1Individual / TEHBInnTier1IndividualMOOP of each PlanId variant.
      const expected: [string, number, number][] = [
        ['Non-Exchange variant', 5000, 8000],
        ['Exchange variant (no CSR)', 5000, 8000],
        ['Zero Cost Sharing Plan Variation', 0, 0],
        ['Limited Cost Sharing Plan Variation', 5000, 8000],
        ['73% AV Level Silver Plan CSR', 3000, 6400],
        ['87% AV Level Silver Plan CSR', 500, 3000],
        ['94% AV Level Silver Plan CSR', 0, 2000],
      ];
      for (const [csr, deductible, moop] of expected) {
        assert.equal(inNetworkIndividual(deductibles, csr, COMBINED_DEDUCTIBLE), deductible, csr);
        assert.equal(inNetworkIndividual(moops, csr, COMBINED_MOOP), moop, csr);
      }
      assert.deepEqual(new Set(deductibles.map((d) => d.csr)), new Set(expected.map(([csr]) => csr)));
      // "$10000 per group": the family amount of the standard variant.
      const family = deductibles.find(
        (d) =>
          d.csr === 'Exchange variant (no CSR)' &&
          d.network_tier === 'In-Network' &&
          d.family_cost === 'Family',
      );
      assert.deepEqual(family, {
        type: COMBINED_DEDUCTIBLE,
        amount: 10000,
        csr: 'Exchange variant (no CSR)',
        network_tier: 'In-Network',
        family_cost: 'Family',
        individual: false,
        family: true,
        display_string: '$10000 per group',
      });
    });

    test('the year defaults to the current market year', async () => {
      assert.equal((await plan('/plans/11718TX0140020')).design_type, 'DESIGN1');
    });
  });

  test('a dental plan: product division Dental, its dental level kept (11339KS0010007)', async () => {
    const found = await plan('/plans/11339KS0010007?year=2025');
    assert.equal(found.product_division, 'Dental');
    assert.equal(found.metal_level, 'Low');
    assert.equal(found.type, 'PPO');
    assert.equal(found.design_type, 'NOT_APPLICABLE');
    assert.equal(found.is_standardized_plan, false);
    assert.equal((found.issuer as { name: string }).name, 'Dentegra Insurance Company');
  });

  test('a PY2014 landscape plan with its issuer’s business rules (26002ID0010001)', async () => {
    const found = await plan('/plans/26002ID0010001?year=2014');
    assert.equal(found.name, 'SelectHealth Preference Gold 250');
    assert.equal(found.metal_level, 'Gold');
    assert.equal(found.type, 'POS');
    assert.deepEqual(found.issuer, {
      id: '26002',
      name: 'SelectHealth',
      state: 'ID',
      individual_url: '',
      shop_url: '',
      toll_free: '1-800-538-5038',
      tty: '',
      // Business Rules PUF 2014, issuer 26002, individual market: every relationship but Self.
      eligible_dependents: ['Spouse', 'Adopted Child', 'Ward', 'Stepson or Stepdaughter', 'Child'],
    });
    // DependentMaximumAgRule 26, MinimumTobaccoFreeMonthsRule 6.
    assert.equal(found.max_age_child, 26);
    assert.equal(found.tobacco_lookback, 6);
    assert.match(String(found.network_url), /^http:\/\/intermountainhealthcare\.org\/providers\//);
    // Landscape: medical deductible $250, drug deductible $100, medical MOOP $5,000 (standard cost sharing).
    const csr = 'Exchange variant (no CSR)';
    assert.equal(inNetworkIndividual(found.deductibles, csr, 'Medical EHB Deductible'), 250);
    assert.equal(inNetworkIndividual(found.deductibles, csr, 'Drug EHB Deductible'), 100);
    assert.equal(
      inNetworkIndividual(found.moops, csr, 'Maximum Out of Pocket for Medical EHB Benefits'),
      5000,
    );
    // "Included in Medical": no amount of its own, and none invented.
    const drugMoop = found.moops.find(
      (m) => m.type === 'Maximum Out of Pocket for Drug EHB Benefits' && m.family_cost === 'Individual',
    );
    assert.equal(drugMoop?.amount, null);
  });

  test('no such plan in the year → 1006', async () => {
    await assertPlanError(await api.get('/plans/11718TX0140020?year=2024'), {
      code: '1006',
      status: '404',
      message: 'Plan not found',
      error: 'no plan 11718TX0140020 in 2024',
    });
  });

  for (const id of ['11718TX014002', '11718TX0140020-01', '11718tx0140020']) {
    test(`plan id "${id}" → 1003`, async () => {
      await assertPlanError(await api.get(`/plans/${id}?year=2025`), {
        code: '1003',
        status: '400',
        message: 'invalid get plan request',
        error: 'plan_id: must be a 14-character HIOS plan ID (5 digits, state, 7 digits)',
      });
    });
  }

  test('a year that is not a year → 1003', async () => {
    await assertPlanError(await api.get('/plans/11718TX0140020?year=25'), {
      code: '1003',
      status: '400',
      message: 'invalid get plan request',
      error: 'year: must be a 4-digit year',
    });
  });
});
