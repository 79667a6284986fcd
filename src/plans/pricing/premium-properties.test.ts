import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rateAgeKey } from './age.js';
import { householdPremium, type PlanRating, type PricedMember, type RateRow } from './premium.js';
import { Random } from '../../shared/random.js';

/** The project's seeded generator (shared/random.ts), so a failure names the random seed that reproduces it. */
function seeded(seed: number): (min: number, max: number) => number {
  const random = new Random(seed, 'property test');
  return (min, max) => random.int(min, max);
}

function randomPlan(int: (min: number, max: number) => number): PlanRating {
  const planYear = int(2014, 2026);
  const rows = new Map<string, RateRow>();
  for (let age = 0; age <= 64; age++) {
    const key = rateAgeKey(age, planYear);
    if (!rows.has(key)) {
      const rate = int(10_000, 150_000);
      rows.set(key, { individualRate: rate, tobaccoRate: int(0, 1) ? null : rate + int(0, rate / 2) });
    }
  }
  return {
    planYear,
    rates: (ageKey) => rows.get(ageKey),
    ehbShare: int(900, 1000) / 1000,
    catastrophic: int(0, 9) === 0,
    pediatricDentalShare: int(0, 1) ? int(400, 1000) / 1000 : null,
  };
}

const member = (
  int: (min: number, max: number) => number,
  age: number,
  relationship?: string,
): PricedMember => ({
  age,
  tobacco: age >= 15 && int(0, 3) === 0,
  aptcEligible: int(0, 4) > 0,
  hasMec: false,
  relationship: relationship ?? null,
});

test('property: a fourth child under 21, younger than the three others, never changes the premium', () => {
  for (let seed = 1; seed <= 500; seed++) {
    const int = seeded(seed);
    const plan = randomPlan(int);
    const adults = [member(int, int(21, 70))];
    if (int(0, 1)) adults.push(member(int, int(21, 70), 'Spouse'));
    const children = [1, 2, 3].map(() => member(int, int(1, 20), 'Child'));
    const youngest = Math.min(...children.map((c) => c.age));
    const fourth = member(int, int(0, youngest - 1), 'Child');
    const before = householdPremium([...adults, ...children], plan);
    const after = householdPremium([...adults, ...children, fourth], plan);
    assert.ok(before.available && after.available, `seed ${seed}`);
    assert.deepEqual(
      [after.premium, after.ehbPremium, after.aptcEligiblePremium, after.pediatricEhbPremium],
      [before.premium, before.ehbPremium, before.aptcEligiblePremium, before.pediatricEhbPremium],
      `seed ${seed}`,
    );
    assert.equal(after.members.at(-1)!.status, 'child-beyond-three', `seed ${seed}`);
  }
});
