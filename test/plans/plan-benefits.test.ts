import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { loadFictionalPlan, planApiSuite } from './plan-api.js';

describe('GET /plans/{plan_id}: benefits and quality rating (fictional plan in the PUF layouts)', () => {
  const api = planApiSuite([]);
  before(() => loadFictionalPlan(api));

  test('one benefit per name, its cost sharings of every variant tagged with the CSR', async () => {
    const { plan } = await api.json<{ plan: { benefits: unknown[] } }>('/plans/99999TX0010001?year=2031');
    const outOfNetwork = (csr: string) => ({
      network_tier: 'Out-of-Network',
      csr,
      copay_amount: null,
      copay_options: 'Not Applicable',
      coinsurance_rate: 0.5,
      coinsurance_options: 'Coinsurance after deductible',
      display_string: '50% Coinsurance after deductible',
    });
    const inNetwork = (csr: string, copay: number) => ({
      network_tier: 'In-Network',
      csr,
      copay_amount: copay,
      copay_options: null,
      coinsurance_rate: 0,
      coinsurance_options: null,
      display_string: `$${copay}`,
    });
    assert.deepEqual(plan.benefits, [
      {
        name: 'Primary Care Visit to Treat an Injury or Illness',
        type: 'PRIMARY_CARE_VISIT_TO_TREAT_AN_INJURY_OR_ILLNESS',
        covered: true,
        explanation: '',
        exclusions: '',
        has_limits: false,
        limit_unit: '',
        limit_quantity: null,
        cost_sharings: [
          inNetwork('Exchange variant (no CSR)', 30),
          outOfNetwork('Exchange variant (no CSR)'),
          inNetwork('94% AV Level Silver Plan CSR', 5),
          outOfNetwork('94% AV Level Silver Plan CSR'),
        ],
      },
    ]);
  });

  test('the quality rating of the plan, available', async () => {
    const { plan } = await api.json<{ plan: { quality_rating: unknown } }>('/plans/99999TX0010001?year=2031');
    assert.deepEqual(plan.quality_rating, {
      available: true,
      year: 2031,
      global_rating: 4,
      global_not_rated_reason: '',
      clinical_quality_management_rating: 0,
      clinical_quality_management_not_rated_reason: 'New-Ineligible for Scoring',
      enrollee_experience_rating: 3,
      enrollee_experience_not_rated_reason: '',
      plan_efficiency_rating: 5,
      plan_efficiency_not_rated_reason: '',
    });
  });
});
