import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MedicaidLimits } from '../store/medicaid.js';
import { householdEligibility } from './household-eligibility.js';
import { settleHousehold } from './household.js';

/** A state without the adult expansion (Texas's published 2021 limits have no adult group). */
const NON_EXPANSION: MedicaidLimits = {
  year: 2021,
  quarter: 1,
  limits: [
    { program: 'medicaid', category: 'adult_19_64_expansion', pct: null },
    { program: 'medicaid', category: 'parent_caretaker', pct: 17 },
    { program: 'medicaid', category: 'child_6_18', pct: 138 },
  ],
};

function eligibility(income: number, unemployment?: 'Adult' | 'Dependent' | 'None') {
  const household = settleHousehold(
    { income, people: [{ age: 40 }], unemployment_received: unemployment },
    2021,
  );
  return householdEligibility({
    year: 2021,
    state: 'TX',
    household,
    medicaid: NON_EXPANSION,
    benchmark: () => 45_000,
  });
}

test('below 100 % FPL in a non-expansion state: the coverage gap, no credit', () => {
  // $8,000 against the 2020 guideline of $12,760: 62.7 %.
  const gap = eligibility(8_000);
  assert.equal(gap.people[0]!.inCoverageGap, true);
  assert.equal(gap.aptc.aptc, 0);
});

test('2021 unemployment (ARPA §9663): an applicable taxpayer at any income, so not in the coverage gap', () => {
  const treated = eligibility(8_000, 'Adult');
  assert.equal(treated.people[0]!.inCoverageGap, false);
  // Household income counts as 133 % FPL at most: 0 % applicable percentage in 2021, the full benchmark.
  assert.equal(treated.aptc.aptc, 45_000);
  assert.equal(treated.csr, '94% AV Level Silver Plan CSR');
  // A dependant's unemployment changes the CSR only: the adult stays in the gap without a credit.
  const dependent = eligibility(8_000, 'Dependent');
  assert.equal(dependent.people[0]!.inCoverageGap, true);
  assert.equal(dependent.aptc.aptc, 0);
});

test('an effective date outside the market year is refused', () => {
  assert.throws(
    () => settleHousehold({ effective_date: '2027-02-01', people: [{ age: 40 }] }, 2026),
    (error: { statusCode?: number; body?: unknown }) =>
      JSON.stringify(error).includes('household.effective_date: 2027-02-01 is not in market year 2026'),
  );
});
