import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { povertyTable, type PovertyRegion } from '../../src/plans/tables/poverty-guidelines.js';
import { sharedData, skipWithoutSharedData } from '../helpers/shared-data.js';
import { assertPlanError, planApiSuite } from './plan-api.js';

const GUIDELINES_CSV = 'reference_tables/hhs_poverty_guidelines.csv';

describe(
  'the poverty-guideline table matches hhs_poverty_guidelines.csv',
  { skip: skipWithoutSharedData(GUIDELINES_CSV) },
  () => {
    test('sizes 1, 4 and 8 and the per-person step of every year and region, 2013–2026', () => {
      const regions: Record<string, PovertyRegion> = { CONTIGUOUS_48_DC: 'contiguous', AK: 'AK', HI: 'HI' };
      const lines = readFileSync(sharedData(GUIDELINES_CSV), 'utf8').trim().split(/\r?\n/).slice(1);
      assert.equal(lines.length, 14 * 3);
      for (const line of lines) {
        const [year, region, first, additional, one, four, eight] = line.split(',');
        const table = povertyTable(Number(year), regions[region!]!);
        assert.ok(table, `${year} ${region}`);
        assert.deepEqual(
          [table.sizes[0], table.sizes[3], table.sizes[7]],
          [Number(one), Number(four), Number(eight)],
          `${year} ${region}`,
        );
        assert.equal(table.sizes[1]! - table.sizes[0]!, Number(additional), `${year} ${region} step`);
        assert.equal(table.sizes[0], Number(first));
      }
    });
  },
);

describe('GET /households/pcfpl (year = market year → guidelines of year − 1)', () => {
  const api = planApiSuite([]);
  const pcfpl = async (query: string) =>
    (await api.json<{ pc_fpl: number }>(`/households/pcfpl?${query}`)).pc_fpl;

  test('48 states: 40,000 for 5 persons in market year 2026 → 40,000 / 37,650 = 106.24%', async () => {
    // 2025 guideline for 5: 15,650 + 4 × 5,500 = 37,650.
    assert.equal(await pcfpl('year=2026&state=VA&size=5&income=40000'), 106.24);
  });

  test('rounded to 2 decimals: 30,000 for one person → 191.69% (30,000 / 15,650 = 1.916932…)', async () => {
    assert.equal(await pcfpl('year=2026&state=TX&size=1&income=30000'), 191.69);
  });

  test('Alaska and Hawaii have their own guidelines', async () => {
    assert.equal(await pcfpl('year=2026&state=AK&size=1&income=19550'), 100);
    // 2016 Hawaii size 8 is the 2015 figure 47,010 (the formula would give 46,990).
    assert.equal(await pcfpl('year=2017&state=HI&size=8&income=47010'), 100);
  });

  test('above eight persons: add the per-person step', async () => {
    // 2025: 54,150 + 2 × 5,500 = 65,150; 100,000 / 65,150 = 153.49%.
    assert.equal(await pcfpl('year=2026&state=OH&size=10&income=100000'), 153.49);
    // 2016: size 8 40,890 + 4,160 (the 2015 step) = 45,050.
    assert.equal(await pcfpl('year=2017&state=OH&size=9&income=45050'), 100);
  });

  test('no income → 0%', async () => {
    assert.equal(await pcfpl('year=2026&state=OH&size=2&income=0'), 0);
  });

  test('no guidelines for the year → 1010', async () => {
    await assertPlanError(await api.get('/households/pcfpl?year=2013&state=VA&size=5&income=40000'), {
      code: '1010',
      status: '404',
      message: 'percentage of federal poverty level not found',
      error: 'guideline not found for state: VA, year: 2013',
    });
  });

  const invalid: [string, string][] = [
    ['state=VA&size=5&income=40000', 'year: a 4-digit market year is required'],
    ['year=2026&size=5&income=40000', 'state: a 2-letter USPS abbreviation is required'],
    ['year=2026&state=ZZ&size=5&income=40000', 'state: ZZ is not a state'],
    [
      'year=2026&state=VA&size=0&income=40000',
      'size: the household size, an integer from 1 to 100, is required',
    ],
    [
      'year=2026&state=VA&size=2.5&income=40000',
      'size: the household size, an integer from 1 to 100, is required',
    ],
    [
      'year=2026&state=VA&size=5&income=-1',
      'income: the annual household income, a number from 0 to 1000000000000, is required',
    ],
    [
      'year=2026&state=VA&size=5&income=lots',
      'income: the annual household income, a number from 0 to 1000000000000, is required',
    ],
  ];
  for (const [query, error] of invalid) {
    test(`${query} → 1003`, async () => {
      await assertPlanError(await api.get(`/households/pcfpl?${query}`), {
        code: '1003',
        status: '400',
        message: 'invalid pcfpl request',
        error,
      });
    });
  }
});
