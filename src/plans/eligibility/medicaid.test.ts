import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  categoriesFor,
  inCoverageGap,
  limitsByCategory,
  medicaidChipEligibility,
  type MedicaidLimitsByCategory,
} from './medicaid.js';

// Published limits as of January 2025 (% FPL, 5-point disregard included): Medicaid.gov's Medicaid/CHIP
// eligibility levels, as KFF State Health Facts tabulates them (docs/decisions.md#medicaid-chip).
const TX_2025 = limitsByCategory([
  { program: 'medicaid', category: 'adult_19_64_expansion', pct: null },
  { program: 'medicaid', category: 'parent_caretaker', pct: 19 },
  { program: 'medicaid', category: 'pregnant', pct: 203 },
  { program: 'medicaid', category: 'infant_0_1', pct: 203 },
  { program: 'medicaid', category: 'child_1_5', pct: 149 },
  { program: 'medicaid', category: 'child_6_18', pct: 138 },
  { program: 'medicaid', category: 'young_adult_19_20', pct: null },
  { program: 'chip_separate', category: 'child', pct: 206 },
  { program: 'chip_separate', category: 'pregnant', pct: null },
  { program: 'medicare', category: 'ignored', pct: 1 },
]);
const CA_2025: MedicaidLimitsByCategory = {
  adult: 138,
  parent: 114,
  pregnant: 213,
  infant: 266,
  child_1_5: 266,
  child_6_18: 266,
  young_adult_19_20: null,
  chip_child: null,
  chip_pregnant: null,
};

test('stored rows map onto categories; unknown programs are ignored', () => {
  assert.equal(TX_2025.adult, null);
  assert.equal(TX_2025.chip_child, 206);
  assert.equal(Object.keys(TX_2025).length, 9);
});

test('categories by age, pregnancy and parenthood', () => {
  assert.deepEqual(categoriesFor({ age: 0 }), ['infant', 'chip_child']);
  assert.deepEqual(categoriesFor({ age: 5 }), ['child_1_5', 'chip_child']);
  assert.deepEqual(categoriesFor({ age: 18 }), ['child_6_18', 'chip_child']);
  assert.deepEqual(categoriesFor({ age: 20 }), ['young_adult_19_20', 'adult']);
  assert.deepEqual(categoriesFor({ age: 30, is_parent: true }), ['parent', 'adult']);
  assert.deepEqual(categoriesFor({ age: 30, is_pregnant: true }), ['pregnant', 'chip_pregnant']);
  assert.deepEqual(categoriesFor({ age: 70 }), []);
});

test('expansion state: an adult at 138 % is eligible, at 138.01 % is not', () => {
  assert.deepEqual(medicaidChipEligibility({ age: 30 }, 138, CA_2025), {
    is_medicaid_chip: true,
    category: 'adult',
    unknown: [],
  });
  assert.equal(medicaidChipEligibility({ age: 30 }, 138.01, CA_2025).is_medicaid_chip, false);
});

test('non-expansion state: a childless adult is not eligible at any income; parents only to 19 %', () => {
  assert.equal(medicaidChipEligibility({ age: 30 }, 10, TX_2025).is_medicaid_chip, false);
  assert.equal(medicaidChipEligibility({ age: 30, is_parent: true }, 19, TX_2025).category, 'parent');
  assert.equal(medicaidChipEligibility({ age: 30, is_parent: true }, 19.5, TX_2025).is_medicaid_chip, false);
});

test('children: Medicaid by age band, then CHIP', () => {
  assert.equal(medicaidChipEligibility({ age: 0 }, 203, TX_2025).category, 'infant');
  assert.equal(medicaidChipEligibility({ age: 3 }, 149, TX_2025).category, 'child_1_5');
  assert.equal(medicaidChipEligibility({ age: 10 }, 150, TX_2025).category, 'chip_child');
  assert.equal(medicaidChipEligibility({ age: 10 }, 206.5, TX_2025).is_medicaid_chip, false);
  assert.equal(medicaidChipEligibility({ age: 19 }, 100, TX_2025).is_medicaid_chip, false);
  assert.equal(medicaidChipEligibility({ age: 25, pregnant_with: 1 }, 200, TX_2025).category, 'pregnant');
});

test('a category whose limit we lack is reported as unknown, never read as "not covered"', () => {
  const result = medicaidChipEligibility({ age: 20 }, 120, { adult: 100 });
  assert.deepEqual(result, { is_medicaid_chip: false, category: null, unknown: ['young_adult_19_20'] });
});

test('coverage gap: non-expansion state, below 100 % FPL, not eligible by another category', () => {
  assert.equal(inCoverageGap(80, TX_2025, false), true);
  assert.equal(inCoverageGap(100, TX_2025, false), false);
  assert.equal(inCoverageGap(15, TX_2025, true), false); // a parent under 19 % is on Medicaid
  assert.equal(inCoverageGap(80, CA_2025, false), false);
  assert.equal(inCoverageGap(80, {}, false), false); // adult limit unknown: no claim
});
