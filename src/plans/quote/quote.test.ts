import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { HouseholdEligibility } from '../household/household-eligibility.js';
import { settleHousehold } from '../household/household.js';
import type { MarketPlan } from '../market/county-market.js';
import { rateAgeKey } from '../pricing/age.js';
import { householdPremium, type RateLookup, type RateRow } from '../pricing/premium.js';
import type { PlanDetails } from '../store/plan-details.js';
import { benchmarkPlan } from './benchmark-plan.js';
import { priceAll } from './credit-pricer.js';
import { HouseholdPricer } from './household-pricer.js';
import { creditBenchmark } from './pediatric-dental.js';
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
    enrollment: null,
    ratedChildren: null,
    pediatricDentalShare: null,
    dentalCoverage: { child: null, adult: null },
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

describe('pediatric dental in the credit’s benchmark (26 CFR 1.36B-3(f)(6))', () => {
  // Every figure in cents a month. `table(base)` rates a band at base + 1,000 × its first age (so 0-14 is
  // base, 16 is base + 16,000); EHB share 1, so the EHB premium is the premium. The household: an adult of
  // 40 and a child of 16, both in the credit.
  //   silver A (no pediatric dental) 30,000: 70,000 + 46,000 = 116,000
  //   silver B (covers it)           31,000: 71,000 + 47,000 = 118,000
  //   silver C (no pediatric dental) 32,000: 72,000 + 48,000 = 120,000
  // Stand-alone dental plans, pediatric portion = share × the child's premium:
  //   D1 table(2,000), share 1.0: 18,000;  D2 table(1,000), share 0.5: 8,500;  D3 table(3,000), share 1.0: 19,000
  // Lowest portion 8,500 (D2), second lowest 18,000 (D1).
  const silver = (id: string, base: number, child: boolean | null) =>
    marketPlan(id, table(base), { ehbShare: 1, dentalCoverage: { child, adult: null } });
  const dental = (id: string, base: number, share: number) =>
    marketPlan(id, table(base), {
      dental: true,
      metalLevel: 'Low',
      ehbShare: null,
      pediatricDentalShare: share,
    });
  const D = [
    dental('22222TX0010001', 2_000, 1),
    dental('22222TX0010002', 1_000, 0.5),
    dental('22222TX0010003', 3_000, 1),
  ];
  const A = silver('11111TX0010001', 30_000, false);
  const B = silver('11111TX0010002', 31_000, true);
  const C = silver('11111TX0010003', 32_000, false);
  const family = (year: number) =>
    settleHousehold({ people: [{ age: 40 }, { age: 16, relationship: 'Child' }] }, year);

  test('from 2019: the lowest dental portion is added to each silver plan without it, then ranked', () => {
    // A + 8,500 = 124,500; B = 118,000; C + 8,500 = 128,500: second lowest 124,500, plan A with D2.
    const household = family(2026);
    const benchmark = creditBenchmark([A, B, C, ...D], 2026, household, household.members)!;
    assert.equal(benchmark.amount, 124_500);
    assert.equal(benchmark.silver.plan.id, A.id);
    assert.equal(benchmark.dental?.plan.id, D[1]!.id);
    assert.equal(benchmark.note, undefined);
    // Without the dental plans the ranking is of silver premiums alone (118,000, plan B), with a note.
    const alone = creditBenchmark([A, B, C], 2026, household, household.members)!;
    assert.equal(alone.amount, 118_000);
    assert.match(alone.note!, /2 silver plan\(s\) at the place do not cover pediatric dental/);
  });

  test('before 2019: the second-lowest dental portion is added to a benchmark plan without it', () => {
    // Silver premiums 116,000 (A), 120,000 (C), 126,000 (B', which covers it): benchmark C, which does not
    // cover pediatric dental: 120,000 + D1's 18,000 = 138,000.
    const household = family(2018);
    const richer = silver('11111TX0010004', 35_000, true);
    const benchmark = creditBenchmark([A, C, richer, ...D], 2018, household, household.members)!;
    assert.equal(benchmark.silver.plan.id, C.id);
    assert.equal(benchmark.dental?.plan.id, D[0]!.id);
    assert.equal(benchmark.amount, 138_000);
  });

  test('no child, or a silver plan whose coverage is unknown: no portion, and a note when it may be owed', () => {
    const adults = settleHousehold({ people: [{ age: 40 }, { age: 38, relationship: 'Spouse' }] }, 2026);
    const benchmark = creditBenchmark([A, B, C, ...D], 2026, adults, adults.members)!;
    // 2 × 30,000 + 78,000 = 138,000 (A); 140,000 (B); 142,000 (C): second lowest 140,000, no note.
    assert.deepEqual([benchmark.amount, benchmark.note], [140_000, undefined]);
    const household = family(2026);
    const unknown = silver('11111TX0010005', 29_000, null);
    const noted = creditBenchmark([unknown, B, ...D], 2026, household, household.members)!;
    assert.match(
      noted.note!,
      /Whether silver plan\(s\) 11111TX0010005 cover pediatric dental care is unknown/,
    );
  });
});
