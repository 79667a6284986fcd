import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { assertPlanError, planApiSuite } from './plan-api.js';

// ../shared/data holds no Plan ID Crosswalk PUF, so these rows are constructed in its PY2025 → PY2026
// layout for a fictional issuer (99999) and loaded through the real `crosswalk` ingest format.
function row(overrides: Record<string, string>): Record<string, string> {
  return {
    State: 'TX',
    DentalPlan: 'No',
    PlanID_2025: '99999TX0010001',
    IssuerID_2025: '99999',
    FIPSCode: '48201',
    ZipCode: '00000',
    CrosswalkLevel: '1',
    ReasonForCrosswalk: '2',
    PlanID_2026: '99999TX0010007',
    IssuerID_2026: '99999',
    AgeOffPlanID_2026: '',
    ...overrides,
  };
}

describe('plan API crosswalk (Plan ID Crosswalk PUF layout, fictional issuer)', () => {
  const api = planApiSuite([]);
  const query = (zip: string, fips = '48201', plan = '99999TX0010001', year = '2025') =>
    `/crosswalk?year=${year}&plan_id=${plan}&state=TX&zipcode=${zip}&fips=${fips}`;

  before(async () => {
    const file = api.csv('crosswalk-2026.csv', [
      row({}),
      row({ ZipCode: '77002', CrosswalkLevel: '3', ReasonForCrosswalk: '4', PlanID_2026: '99999TX0010008' }),
      row({ ZipCode: '77003', CrosswalkLevel: '4', ReasonForCrosswalk: '8', PlanID_2026: '' }),
    ]);
    await api.loadFixture('crosswalk', file);
  });

  test('the row naming the ZIP wins over the county-wide row', async () => {
    assert.deepEqual(await api.json(query('77002')), {
      new_plan_id: '99999TX0010008',
      level: '3',
      reason: '4',
    });
  });

  test('another ZIP of the county → the county-wide row (ZIP 00000)', async () => {
    assert.deepEqual(await api.json(query('77099')), {
      new_plan_id: '99999TX0010007',
      level: '1',
      reason: '2',
    });
  });

  test('no plan to move to: new_plan_id is empty, level and reason say why', async () => {
    assert.deepEqual(await api.json(query('77003')), { new_plan_id: '', level: '4', reason: '8' });
  });

  test('another county, another plan or the new year → 1005', async () => {
    for (const path of [
      query('75001', '48113'),
      query('77002', '48201', '99999TX0010002'),
      query('77002', '48201', '99999TX0010001', '2026'),
    ]) {
      await assertPlanError(await api.get(path), {
        code: '1005',
        status: '404',
        message: 'No crosswalk found for those parameters',
        error: path.includes('48113')
          ? 'no crosswalk of plan 99999TX0010001 from 2025 in county 48113'
          : path.includes('0010002')
            ? 'no crosswalk of plan 99999TX0010002 from 2025 in county 48201'
            : 'no crosswalk of plan 99999TX0010001 from 2026 in county 48201',
      });
    }
  });

  const missing: [string, string][] = [
    [
      'plan_id=99999TX0010001&state=TX&zipcode=77002&fips=48201',
      'year: the previous plan year is required (4 digits)',
    ],
    ['year=2025&state=TX&zipcode=77002&fips=48201', 'plan_id: a 14-character HIOS plan ID is required'],
    [
      'year=2025&plan_id=99999TX0010001&zipcode=77002&fips=48201',
      'state: a 2-letter USPS abbreviation is required',
    ],
    ['year=2025&plan_id=99999TX0010001&state=TX&fips=48201', 'zipcode: a 5-digit ZIP code is required'],
    [
      'year=2025&plan_id=99999TX0010001&state=TX&zipcode=77002',
      'fips: a 5-digit county FIPS code is required',
    ],
  ];
  for (const [params, error] of missing) {
    test(`${error.split(':')[0] ?? error} missing → 1003`, async () => {
      await assertPlanError(await api.get(`/crosswalk?${params}`), {
        code: '1003',
        status: '400',
        message: 'invalid crosswalk request',
        error,
      });
    });
  }
});
