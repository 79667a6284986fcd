import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { FIXTURE_PLAN_NAMES, fixturePlanIds, loadPricedMarket, postJson } from '../helpers/priced-market.js';
import { SANDBOX_KEY, assertPlanError, planApiSuite } from './plan-api.js';

// POST /households/eligibility/estimates, /slcsp, /lcsp, /lcbp and /ichra over HTTP against the fixture
// market of test/helpers/priced-market.ts (Hays County TX, rating area 3, plan year 2026). Each request
// starts from the CMS document's own example body for the endpoint (reference/marketplace-api/
// openapi.json, the endpoint descriptions): the same household, verbatim, with the place and year of our
// fixture market instead — the CMS examples name Randolph County NC, Fauquier County VA or Cook County IL
// and plan years 2019–2020, where we hold no plans.
//
// Figures by hand: rate = base × federal age factor (34 → 1.214); FPL % with the 2025 guidelines for plan
// year 2026 (15,650 for one, + 5,500 each); the 2026 applicable percentages (Rev. Proc. 2025-25) rounded to
// 0.01 %; Medicaid/CHIP with the 2026 guidelines (15,960, + 5,680) against Texas's limits (no adult
// expansion; children 6–18 138 %, CHIP 206 %, infants and pregnant women 203 %, parents 19 %).

const YEAR = 2026;
const ID = fixturePlanIds();
const PLACE = { countyfips: '48209', state: 'TX', zipcode: '78666' };
/** Not in issuer 99995's partial-county ZIPs. */
const OUTSIDE = { ...PLACE, zipcode: '78640' };
/** Travis County: rating area 3, no plan sold. */
const TRAVIS = { countyfips: '48453', state: 'TX', zipcode: '78701' };
const OKLAHOMA = { countyfips: '40109', state: 'OK', zipcode: '73102' };

