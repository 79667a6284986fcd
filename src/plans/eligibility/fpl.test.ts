import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fplPercent, guidelineYear, householdSize, unbornChildren } from './fpl.js';

// Guidelines (HHS, Federal Register): 2025 48 states + DC 15,650 / 5,500; AK 19,550; HI 17,990;
// 2026 (ASPE) 15,960 / 5,680.
const one = [{}];

test('coverage year Y uses the guidelines of Y − 1 for APTC/CSR and of Y for Medicaid', () => {
  assert.equal(guidelineYear(2026, 'aptc'), 2025);
  assert.equal(guidelineYear(2026, 'medicaid'), 2026);
  assert.deepEqual(fplPercent(3_130_000, one, 'TX', 2026, 'aptc'), {
    percent: 200,
    guidelineYear: 2025,
    guideline: 15650,
    size: 1,
  });
  assert.equal(fplPercent(3_192_000, one, 'TX', 2026, 'medicaid')?.percent, 200);
});

test('three regions: 48 states and DC, Alaska, Hawaii', () => {
  assert.equal(fplPercent(3_910_000, one, 'AK', 2026, 'aptc')?.percent, 200);
  assert.equal(fplPercent(3_598_000, one, 'HI', 2026, 'aptc')?.percent, 200);
  assert.equal(fplPercent(3_130_000, one, 'DC', 2026, 'aptc')?.percent, 200);
});

test('a household of four at exactly 400 % is exactly 400, not 399.999…', () => {
  const four = [{}, {}, {}, {}];
  assert.equal(fplPercent(12_860_000, four, 'TX', 2026, 'aptc')?.percent, 400); // 4 × 32,150
});

test('a pregnant woman counts her unborn children for Medicaid, not for the tax household', () => {
  assert.equal(unbornChildren({ is_pregnant: true }), 1);
  assert.equal(unbornChildren({ is_pregnant: true, pregnant_with: 2 }), 2);
  assert.equal(unbornChildren({ pregnant_with: 3 }), 3);
  assert.equal(unbornChildren({ is_pregnant: false }), 0);
  const twins = [{ is_pregnant: true, pregnant_with: 2 }];
  assert.equal(householdSize(twins, 'aptc'), 1);
  assert.equal(householdSize(twins, 'medicaid'), 3);
  assert.equal(fplPercent(2_732_000, twins, 'TX', 2026, 'medicaid')?.guideline, 27320); // 15,960 + 2 × 5,680
  assert.equal(fplPercent(2_732_000, twins, 'TX', 2026, 'aptc')?.guideline, 15650);
});

test('households past eight add the per-person step; a year we do not hold gives undefined', () => {
  const ten = Array.from({ length: 10 }, () => ({}));
  assert.equal(fplPercent(100, ten, 'TX', 2026, 'aptc')?.guideline, 15650 + 9 * 5500);
  assert.equal(fplPercent(100, one, 'TX', 2031, 'aptc'), undefined);
});
