import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ratedAsTobaccoUser } from './tobacco.js';

const effective = '2026-01-01';

test('only a person who uses tobacco can be rated as a user', () => {
  assert.equal(ratedAsTobaccoUser({}, effective), false);
  assert.equal(
    ratedAsTobaccoUser({ uses_tobacco: false, last_tobacco_use_date: '2025-12-01' }, effective),
    false,
  );
});

test('a user without a last-use date is rated as a user', () => {
  assert.equal(ratedAsTobaccoUser({ uses_tobacco: true }, effective), true);
  assert.equal(ratedAsTobaccoUser({ uses_tobacco: true, last_tobacco_use_date: null }, effective, 0), true);
});

test("whole months since last use below the plan's look-back rate as a user", () => {
  const at = (date: string, lookback?: number) =>
    ratedAsTobaccoUser({ uses_tobacco: true, last_tobacco_use_date: date }, effective, lookback);
  assert.equal(at('2025-07-01'), false); // 6 whole months, federal 6-month look-back: tobacco-free
  assert.equal(at('2025-07-02'), true); // 5 whole months
  assert.equal(at('2025-07-01', 12), true);
  assert.equal(at('2025-12-31', 1), true); // 0 whole months
  assert.equal(at('2025-12-01', 1), false);
  assert.equal(at('2025-12-01', 0), false);
});

test('month ends: 31 January to 29 February is not yet a whole month', () => {
  const user = { uses_tobacco: true, last_tobacco_use_date: '2024-01-31' };
  assert.equal(ratedAsTobaccoUser(user, '2024-02-29', 1), true);
  assert.equal(ratedAsTobaccoUser(user, '2024-03-01', 1), false);
});
