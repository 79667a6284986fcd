import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { AGE_CURVES, type AgeCurveName } from '../../src/plans/tables/age-curves.js';
import { APPLICABLE_PERCENTAGE, REQUIRED_CONTRIBUTION } from '../../src/plans/tables/tax-credit.js';
import { sharedData, skipWithoutSharedData } from '../helpers/shared-data.js';

function csvRows(relative: string): Record<string, string>[] {
  const [header, ...lines] = readFileSync(sharedData(relative), 'utf8').trim().split(/\r?\n/);
  const names = header!.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [names[i], v])));
}

const hundredths = (text: string) => Math.round(Number(text) * 100);

describe('published tables transcribed into the project', () => {
  it(
    'applicable percentages match the IRS table file cell by cell',
    { skip: skipWithoutSharedData('reference_tables/irs_applicable_percentage.csv') },
    () => {
      const rows = csvRows('reference_tables/irs_applicable_percentage.csv').filter(
        (r) => r.table !== 'ORIGINAL_ACA_SUPERSEDED_BY_ARPA',
      );
      const expected: Record<number, unknown[]> = {};
      for (const r of rows) {
        (expected[Number(r.tax_year)] ??= []).push({
          fromPct: Number(r.fpl_pct_from),
          toPct: r.fpl_pct_to === '' ? null : Number(r.fpl_pct_to),
          initial: hundredths(r.initial_pct!),
          final: hundredths(r.final_pct!),
        });
      }
      assert.deepEqual(APPLICABLE_PERCENTAGE, expected);
    },
  );

  it('the 2021–2025 tables have no upper limit and 2026 returns to the 400 % cliff', () => {
    for (const year of [2021, 2022, 2023, 2024, 2025])
      assert.equal(APPLICABLE_PERCENTAGE[year]!.at(-1)!.toPct, null);
    assert.equal(APPLICABLE_PERCENTAGE[2026]!.at(-1)!.toPct, 400);
    assert.deepEqual(APPLICABLE_PERCENTAGE[2026]![1], { fromPct: 133, toPct: 150, initial: 314, final: 419 });
  });

  it(
    'required contribution percentages match the IRS file',
    { skip: skipWithoutSharedData('reference_tables/irs_employer_coverage_affordability_pct.csv') },
    () => {
      for (const r of csvRows('reference_tables/irs_employer_coverage_affordability_pct.csv')) {
        assert.equal(
          REQUIRED_CONTRIBUTION[Number(r.tax_year)]!.pct,
          hundredths(r.required_contribution_pct_36B_c_2_C!),
        );
      }
    },
  );

  it(
    'age curves match the CMS curves file for every age',
    { skip: skipWithoutSharedData('reference_tables/age_rating_curves.csv') },
    () => {
      const rows = csvRows('reference_tables/age_rating_curves.csv');
      for (const r of rows) {
        assert.equal(
          AGE_CURVES[r.curve as AgeCurveName][Number(r.age)],
          Math.round(Number(r.factor) * 1000),
          `${r.curve} ${r.age}`,
        );
      }
      assert.equal(rows.length, Object.keys(AGE_CURVES).length * 65);
    },
  );

  it('the federal default curve is 1.000 at 21, 0.765 to age 14 and 3.000 at 64 (3:1)', () => {
    const curve = AGE_CURVES.FEDERAL_DEFAULT_2018;
    assert.equal(curve[21], 1000);
    assert.equal(curve[14], 765);
    assert.equal(curve[15], 833);
    assert.equal(curve[64], 3000);
    assert.equal(AGE_CURVES.FEDERAL_DEFAULT_2014_2017[20], 635);
  });
});
