import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applicablePercentage, expectedContribution } from './applicable-percentage.js';

// The figures below are DERIVED BY HAND from the statutory / Rev. Proc. tables (linear inside each band,
// 26 CFR 1.36B-3(g)), not copied from an IRS publication: no copy of the Form 8962 instructions' Table 2
// or of Publication 974 was at hand to quote. Each comment shows the arithmetic.

function percent(year: number, fpl: number, belowPovertyEligible = false): number | string {
  const result = applicablePercentage(year, fpl, { belowPovertyEligible });
  return result.eligible ? result.percent : result.reason;
}

test('2014, 26 U.S.C. 36B(b)(3)(A)(i): band edges and midpoints', () => {
  assert.equal(percent(2014, 100), 2); // up to 133 %: 2.0 %
  assert.equal(percent(2014, 132.99), 2);
  assert.equal(percent(2014, 133), 3); // 133 % starts the 3.0–4.0 band
  assert.equal(percent(2014, 140), 3.41); // 3 + 1 × 7/17 = 3.41176 → 3.41 (nearest hundredth of 1 %)
  assert.equal(percent(2014, 150), 4);
  assert.equal(percent(2014, 175), 5.15); // 4 + 2.3 × 25/50
  assert.equal(percent(2014, 200), 6.3);
  assert.equal(percent(2014, 225), 7.18); // 6.3 + 1.75 × 25/50 = 7.175 → 7.18
  assert.equal(percent(2014, 250), 8.05);
  assert.equal(percent(2014, 275), 8.78); // 8.05 + 1.45 × 25/50 = 8.775 → 8.78 (1.36B-3(g)(3) Ex. 1)
  assert.equal(percent(2014, 300), 9.5);
  assert.equal(percent(2014, 400), 9.5); // "does not exceed 400 percent": 400 is in
});

test('the 400 % cliff by year: 2014–2020 and 2026, none in 2021–2025', () => {
  assert.equal(percent(2014, 400.01), 'above-400-percent');
  assert.equal(percent(2020, 401), 'above-400-percent');
  assert.equal(percent(2026, 400), 9.96); // Rev. Proc. 2025-25
  assert.equal(percent(2026, 400.01), 'above-400-percent');
  assert.equal(percent(2021, 500), 8.5); // ARPA §9661: 8.5 % above 400 %
  assert.equal(percent(2025, 1000), 8.5); // IRA §12001
});

test('ARPA / IRA 2021–2025: 0 % to 150 %, then 0–2, 2–4, 4–6, 6–8.5', () => {
  assert.equal(percent(2022, 100), 0);
  assert.equal(percent(2022, 150), 0);
  assert.equal(percent(2022, 175), 1); // 0 + 2 × 25/50
  assert.equal(percent(2022, 200), 2);
  assert.equal(percent(2022, 250), 4);
  assert.equal(percent(2022, 300), 6);
  assert.equal(percent(2022, 350), 7.25); // 6 + 2.5 × 50/100
  assert.equal(percent(2022, 400), 8.5);
});

test('2026, Rev. Proc. 2025-25: 2.10; 3.14–4.19; 4.19–6.60; 6.60–8.44; 8.44–9.96; 9.96', () => {
  assert.equal(percent(2026, 120), 2.1);
  assert.equal(percent(2026, 133), 3.14);
  assert.equal(percent(2026, 141.5), 3.67); // 3.14 + 1.05 × 8.5/17 = 3.665, a true half → 3.67
  assert.equal(percent(2026, 200), 6.6);
  assert.equal(percent(2026, 275), 9.2); // 8.44 + 1.52 × 25/50
});

test('below 100 %: none, unless the caller allows it (then the first band)', () => {
  assert.equal(percent(2026, 99.99), 'below-100-percent');
  assert.equal(percent(2026, 50, true), 2.1);
  assert.equal(percent(2021, 0, true), 0);
  assert.equal(percent(2013, 200), 'unknown-year');
  assert.equal(percent(2027, 200), 'unknown-year');
});

test('expected contribution: annual and monthly, each rounded once from the exact product', () => {
  // $22,980 at 6.300 %: $1,447.74 a year; $120.645 a month → $120.65 (half away from zero).
  assert.deepEqual(expectedContribution(2_298_000, 6300), {
    annual: 144774,
    monthly: 12065,
    monthlyExact: 12064.5,
  });
  // $50,000 at 9.960 %: $4,980.00 a year, $415.00 a month.
  assert.deepEqual(expectedContribution(5_000_000, 9960), {
    annual: 498000,
    monthly: 41500,
    monthlyExact: 41500,
  });
  assert.equal(expectedContribution(-100_000, 2100).annual, 0);
  assert.equal(expectedContribution(5_000_000, 0).monthly, 0);
});
