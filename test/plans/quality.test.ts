import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { assertPlanError, planApiSuite } from './plan-api.js';

// ../shared/data holds no Quality Rating System PUF, so these rows are constructed in its published
// layout for a fictional issuer (99999) and loaded through the real `quality` ingest format. No real
// plan is given a rating here.
function row(planId: string, ratings: [string, string, string, string]): Record<string, string> {
  return {
    IssuerID: '99999',
    State: 'TX',
    'Plan Type': 'HMO',
    Reportingunitid: '99999-TX-HMO',
    PlanID: planId,
    OverallRatingValue: ratings[0],
    MedicalCareRatingValue: ratings[1],
    MemberExperienceRatingValue: ratings[2],
    PlanAdministrationRatingValue: ratings[3],
  };
}

describe('plan API quality ratings (QRS PUF layout, fictional issuer)', () => {
  const api = planApiSuite([]);

  before(async () => {
    const file = api.csv('qrs-2026.csv', [
      row('99999TX0010001', ['4', '3', '5', '4']),
      row('99999TX0010002', [
        'NR - New-Ineligible for Scoring',
        'NR - New-Ineligible for Scoring',
        'NR - Not Rated',
        'NR',
      ]),
    ]);
    await api.loadFixture('quality', file, 2026);
  });

  test('stars as numbers 1–5, no reasons', async () => {
    assert.deepEqual(await api.json('/plans/99999TX0010001/quality-ratings?year=2026'), {
      quality_rating: {
        available: true,
        year: 2026,
        global_rating: 4,
        global_not_rated_reason: '',
        clinical_quality_management_rating: 3,
        clinical_quality_management_not_rated_reason: '',
        enrollee_experience_rating: 5,
        enrollee_experience_not_rated_reason: '',
        plan_efficiency_rating: 4,
        plan_efficiency_not_rated_reason: '',
      },
    });
  });

  test('"NR - reason" → 0 and the reason; a bare "NR" → "Not Rated"', async () => {
    assert.deepEqual(await api.json('/plans/99999TX0010002/quality-ratings?year=2026'), {
      quality_rating: {
        available: true,
        year: 2026,
        global_rating: 0,
        global_not_rated_reason: 'New-Ineligible for Scoring',
        clinical_quality_management_rating: 0,
        clinical_quality_management_not_rated_reason: 'New-Ineligible for Scoring',
        enrollee_experience_rating: 0,
        enrollee_experience_not_rated_reason: 'Not Rated',
        plan_efficiency_rating: 0,
        plan_efficiency_not_rated_reason: 'Not Rated',
      },
    });
  });

  test('no rating for the plan in the year → 1011', async () => {
    await assertPlanError(await api.get('/plans/99999TX0010003/quality-ratings?year=2026'), {
      code: '1011',
      status: '404',
      message: 'No quality rating found for those parameters',
      error: 'no quality rating for plan 99999TX0010003 in 2026',
    });
    await assertPlanError(await api.get('/plans/99999TX0010001/quality-ratings?year=2025'), {
      code: '1011',
      status: '404',
      message: 'No quality rating found for those parameters',
      error: 'no quality rating for plan 99999TX0010001 in 2025',
    });
  });

  test('year is required; a malformed plan id → 1003', async () => {
    await assertPlanError(await api.get('/plans/99999TX0010001/quality-ratings'), {
      code: '1003',
      status: '400',
      message: 'invalid quality rating request',
      error: 'year: a 4-digit market year is required',
    });
    await assertPlanError(await api.get('/plans/99999TX001000/quality-ratings?year=2026'), {
      code: '1003',
      status: '400',
      message: 'invalid quality rating request',
      error: 'plan_id: must be a 14-character HIOS plan ID (5 digits, state, 7 digits)',
    });
  });
});
