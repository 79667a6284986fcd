import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HouseholdEligibility } from '../household/household-eligibility.js';
import { settleHousehold } from '../household/household.js';
import type { MarketPlan } from '../market/county-market.js';
import { rateAgeKey } from '../pricing/age.js';
import { householdPremium, type RateLookup, type RateRow } from '../pricing/premium.js';
import type { PlanDetails } from '../store/plan-details.js';
import { benchmarkPlan } from './benchmark-plan.js';
import { priceAll } from './credit-pricer.js';
import { HouseholdPricer } from './household-pricer.js';
import { termsOfAll } from './rate-matrix.js';
import { Random } from '../../shared/random.js';

/** The project's seeded generator (shared/random.ts), so a failure names the random seed that reproduces it. */
function seeded(seed: number): (min: number, max: number) => number {
  const random = new Random(seed, 'property test');
  return (min, max) => random.int(min, max);
}

/** A market plan over a rate table (cents by Rate PUF age key); the details are not read by pricing. */
function marketPlan(id: string, rows: Map<string, RateRow>, more: Partial<MarketPlan> = {}): MarketPlan {
  const rates: RateLookup = (ageKey) => rows.get(ageKey);
  return {
    id,
    zips: null,
    issuerId: id.slice(0, 5),
    issuerName: 'Test issuer (test fixture)',
    name: id,
    metalLevel: 'Silver',
    type: 'HMO',
    designType: 'NOT_APPLICABLE',
    hsaEligible: false,
    catastrophic: false,
    dental: false,
    market: 'Individual',
    ehbShare: 0.95,
    qualityRating: 0,
    tobaccoLookback: null,
    ageRule: 'effective-date',
    rateSource: 'rate-puf',
    ratesOn: () => rates,
    details: {} as PlanDetails,
    ...more,
  };
}

/** Rates on the 2018+ bands: `base` × a rising factor, a tobacco rate on some rows, a hole on request. */
function table(base: number, options: { tobacco?: boolean; missing?: string } = {}): Map<string, RateRow> {
  const rows = new Map<string, RateRow>();
  for (let age = 0; age <= 64; age++) {
    const key = rateAgeKey(age, 2026);
    if (key === options.missing || rows.has(key)) continue;
    const rate = base + age * 1_000;
    rows.set(key, { individualRate: rate, tobaccoRate: options.tobacco ? rate + 5_000 : null });
  }
  return rows;
}

const ELIGIBLE_ALL = (aptc: number, people: number): HouseholdEligibility => ({
  people: Array.from({ length: people }, () => ({
    isMedicaidChip: false,
    inCoverageGap: false,
    aptcEligible: true,
  })),
  fpl: undefined,
  aptc: { eligible: true, aptc, aptcExact: aptc, applicable: null, contribution: null },
  benchmark: undefined,
  csr: null,
});

test('the rate matrix gives exactly what householdPremium gives, over random households and plans', () => {
  const int = seeded(20261123);
  for (let round = 0; round < 100; round++) {
    // A market of random plans: rates with and without tobacco rows, holes, EHB shares, catastrophic.
    const plans = Array.from({ length: int(1, 8) }, (_, p) => {
      const rows = table(int(10_000, 80_000), { tobacco: int(0, 1) === 1 });
      if (int(0, 4) === 0) rows.delete(rateAgeKey(int(0, 64), 2026));
      return marketPlan(`1234${p}TX0010001`, rows, {
        ehbShare: int(0, 5) === 0 ? null : int(900, 1000) / 1000,
        catastrophic: int(0, 9) === 0,
        tobaccoLookback: int(0, 2) === 0 ? int(0, 12) : null,
      });
    });
    const terms = termsOfAll(plans, '2026-01-01', 2026);
    for (let trial = 0; trial < 4; trial++) {
      const people = Array.from({ length: int(1, 7) }, (_, i) => ({
        age: int(0, 80),
        uses_tobacco: int(0, 3) === 0,
        last_tobacco_use_date: int(0, 1) === 0 ? `2025-${String(int(1, 12)).padStart(2, '0')}-01` : undefined,
        has_mec: int(0, 6) === 0,
        relationship: i === 0 ? ('Self' as const) : int(0, 1) ? ('Child' as const) : undefined,
      }));
      const household = settleHousehold({ income: 50_000, people }, 2026);
      const eligible = (m: { index: number }) => m.index % 2 === 0;
      const pricer = new HouseholdPricer(2026, household, household.members, eligible);
      plans.forEach((plan, i) => {
        const reference = householdPremium(pricer.membersFor(plan), {
          planYear: 2026,
          rates: plan.ratesOn('2026-01-01')!,
          ehbShare: plan.ehbShare ?? 1,
          catastrophic: plan.catastrophic,
        });
        const sums = { premium: 0, ehbPremium: 0, aptcEligiblePremium: 0 };
        const quick = pricer.quick(terms, i, sums);
        const where = `round ${round}, trial ${trial}, plan ${i}`;
        assert.equal(quick, reference.available, where);
        if (!reference.available) return;
        assert.deepEqual(
          sums,
          {
            premium: reference.premium,
            ehbPremium: reference.ehbPremium,
            aptcEligiblePremium: reference.aptcEligiblePremium,
          },
          where,
        );
      });
    }
  }
});