/** The CMS example household (every household endpoint's): income 52,000, one woman born 1992-01-01. */
const CMS_HOUSEHOLD = {
  income: 52000,
  people: [{ dob: '1992-01-01', aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
};
/** The CMS example body of /households/eligibility/estimates, our place and year. */
const CMS_ESTIMATE_BODY = { household: CMS_HOUSEHOLD, market: 'Individual', place: PLACE, year: YEAR };

/**
 * The SLCSP of the example's woman (34 on 2026-01-01): silver EHB premiums at 34 are silverTobacco
 * 390 × 1.214 = 473.46, silverEhb 440 × 1.214 × 0.9 = 534.16 × 0.9 = 480.744 → 480.74, silverCsr 485.60,
 * silverNoCsr 522.02 → 480.74, in cents.
 */
const BENCHMARK_34 = 48074;

interface Estimate {
  aptc: number;
  csr: string;
  is_medicaid_chip: boolean;
  in_coverage_gap: boolean;
  hardship_exemption: boolean;
}

const NO_CSR = 'Exchange variant (no CSR)';

/** An estimate with no credit and no CSR. */
const none = (flags: Partial<Estimate> = {}): Estimate => ({
  aptc: 0,
  csr: NO_CSR,
  is_medicaid_chip: false,
  in_coverage_gap: false,
  hardship_exemption: false,
  ...flags,
});

/** The expected unrounded APTC in dollars: benchmark cents − income cents × p (thousandths of %) / 1,200,000. */
function unroundedAptc(benchmarkCents: number, income: number, thousandths: number): number {
  return (benchmarkCents - (income * 100 * thousandths) / 1_200_000) / 100;
}

/** A copy of `value` without `key`. */
function omit<T extends object, K extends keyof T>(value: T, key: K): Omit<T, K> {
  return Object.fromEntries(Object.entries(value).filter(([name]) => name !== key)) as Omit<T, K>;
}

function assertClose(actual: number, expected: number, label: string): void {
  assert.ok(Math.abs(actual - expected) < 1e-9, `${label}: ${actual} ≠ ${expected}`);
}

describe('household endpoints (fixture PUF market, Hays County TX, 2026)', () => {
  const api = planApiSuite([]);
  before(() => loadPricedMarket(api));

  const post = (path: string, body: unknown) => postJson(api.running.url, SANDBOX_KEY, path, body);

  async function ok<T>(path: string, body: unknown): Promise<T> {
    const response = await post(path, body);
    const text = await response.text();
    assert.equal(response.status, 200, `${path}: ${text}`);
    return JSON.parse(text) as T;
  }

  const estimates = async (household: unknown, place = PLACE) =>
    (
      await ok<{ estimates: Estimate[] }>('/households/eligibility/estimates', {
        ...CMS_ESTIMATE_BODY,
        household,
        place,
      })
    ).estimates;

  describe('POST /households/eligibility/estimates', () => {
    test('the CMS example: APTC = benchmark − expected contribution, no CSR above 250 %', async () => {
      const [estimate, ...rest] = (
        await ok<{ estimates: Estimate[] }>('/households/eligibility/estimates', CMS_ESTIMATE_BODY)
      ).estimates;
      assert.deepEqual(rest, []);
      // 52,000 / 15,650 = 332.27 % → 9.96 %; 52,000 × 9.96 % / 12 = 431.60. 480.74 − 431.60 = 49.14.
      assert.deepEqual(estimate, none({ aptc: 49.14 }));
    });

    test('the APTC is unrounded, as the CMS service gives it; CSR 87 % between 150 and 200 %', async () => {
      // 25,000 / 15,650 = 159.74 % → 4.19 + 2.41 × 9.74 / 50 = 4.6597 → 4.66 %; 25,000 × 4.66 % / 12 =
      // 97.08333…; 480.74 − 97.08333… = 383.65666…
      const [estimate] = await estimates({ ...CMS_HOUSEHOLD, income: 25000 });
      assertClose(estimate!.aptc, unroundedAptc(BENCHMARK_34, 25000, 4660), 'aptc');
      assert.notEqual(Math.round(estimate!.aptc * 100), estimate!.aptc * 100, 'not rounded to the cent');
      assert.deepEqual({ ...estimate, aptc: 0 }, none({ csr: '87% AV Level Silver Plan CSR' }));
    });

    test('CSR 94 % at 140 % FPL', async () => {
      // 21,910 / 15,650 = 140.00 % → 3.14 + 1.05 × 7 / 17 = 3.5724 → 3.57 %; 21,910 × 3.57 % / 12 = 65.18225.
      const [estimate] = await estimates({ ...CMS_HOUSEHOLD, income: 21910 });
      assertClose(estimate!.aptc, unroundedAptc(BENCHMARK_34, 21910, 3570), 'aptc');
      assertClose(estimate!.aptc, 415.55775, 'aptc by hand');
      assert.equal(estimate!.csr, '94% AV Level Silver Plan CSR');
    });

    test('a child under the CHIP limit: is_medicaid_chip, no credit; the parent alone is the benchmark', async () => {
      const [parent, child] = await estimates({
        income: 40000,
        people: [
          { age: 35, aptc_eligible: true, gender: 'Female', uses_tobacco: false },
          { age: 8, aptc_eligible: true, gender: 'Male', relationship: 'Child', uses_tobacco: false },
        ],
      });
      // Medicaid: 40,000 / 21,640 = 184.84 % > 138 (Medicaid 6–18) but ≤ 206 (CHIP).
      assert.deepEqual(child, none({ is_medicaid_chip: true }));
      // Credit: 40,000 / 21,150 = 189.13 % → 4.19 + 2.41 × 39.13 / 50 = 6.0758 → 6.08 %; the benchmark of
      // the parent alone: 440 × 1.222 × 0.9 = 537.68 × 0.9 = 483.91.
      assertClose(parent!.aptc, unroundedAptc(48391, 40000, 6080), 'parent aptc');
      assert.equal(parent!.csr, '87% AV Level Silver Plan CSR');
      assert.equal(parent!.is_medicaid_chip, false);
    });

    test('Medicaid by category: an infant, a pregnant woman (her unborn child counts), a low-income parent', async () => {
      const [, infant] = await estimates({
        income: 40000,
        people: [
          { age: 30, aptc_eligible: true, gender: 'Female', uses_tobacco: false },
          { age: 0, relationship: 'Child', aptc_eligible: true, gender: 'Female', uses_tobacco: false },
        ],
      });
      // 184.84 % ≤ 203 (infants).
      assert.deepEqual(infant, none({ is_medicaid_chip: true }));
      // Medicaid household of 2 (she and the child she expects): 40,000 / 21,640 = 184.84 % ≤ 203.
      const [pregnant] = await estimates({
        income: 40000,
        people: [{ age: 30, is_pregnant: true, gender: 'Female', aptc_eligible: true, uses_tobacco: false }],
      });
      assert.deepEqual(pregnant, none({ is_medicaid_chip: true }));
      // A parent at 3,000 / 21,640 = 13.86 % ≤ 19; the child of 5: ≤ 149.
      const family = await estimates({
        income: 3000,
        people: [
          { age: 30, is_parent: true, aptc_eligible: true, gender: 'Female', uses_tobacco: false },
          { age: 5, relationship: 'Child', aptc_eligible: true, gender: 'Female', uses_tobacco: false },
        ],
      });
      assert.deepEqual(family, [none({ is_medicaid_chip: true }), none({ is_medicaid_chip: true })]);
    });

    test('Texas did not expand Medicaid: an adult below 100 % FPL is in the coverage gap', async () => {
      // 10,000 / 15,650 = 63.90 %: no credit below 100 %, no Medicaid for a non-parent adult in Texas.
      const [estimate] = await estimates({ ...CMS_HOUSEHOLD, income: 10000 });
      assert.deepEqual(estimate, none({ in_coverage_gap: true, hardship_exemption: true }));
    });

    test('no credit above 400 % FPL in 2026, for aptc_eligible false, or with other coverage', async () => {
      // 70,000 / 15,650 = 447.28 %.
      assert.deepEqual(await estimates({ ...CMS_HOUSEHOLD, income: 70000 }), [none()]);
      const notEligible = {
        ...CMS_HOUSEHOLD,
        people: [{ ...CMS_HOUSEHOLD.people[0], aptc_eligible: false }],
      };
      assert.deepEqual(await estimates(notEligible), [none()]);
      // Two in the tax household, one with other MEC: 30,000 / 21,150 = 141.84 % → 3.69 %, 92.25 a
      // month; benchmark of the 40-year-old 440 × 1.278 × 0.9 = 506.09 → 413.84.
      const [uncovered, covered] = await estimates({
        income: 30000,
        people: [
          { age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false },
          {
            age: 38,
            has_mec: true,
            relationship: 'Spouse',
            aptc_eligible: true,
            gender: 'Female',
            uses_tobacco: false,
          },
        ],
      });
      assertClose(uncovered!.aptc, 413.84, 'aptc');
      assert.equal(uncovered!.csr, '94% AV Level Silver Plan CSR');
      assert.deepEqual(covered, none());
    });

    test('the year may come from the query string', async () => {
      const body = omit(CMS_ESTIMATE_BODY, 'year');
      const answer = await ok<{ estimates: Estimate[] }>(
        `/households/eligibility/estimates?year=${YEAR}`,
        body,
      );
      assert.equal(answer.estimates[0]!.aptc, 49.14);
    });

    test('no silver plan sold at the place → 1016', async () => {
      await assertPlanError(
        await post('/households/eligibility/estimates', { ...CMS_ESTIMATE_BODY, place: TRAVIS }),
        {
          code: '1016',
          status: '404',
          message: 'not enough plans to calculate SLCSP/LCBP',
          error: 'no silver plan with rates for the household in county 48453 (rating area 3) in 2026',
        },
      );
    });

    test('no Medicaid/CHIP limits for the state and year → 1015', async () => {
      await assertPlanError(
        await post('/households/eligibility/estimates', { ...CMS_ESTIMATE_BODY, place: OKLAHOMA }),
        {
          code: '1015',
          status: '404',
          message: 'missing medicaid eligibility data',
          error: 'missing eligibility for fiscal year: 2026, quarter: 1, state: OK (load the medicaid kind)',
        },
      );
    });

    test('no income (absent or -1), or nobody → 1003', async () => {
      const missingIncome = {
        code: '1003',
        status: '400',
        message: 'invalid eligibility estimates request',
        error: 'household.income: the yearly household income (0 or more) is required',
      };
      const withoutIncome = omit(CMS_HOUSEHOLD, 'income');
      const send = (household: unknown) =>
        post('/households/eligibility/estimates', { ...CMS_ESTIMATE_BODY, household });
      // Absent, the income (or the household) is a field left out (docs/decisions.md#household-required);
      // -1 is an income said to be unknown, which an estimate cannot do without.
      await assertPlanError(await send(withoutIncome), {
        ...missingIncome,
        error: 'household.income: is required',
      });
      await assertPlanError(await send({ ...CMS_HOUSEHOLD, income: -1 }), missingIncome);
      const noHousehold = await post('/households/eligibility/estimates', { place: PLACE, year: YEAR });
      const refused = (await noHousehold.json()) as Record<string, string>;
      assert.equal(noHousehold.status, 400);
      assert.equal(refused.code, '1003');
      assert.match(refused.error!, /^household: .* is required$/);
      await assertPlanError(await send({ income: 52000, people: [] }), {
        code: '1003',
        status: '400',
        message: 'invalid eligibility estimates request',
        error: 'household.people: at least one person is required',
      });
    });
  });

  interface LowestCost {
    id: string;
    name: string;
    premium: number;
    metal_level: string;
  }
  /** The CMS example body of /slcsp, /lcsp and /lcbp (identical), our place and year. */
  const lowest = (path: string, household: unknown = CMS_HOUSEHOLD, place = PLACE) =>
    ok<LowestCost>(path, { household, market: 'Individual', place, year: YEAR });
  const answer = (key: keyof typeof ID, premium: number, metal = 'Silver'): LowestCost => ({
    id: ID[key],
    name: FIXTURE_PLAN_NAMES[key],
    premium,
    metal_level: metal,
  });

  describe('POST /households/slcsp', () => {
    test('the CMS example: the second-lowest silver EHB premium', async () => {
      // EHB at 34: 473.46 (silverTobacco), 480.74 (silverEhb), 485.60, 522.02. By full premium the
      // second would be silverCsr 485.60: the EHB share of silverEhb (0.9) decides.
      assert.deepEqual(await lowest('/households/slcsp'), answer('silverEhb', 480.74));
    });

    test('tobacco is ignored (26 CFR 1.36B-3(f))', async () => {
      // At 21, ignoring tobacco: 390 (silverTobacco), 396 (440 × 0.9), 400, 430 → 396. Rating the user's
      // tobacco rate (487.50) would make silverCsr 400 the second.
      const smoker = {
        income: 52000,
        people: [{ age: 21, uses_tobacco: true, aptc_eligible: true, gender: 'Female' }],
      };
      assert.deepEqual(await lowest('/households/slcsp', smoker), answer('silverEhb', 396));
      assert.deepEqual(
        await lowest('/households/slcsp', {
          income: 52000,
          people: [{ age: 21, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
        }),
        answer('silverEhb', 396),
      );
    });

    test('a couple: the EHB share of the household premium', async () => {
      // silverEhb: (440 × 1.278 + 440 × 1.246) × 0.9 = (562.32 + 548.24) × 0.9 = 999.504 → 999.50;
      // silverTobacco 984.36 is the lowest, silverCsr 1,009.60 the third.
      const couple = {
        income: 52000,
        people: [
          { age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false },
          { age: 38, relationship: 'Spouse', aptc_eligible: true, gender: 'Female', uses_tobacco: false },
        ],
      };
      assert.deepEqual(await lowest('/households/slcsp', couple), answer('silverEhb', 999.5));
      // The same where issuer 99995 (no silver plan) is not sold.
      assert.deepEqual(await lowest('/households/slcsp', couple, OUTSIDE), answer('silverEhb', 999.5));
    });

    test('no silver plan at the place → 1016', async () => {
      await assertPlanError(
        await post('/households/slcsp', {
          household: CMS_HOUSEHOLD,
          market: 'Individual',
          place: TRAVIS,
          year: YEAR,
        }),
        {
          code: '1016',
          status: '404',
          message: 'not enough plans to calculate SLCSP/LCBP',
          error: 'no silver plan with rates for the household in county 48453 (rating area 3) in 2026',
        },
      );
    });
  });

  describe('POST /households/lcsp and /households/lcbp', () => {
    test('lcsp, the CMS example: the lowest silver full premium, tobacco rated', async () => {
      assert.deepEqual(await lowest('/households/lcsp'), answer('silverTobacco', 473.46));
      // A tobacco user pays silverTobacco 473.46 × 1.25 = 591.83: silverCsr 400 × 1.214 is lower.
      const smoker = { ...CMS_HOUSEHOLD, people: [{ ...CMS_HOUSEHOLD.people[0], uses_tobacco: true }] };
      assert.deepEqual(await lowest('/households/lcsp', smoker), answer('silverCsr', 485.6));
    });

    test('lcbp, the CMS example: the lowest bronze full premium at the place', async () => {
      // At 78666 issuer 99995's partial-county bronze: 280 × 1.214.
      assert.deepEqual(await lowest('/households/lcbp'), answer('partialBronze', 339.92, 'Bronze'));
      // At 78640 it is not sold: bronzeHsa 300 × 1.214 = 364.20, its full premium (EHB 0.95 would be 345.99).
      assert.deepEqual(
        await lowest('/households/lcbp', CMS_HOUSEHOLD, OUTSIDE),
        answer('bronzeHsa', 364.2, 'Bronze'),
      );
    });

    test('no plan of the metal → 1016', async () => {
      await assertPlanError(
        await post('/households/lcbp', {
          household: CMS_HOUSEHOLD,
          market: 'Individual',
          place: TRAVIS,
          year: YEAR,
        }),
        {
          code: '1016',
          status: '404',
          message: 'not enough plans to calculate SLCSP/LCBP',
          error: 'no bronze plan with rates for the household in county 48453 (rating area 3) in 2026',
        },
      );
    });
  });

  describe('POST /households/ichra', () => {
    const ichra = (hra: number, household: unknown = CMS_HOUSEHOLD) =>
      ok<{ affordable: boolean; premium: number }>('/households/ichra', {
        household,
        market: 'Individual',
        place: PLACE,
        hra,
        year: YEAR,
      });

    test('the CMS example (hra 500): affordable, with the self-only LCSP premium', async () => {
      assert.deepEqual(await ichra(500), { affordable: true, premium: 473.46 });
    });

    test('affordable iff LCSP − hra ≤ 9.96 % (2026) × income / 12, at the cent', async () => {
      // 52,000 × 9.96 % / 12 = 431.60; 473.46 − 41.86 = 431.60 (affordable), − 41.85 = 431.61 (not).
      assert.deepEqual(await ichra(41.86), { affordable: true, premium: 473.46 });
      assert.deepEqual(await ichra(41.85), { affordable: false, premium: 473.46 });
      assert.deepEqual(await ichra(0), { affordable: false, premium: 473.46 });
      // Self-only: a spouse changes nothing.
      const couple = {
        ...CMS_HOUSEHOLD,
        people: [
          ...CMS_HOUSEHOLD.people,
          { age: 60, relationship: 'Spouse', aptc_eligible: true, gender: 'Female', uses_tobacco: false },
        ],
      };
      assert.deepEqual(await ichra(41.86, couple), { affordable: true, premium: 473.46 });
    });

    test('an employee with other coverage (has_mec) → 1003, not a $0 premium', async () => {
      await assertPlanError(
        await post('/households/ichra', {
          household: {
            income: 50_000,
            people: [{ age: 30, has_mec: true, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
          },
          place: PLACE,
          hra: 100,
          year: YEAR,
        }),
        {
          code: '1003',
          status: '400',
          message: 'invalid ichra request',
          error: 'household.people[0]: the employee has other coverage (has_mec): no ICHRA premium to test',
        },
      );
    });

    test('no income → 1003; no silver plan → 1016', async () => {
      const unknownIncome = { ...CMS_HOUSEHOLD, income: -1 };
      await assertPlanError(
        await post('/households/ichra', { household: unknownIncome, place: PLACE, hra: 500, year: YEAR }),
        {
          code: '1003',
          status: '400',
          message: 'invalid ichra request',
          error: 'household.income: the yearly household income is required',
        },
      );
      await assertPlanError(
        await post('/households/ichra', { household: CMS_HOUSEHOLD, place: TRAVIS, hra: 500, year: YEAR }),
        {
          code: '1016',
          status: '404',
          message: 'not enough plans to calculate SLCSP/LCBP',
          error: 'no silver plan with rates for the household in county 48453 (rating area 3) in 2026',
        },
      );
    });
  });
});
