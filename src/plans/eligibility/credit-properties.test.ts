import assert from 'node:assert/strict';
import { test } from 'node:test';
import { APPLICABLE_PERCENTAGE } from '../tables/tax-credit.js';
import { applyCredit, monthlyAptc } from './aptc.js';
import { fplPercent } from './fpl.js';
import { creditFpl, type UnemploymentReceived } from './unemployment-2021.js';
import { Random } from '../../shared/random.js';

/** The project's seeded generator (shared/random.ts), so a failure names the random seed that reproduces it. */
function seeded(seed: number): (min: number, max: number) => number {
  const random = new Random(seed, 'property test');
  return (min, max) => random.int(min, max);
}

const YEARS = Object.keys(APPLICABLE_PERCENTAGE).map(Number);
const STATES = ['TX', 'AK', 'HI', 'ID'];
const UNEMPLOYMENT: UnemploymentReceived[] = ['None', 'Adult', 'Dependent'];

interface Household {
  year: number;
  state: string;
  people: object[];
  benchmark: number;
  unemployment: UnemploymentReceived;
}

function randomHousehold(int: (min: number, max: number) => number): Household {
  return {
    year: YEARS[int(0, YEARS.length - 1)]!,
    state: STATES[int(0, STATES.length - 1)]!,
    people: Array.from({ length: int(1, 7) }, () => ({})),
    benchmark: int(5_000, 400_000),
    unemployment: UNEMPLOYMENT[int(0, 2)]!,
  };
}

/** The whole chain a request runs for the credit: FPL %, the 2021 rule, the APTC. */
function credit(household: Household, income: number) {
  const fpl = fplPercent(income, household.people, household.state, household.year, 'aptc');
  assert.ok(fpl);
  const adjusted = creditFpl(household.year, fpl.percent, household.unemployment, 'aptc');
  return monthlyAptc({
    year: household.year,
    income,
    fplPercent: adjusted.fplPercent,
    benchmark: household.benchmark,
    belowPovertyEligible: adjusted.treatedAsApplicable,
  });
}

/** An income at or above 100 % FPL (below it there is no credit by statute, so more income can raise it). */
function incomeFrom(
  int: (min: number, max: number) => number,
  household: Household,
  minPercent: number,
): number {
  const fpl = fplPercent(100, household.people, household.state, household.year, 'aptc')!;
  const guidelineCents = fpl.guideline * 100;
  return Math.ceil((guidelineCents * minPercent) / 100) + int(0, guidelineCents * 5);
}

test('property: the credit is never negative and never exceeds the benchmark; premium_w_credit ≥ 0', () => {
  for (let seed = 1; seed <= 2000; seed++) {
    const int = seeded(seed);
    const household = randomHousehold(int);
    const income = int(0, 1) ? incomeFrom(int, household, 100) : int(-100_000, 30_000_000);
    const aptc = credit(household, income);
    assert.ok(aptc.aptc >= 0 && aptc.aptc <= household.benchmark, `seed ${seed}: ${aptc.aptc}`);
    assert.ok(aptc.aptcExact >= 0 && aptc.aptcExact <= household.benchmark, `seed ${seed}`);
    const premium = int(0, 600_000);
    const plan = { premium, aptcEligiblePremium: int(0, premium), catastrophic: int(0, 9) === 0 };
    const applied = applyCredit(aptc.aptc, plan);
    assert.ok(applied.credit >= 0 && applied.credit <= household.benchmark, `seed ${seed}`);
    assert.ok(applied.credit <= plan.aptcEligiblePremium, `seed ${seed}`);
    assert.ok(applied.premiumWithCredit >= 0, `seed ${seed}`);
  }
});

test('property: from 100 % FPL up, more income never raises the credit (same household, same year)', () => {
  for (let seed = 1; seed <= 2000; seed++) {
    const int = seeded(seed);
    const household = randomHousehold(int);
    const lower = incomeFrom(int, household, 100);
    const higher = lower + int(1, int(0, 1) ? 100 : 5_000_000);
    const [a, b] = [credit(household, lower), credit(household, higher)];
    assert.ok(b.aptc <= a.aptc, `seed ${seed}: ${lower} → ${a.aptc}, ${higher} → ${b.aptc}`);
    assert.ok(b.aptcExact <= a.aptcExact, `seed ${seed}`);
    const plan = { premium: 300_000, aptcEligiblePremium: int(0, 300_000), catastrophic: false };
    assert.ok(applyCredit(b.aptc, plan).credit <= applyCredit(a.aptc, plan).credit, `seed ${seed}`);
  }
});