test('the three-child rule does not depend on the order of people or on who has other coverage', () => {
  const rows = table(30_000);
  const plan = marketPlan('12345TX0010001', rows);
  const price = (people: { age: number; has_mec?: boolean; relationship?: 'Self' | 'Child' }[]) => {
    const household = settleHousehold({ income: 50_000, people }, 2026);
    const priced = new HouseholdPricer(2026, household, household.members, () => true).price(plan);
    assert.ok(priced.available);
    return priced.premium;
  };
  // Ages 16, 12, 10 are the three oldest children: 3, 8 are not rated, wherever they stand.
  const rated = price([{ age: 40 }, { age: 16 }, { age: 12 }, { age: 10 }]);
  assert.equal(price([{ age: 40 }, { age: 3 }, { age: 16 }, { age: 8 }, { age: 12 }, { age: 10 }]), rated);
  assert.equal(price([{ age: 3 }, { age: 16 }, { age: 8 }, { age: 12 }, { age: 10 }, { age: 40 }]), rated);
  // A parent with other coverage: the four children alone are rated as three.
  assert.equal(
    price([
      { age: 40, has_mec: true, relationship: 'Self' },
      { age: 11 },
      { age: 9 },
      { age: 7 },
      { age: 5 },
    ]),
    price([{ age: 11 }, { age: 9 }, { age: 7 }]),
  );
});

test('the benchmark of a family whose parent has other coverage is that of its three oldest children', () => {
  const plans = [30_000, 32_000, 35_000].map((base, i) => marketPlan(`1234${i}TX0010001`, table(base)));
  const family = settleHousehold(
    { people: [{ age: 40, has_mec: true }, { age: 5 }, { age: 7 }, { age: 9 }, { age: 11 }] },
    2026,
  );
  const children = family.members.slice(1);
  const three = settleHousehold({ people: [{ age: 11 }, { age: 9 }, { age: 7 }] }, 2026);
  assert.deepEqual(
    benchmarkPlan(plans, 2026, family, children)?.amount,
    benchmarkPlan(plans, 2026, three, three.members)?.amount,
  );
});

test('no credit on SHOP, stand-alone dental or catastrophic plans: the premium is paid in full', () => {
  const household = settleHousehold({ income: 40_000, people: [{ age: 40 }] }, 2026);
  const plans = [
    marketPlan('11111TX0010001', table(40_000)),
    marketPlan('11111TX0010002', table(40_000), { market: 'SHOP' }),
    marketPlan('11111TX0010003', table(4_000), { dental: true, metalLevel: 'High', ehbShare: null }),
    marketPlan('11111TX0010004', table(25_000), { catastrophic: true, metalLevel: 'Catastrophic' }),
  ];
  const priced = priceAll(plans, 2026, household, ELIGIBLE_ALL(30_000, 1), undefined);
  assert.equal(priced[0]!.credit, 30_000);
  for (const plan of priced.slice(1)) {
    assert.equal(plan.credit, 0, plan.plan.id);
    assert.ok(plan.premium.available);
    assert.equal(plan.premiumWithCredit, plan.premium.premium, plan.plan.id);
    assert.equal(plan.premium.aptcEligiblePremium, 0, plan.plan.id);
  }
});

test('a missing rate row leaves the plan unpriced, naming the member and band', () => {
  const household = settleHousehold({ people: [{ age: 40 }, { age: 45 }] }, 2026);
  const plan = marketPlan('11111TX0010001', table(40_000, { missing: '45' }));
  const priced = new HouseholdPricer(2026, household, household.members, () => true).price(plan);
  assert.equal(priced.available, false);
  assert.ok(!priced.available);
  assert.deepEqual(priced.missing, [{ index: 1, ageKey: '45', tobacco: false, reason: 'no-rate-row' }]);
});
