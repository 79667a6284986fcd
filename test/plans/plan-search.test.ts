import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { fixturePlanIds, loadPricedMarket, postJson, type FixturePlanKey } from '../helpers/priced-market.js';
import { SANDBOX_KEY, assertPlanError, planApiSuite } from './plan-api.js';

// The priced plan endpoints over HTTP against the fixture market of test/helpers/priced-market.ts (two
// fictional issuers in Hays County, TX, rating area 3, plan year 2026), loaded through the real ingest
// formats. Every expected figure is worked out by hand in the comments from the fixture's rates:
// rate = base × federal age factor (21 1.000, 40 1.278, 64+ 3.000 …). The credit: FPL % with the 2025
// guidelines (15,650 + 5,500 per extra person) for plan year 2026, the 2026 applicable percentages
// (Rev. Proc. 2025-25: 2.10 below 133 %, 3.14–4.19, 4.19–6.60, …, 9.96 to 400 %), rounded to 0.01 %.

const YEAR = 2026;
const ID = fixturePlanIds();
const KEY_OF = new Map(Object.entries(ID).map(([key, id]) => [id, key as FixturePlanKey]));
/** Hays County, ZIP 78666 (San Marcos): in issuer 99995's partial-county ZIP list. */
const PLACE = { countyfips: '48209', state: 'TX', zipcode: '78666' };
/** Hays County, ZIP 78640 (Kyle): not in that list, so only issuer 99994's plans are sold. */
const OUTSIDE = { ...PLACE, zipcode: '78640' };
/**
 * One 40-year-old, $30,000: 30,000 / 15,650 = 191.69 % FPL → 4.19 + 2.41 × 41.69 / 50 = 6.1996 → 6.20 %;
 * contribution 30,000 × 6.20 % / 12 = 155.00 a month. Benchmark (second-lowest silver EHB premium at
 * 40): silverTobacco 390 × 1.278 = 498.42, silverEhb 440 × 1.278 × 0.9 = 562.32 × 0.9 = 506.09,
 * silverCsr 511.20, silverNoCsr 549.54 → 506.09. APTC 506.09 − 155.00 = 351.09; CSR 87 % (150–200 %).
 */
const HOUSEHOLD_A = {
  income: 30000,
  people: [{ age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
};

interface CostLimit {
  type: string;
  amount: number | null;
  csr: string;
  network_tier: string;
  family_cost: string;
}

interface Plan {
  id: string;
  name: string;
  metal_level: string;
  premium: number | null;
  premium_w_credit: number | null;
  ehb_premium: number | null;
  aptc_eligible_premium: number | null;
  premium_unavailable?: string;
  rate_source: string;
  deductibles: CostLimit[];
  moops: CostLimit[];
  [field: string]: unknown;
}

interface Facets {
  name: string;
  facets: { value: string; count: number }[];
}

interface SearchAnswer {
  plans: Plan[];
  total: number;
  facet_groups: Facets[];
  ranges: {
    premiums: { min: number | null; max: number | null };
    deductibles: { min: number | null; max: number | null };
  };
  rate_area: { state: string; area: number };
}

/** `[key, premium, premium_w_credit]` of each plan of an answer, in order. */
function premiums(plans: Plan[]): [string, number | null, number | null][] {
  return plans.map((p) => [KEY_OF.get(p.id) ?? p.id, p.premium, p.premium_w_credit]);
}

const keys = (plans: Plan[]) => plans.map((p) => KEY_OF.get(p.id) ?? p.id);

/** The in-network individual deductible rows of a plan: `csr: amount`. */
function inNetworkDeductibles(plan: Plan): string[] {
  return plan.deductibles
    .filter((d) => d.network_tier === 'In-Network' && d.family_cost === 'Individual')
    .map((d) => `${d.csr}: ${d.amount}`);
}

describe('priced plan endpoints (fixture PUF market, Hays County TX, 2026)', () => {
  const api = planApiSuite([]);
  before(() => loadPricedMarket(api));

  const post = (path: string, body: unknown, contentType?: string) =>
    postJson(api.running.url, SANDBOX_KEY, path, body, contentType);

  async function ok<T>(path: string, body: unknown): Promise<T> {
    const response = await post(path, body);
    const text = await response.text();
    assert.equal(response.status, 200, `${path}: ${text}`);
    return JSON.parse(text) as T;
  }

  const search = (body: Record<string, unknown>) =>
    ok<SearchAnswer>('/plans/search', { place: PLACE, market: 'Individual', year: YEAR, ...body });
  const onePlan = async (key: FixturePlanKey, body: Record<string, unknown>) =>
    (
      await ok<{ plan: Plan; rate_area: unknown }>(`/plans/${ID[key]}`, {
        place: PLACE,
        market: 'Individual',
        year: YEAR,
        ...body,
      })
    ).plan;

  // The CMS document's own example bodies (reference/marketplace-api/openapi.json, the endpoint
  // descriptions), verbatim but for the place and year: the examples name Cook County IL, Fauquier County
  // VA and Randolph County NC in 2019–2020, where we hold no plans.
  describe('the CMS example bodies, in the fixture market', () => {
    test('POST /plans/search: one man born 1992-01-01, $42,000', async () => {
      const answer = await ok<SearchAnswer>('/plans/search', {
        household: {
          income: 42000,
          people: [
            {
              aptc_eligible: true,
              dob: '1992-01-01',
              has_mec: false,
              is_pregnant: false,
              is_parent: false,
              uses_tobacco: false,
              gender: 'Male',
              utilization_level: 'Low',
            },
          ],
          has_married_couple: false,
        },
        market: 'Individual',
        place: PLACE,
        limit: 10,
        offset: 0,
        order: 'asc',
        year: YEAR,
      });
      // 34 on 2026-01-01 (factor 1.214). 42,000 / 15,650 = 268.37 % → 8.44 + 1.52 × 18.37 / 50 = 8.9985 →
      // 9.00 %; 315.00 a month. Benchmark at 34: silverEhb 440 × 1.214 × 0.9 = 480.74 → APTC 165.74.
      assert.equal(answer.total, 11);
      assert.deepEqual(premiums(answer.plans), [
        ['partialBronze', 339.92, 174.18],
        ['bronzeHsa', 364.2, 198.46], // EHB 345.99 ≥ 165.74
        ['bronzeExpanded', 388.48, 222.74],
        ['silverTobacco', 473.46, 307.72],
        ['silverCsr', 485.6, 319.86],
        ['silverNoCsr', 522.02, 356.28],
        ['silverEhb', 534.16, 368.42],
        ['partialGold', 582.72, 416.98],
        ['goldNoAge64', 607, 441.26],
        ['goldTobacco', 631.28, 465.54],
      ]);
      // 268 % FPL: no CSR.
      assert.deepEqual(inNetworkDeductibles(answer.plans[4]!), ['Exchange variant (no CSR): 5000']);
    });

    test('POST /plans/{plan_id}: a woman of 27, $52,000 — the contribution exceeds the benchmark', async () => {
      const answer = await ok<{ plan: Plan; rate_area: unknown }>(`/plans/${ID.silverCsr}`, {
        household: {
          income: 52000,
          people: [{ age: 27, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
        },
        market: 'Individual',
        place: PLACE,
        year: YEAR,
      });
      // 332.27 % → 9.96 %, 431.60 a month; benchmark at 27: 440 × 1.048 × 0.9 = 415.01 → no credit.
      assert.deepEqual([answer.plan.premium, answer.plan.premium_w_credit], [419.2, 419.2]);
      assert.deepEqual(answer.rate_area, { state: 'TX', area: 3 });
    });

    test('POST /plans: $20,000, a man of 34, aptc_override 100, CSR73, catastrophic_override', async () => {
      // This example alone leaves out `aptc_eligible`, which a person must state
      // (docs/decisions.md#household-required): as printed it is refused, naming the field.
      const man = { age: 34, is_pregnant: false, is_parent: false, uses_tobacco: false, gender: 'Male' };
      const example = {
        household: { income: 20000, people: [man], has_married_couple: false },
        place: PLACE,
        market: 'Individual',
        plan_ids: [ID.silverCsr, ID.catastrophic],
        year: YEAR,
        aptc_override: 100,
        csr_override: 'CSR73',
        catastrophic_override: true,
      };
      await assertPlanError(await post('/plans', example), {
        code: '1003',
        status: '400',
        message: 'invalid plans request',
        error: 'household.people[0].aptc_eligible: is required',
      });
      const answer = await ok<{ plans: Plan[] }>('/plans', {
        ...example,
        household: { ...example.household, people: [{ ...man, aptc_eligible: true }] },
      });
      // 400 × 1.214 − 100; the catastrophic plan gets no credit: 250 × 1.214.
      assert.deepEqual(premiums(answer.plans), [
        ['silverCsr', 485.6, 385.6],
        ['catastrophic', 303.5, 303.5],
      ]);
    });
  });

  describe('POST /plans/search: premiums by hand', () => {
    test('age bands 0-14, 15 … 63, 64 and over (silverCsr, base 400.00)', async () => {
      const cases: [number, number][] = [
        [0, 306], // 0-14: 400 × 0.765
        [14, 306],
        [15, 333.2], // 400 × 0.833
        [20, 388], // 400 × 0.970
        [21, 400],
        [40, 511.2], // 400 × 1.278
        [63, 1180.8], // 400 × 2.952
        [64, 1200], // 64 and over: 400 × 3.000
        [70, 1200], // past 64 the 64 rate applies
      ];
      for (const [age, premium] of cases) {
        const plan = await onePlan('silverCsr', {
          household: {
            income: -1,
            people: [{ age, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
          },
        });
        assert.equal(plan.premium, premium, `age ${age}`);
        assert.equal(plan.premium_w_credit, premium, `age ${age}: no income, no credit`);
      }
    });

    test('age from dob on the effective date; age wins over dob', async () => {
      const price = async (household: Record<string, unknown>) =>
        (await onePlan('silverCsr', { household })).premium;
      // Born 1992-03-15: 33 on 2026-01-01 (400 × 1.198), 34 on 2026-06-01 (400 × 1.214).
      assert.equal(
        await price({
          income: -1,
          people: [{ dob: '1992-03-15', aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
        }),
        479.2,
      );
      assert.equal(
        await price({
          income: -1,
          effective_date: '2026-06-01',
          people: [{ dob: '1992-03-15', aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
        }),
        485.6,
      );
      assert.equal(
        await price({
          income: -1,
          people: [
            { age: 21, dob: '1992-03-15', aptc_eligible: true, gender: 'Female', uses_tobacco: false },
          ],
        }),
        400,
      );
    });

    test('tobacco: the tobacco rate where the Rate PUF has one, within the 6-month look-back', async () => {
      const at = async (person: Record<string, unknown>) => {
        const answer = await search({
          household: {
            income: -1,
            people: [{ age: 21, aptc_eligible: true, gender: 'Female', uses_tobacco: false, ...person }],
          },
          limit: 100,
        });
        const price = new Map(answer.plans.map((p) => [KEY_OF.get(p.id), p.premium]));
        return [price.get('silverTobacco'), price.get('goldTobacco'), price.get('silverCsr')];
      };
      // silverTobacco 390 × 1.25 = 487.50; goldTobacco 520 × 1.2 = 624.00; silverCsr has "No Preference".
      assert.deepEqual(await at({ uses_tobacco: false }), [390, 520, 400]);
      assert.deepEqual(await at({ uses_tobacco: true }), [487.5, 624, 400]);
      // 2025-07-02 → 2026-01-01: 5 whole months < 6, still a user; 2025-07-01: 6 months, no longer.
      assert.deepEqual(
        await at({ uses_tobacco: true, last_tobacco_use_date: '2025-07-02' }),
        [487.5, 624, 400],
      );
      assert.deepEqual(
        await at({ uses_tobacco: true, last_tobacco_use_date: '2025-07-01' }),
        [390, 520, 400],
      );
    });

    test('only the three oldest children under 21 are rated (45 CFR 147.102(c)(1))', async () => {
      const child = (age: number) => ({
        age,
        relationship: 'Child',
        aptc_eligible: true,
        gender: 'Female',
        uses_tobacco: false,
      });
      const parent = {
        age: 40,
        relationship: 'Self',
        aptc_eligible: true,
        gender: 'Female',
        uses_tobacco: false,
      };
      const five = await onePlan('silverCsr', {
        household: { income: -1, people: [parent, child(3), child(16), child(8), child(12), child(10)] },
      });
      const three = await onePlan('silverCsr', {
        household: { income: -1, people: [parent, child(16), child(12), child(10)] },
      });
      // 511.20 + 16: 400 × 0.859 = 343.60 + 12 and 10: 306.00 each = 1,466.80.
      assert.equal(five.premium, 1466.8);
      assert.equal(three.premium, 1466.8);
      // A dependant of 21 is no child under 21: rated at the adult rate.
      const adultChild = await onePlan('silverCsr', {
        household: { income: -1, people: [parent, child(16), child(12), child(10), child(21)] },
      });
      assert.equal(adultChild.premium, 1866.8);
    });

    test('a member with other minimum essential coverage is not priced, but counts in the tax household', async () => {
      const plan = await onePlan('silverCsr', {
        household: {
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
        },
      });
      // Premium: the 40-year-old only. FPL for 2: 30,000 / 21,150 = 141.84 % → 3.14 + 1.05 × 8.84 / 17 =
      // 3.6862 → 3.69 %; 30,000 × 3.69 % / 12 = 92.25. Benchmark of the 40-year-old 506.09 → APTC 413.84.
      assert.equal(plan.premium, 511.2);
      assert.equal(plan.premium_w_credit, 97.36);
    });
  });

  describe('POST /plans/search: the credit by hand', () => {
    test('APTC 351.09 applied to every plan as min(APTC, aptc_eligible_premium)', async () => {
      const answer = await search({ household: HOUSEHOLD_A });
      assert.equal(answer.total, 11);
      const all = await search({ household: HOUSEHOLD_A, limit: 100 });
      assert.deepEqual(premiums(all.plans), [
        ['partialBronze', 357.84, 6.75], // 280 × 1.278 − 351.09
        ['bronzeHsa', 383.4, 32.31], // EHB 383.40 × 0.95 = 364.23 ≥ 351.09
        ['bronzeExpanded', 408.96, 57.87],
        ['silverTobacco', 498.42, 147.33],
        ['silverCsr', 511.2, 160.11],
        ['silverNoCsr', 549.54, 198.45],
        ['silverEhb', 562.32, 211.23],
        ['partialGold', 613.44, 262.35],
        ['goldNoAge64', 639, 287.91], // 500 × 1.278; EHB 639 × 0.98 = 626.22
        ['goldTobacco', 664.56, 313.47],
        ['platinum', 766.8, 415.71],
      ]);
      const plan = new Map(all.plans.map((p) => [KEY_OF.get(p.id), p]));
      assert.equal(plan.get('silverEhb')!.ehb_premium, 506.09);
      assert.equal(plan.get('silverEhb')!.aptc_eligible_premium, 506.09);
      assert.equal(plan.get('bronzeHsa')!.ehb_premium, 364.23);
      assert.equal(plan.get('goldNoAge64')!.aptc_eligible_premium, 626.22);
    });

    test('premium_w_credit is never negative; a plan without a rate says so (premium null)', async () => {
      // 64, $20,000: 127.80 % FPL → 2.10 %, 35.00 a month. Benchmark at 64: silverTobacco 1,170.00,
      // silverEhb 1,320 × 0.9 = 1,188.00, silverCsr 1,200.00 → 1,188.00. APTC 1,153.00.
      const answer = await search({
        household: {
          income: 20000,
          people: [{ age: 64, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
        },
        limit: 100,
      });
      assert.deepEqual(premiums(answer.plans), [
        ['bronzeExpanded', 960, 0], // equal premiums after credit: by plan id
        ['partialBronze', 840, 0],
        ['silverTobacco', 1170, 17],
        ['bronzeHsa', 900, 45], // the credit stops at the EHB portion, 855.00
        ['silverCsr', 1200, 47],
        ['silverNoCsr', 1290, 137],
        ['silverEhb', 1320, 167], // credit 1,153 ≤ EHB 1,188
        ['partialGold', 1440, 287],
        ['goldTobacco', 1560, 407],
        ['platinum', 1800, 647],
        ['goldNoAge64', null, null], // no "64 and over" row: last in either order
      ]);
      const missing = answer.plans.at(-1)!;
      assert.equal(
        missing.premium_unavailable,
        'no rate for age band "64 and over" in the rating area (household.people[0])',
      );
      assert.equal(missing.rate_source, 'rate-puf');
      assert.equal(missing.ehb_premium, null);
      assert.equal(missing.aptc_eligible_premium, null);
      assert.equal(answer.plans[0]!.premium_unavailable, undefined);
      const desc = await search({
        household: {
          income: 20000,
          people: [{ age: 64, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
        },
        order: 'desc',
        limit: 100,
      });
      assert.equal(KEY_OF.get(desc.plans[0]!.id), 'platinum');
      assert.equal(KEY_OF.get(desc.plans.at(-1)!.id), 'goldNoAge64');
    });

    test("aptc_override without an income: the override is the credit, up to each plan's EHB premium", async () => {
      const answer = await search({
        household: {
          income: -1,
          people: [{ age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
        },
        aptc_override: 600,
        limit: 100,
      });
      const plan = new Map(answer.plans.map((p) => [KEY_OF.get(p.id), p]));
      assert.equal(plan.get('silverCsr')!.premium_w_credit, 0); // 511.20 − min(600, 511.20)
      assert.equal(plan.get('platinum')!.premium_w_credit, 166.8); // 766.80 − 600
      assert.equal(plan.get('bronzeHsa')!.premium_w_credit, 19.17); // 383.40 − EHB 364.23
    });

    test('aptc_override with an income replaces the computed credit', async () => {
      const answer = await search({ household: HOUSEHOLD_A, aptc_override: 100, limit: 100 });
      const plan = new Map(answer.plans.map((p) => [KEY_OF.get(p.id), p]));
      assert.equal(plan.get('silverCsr')!.premium_w_credit, 411.2); // 511.20 − 100
      assert.equal(plan.get('partialBronze')!.premium_w_credit, 257.84); // 357.84 − 100
    });

    test('the CSR variant of silver plans: 94 % at 140 % FPL, the standard one elsewhere', async () => {
      // 21,910 / 15,650 = 140.00 % FPL → 94 % AV silver variant (45 CFR 155.305(g)(2)(i)).
      const answer = await search({
        household: {
          income: 21910,
          people: [{ age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
        },
        limit: 100,
      });
      const plan = new Map(answer.plans.map((p) => [KEY_OF.get(p.id), p]));
      assert.deepEqual(inNetworkDeductibles(plan.get('silverCsr')!), ['94% AV Level Silver Plan CSR: 300']);
      assert.deepEqual(inNetworkDeductibles(plan.get('silverEhb')!), ['94% AV Level Silver Plan CSR: 0']);
      for (const row of plan.get('silverCsr')!.moops) assert.equal(row.csr, '94% AV Level Silver Plan CSR');
      // A silver plan without that variant, and other metals, show the standard variant.
      assert.deepEqual(inNetworkDeductibles(plan.get('silverNoCsr')!), ['Exchange variant (no CSR): 4500']);
      assert.deepEqual(inNetworkDeductibles(plan.get('goldTobacco')!), ['Exchange variant (no CSR): 1000']);
      // Household A (191.69 %): 87 %.
      const a = await search({ household: HOUSEHOLD_A, filter: { metal_levels: ['Silver'] } });
      assert.deepEqual(inNetworkDeductibles(a.plans.find((p) => p.id === ID.silverCsr)!), [
        '87% AV Level Silver Plan CSR: 1500',
      ]);
      // Above 250 % FPL: none.
      const high = await search({
        household: {
          income: 60000,
          people: [{ age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
        },
        limit: 100,
      });
      assert.deepEqual(inNetworkDeductibles(high.plans.find((p) => p.id === ID.silverCsr)!), [
        'Exchange variant (no CSR): 5000',
      ]);
    });

    test('no credit and no CSR for income -1 (unknown) or for a person not aptc_eligible', async () => {
      const silver = { metal_levels: ['Silver'] };
      const unknown = await search({
        household: {
          income: -1,
          people: [{ age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
        },
        filter: silver,
      });
      assert.deepEqual(premiums(unknown.plans), [
        ['silverTobacco', 498.42, 498.42],
        ['silverCsr', 511.2, 511.2],
        ['silverNoCsr', 549.54, 549.54],
        ['silverEhb', 562.32, 562.32],
      ]);
      // 140 % FPL, but the person may not have the credit, so no CSR either (45 CFR 155.305(g)(1)(i)).
      const barred = await search({
        household: {
          income: 21910,
          people: [{ age: 40, aptc_eligible: false, gender: 'Female', uses_tobacco: false }],
        },
        filter: silver,
      });
      assert.deepEqual(
        premiums(barred.plans).map(([, premium, withCredit]) => premium === withCredit),
        [true, true, true, true],
      );
      assert.deepEqual(inNetworkDeductibles(barred.plans[1]!), ['Exchange variant (no CSR): 5000']);
    });

    test('csr_override shows that variant without an income', async () => {
      const answer = await search({
        household: {
          income: -1,
          people: [{ age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
        },
        csr_override: 'CSR73',
        limit: 100,
      });
      const plan = new Map(answer.plans.map((p) => [KEY_OF.get(p.id), p]));
      assert.deepEqual(inNetworkDeductibles(plan.get('silverCsr')!), ['73% AV Level Silver Plan CSR: 3500']);
      assert.deepEqual(inNetworkDeductibles(plan.get('bronzeHsa')!), ['Exchange variant (no CSR): 7500']);
      // With an income it replaces the household's own 87 %; a variant the plan lacks shows the standard one.
      const a = await search({
        household: HOUSEHOLD_A,
        csr_override: 'CSR73',
        filter: { metal_levels: ['Silver'] },
      });
      assert.deepEqual(inNetworkDeductibles(a.plans[1]!), ['73% AV Level Silver Plan CSR: 3500']);
      const zero = await search({
        household: HOUSEHOLD_A,
        csr_override: 'ZeroCSR',
        filter: { metal_levels: ['Silver'] },
      });
      assert.deepEqual(inNetworkDeductibles(zero.plans[1]!), ['Exchange variant (no CSR): 5000']);
    });
  });

  describe('POST /plans/search: catastrophic plans', () => {
    test('hidden for a 40-year-old, shown when every member is under 30, and by catastrophic_override', async () => {
      const forty = await search({ household: HOUSEHOLD_A, limit: 100 });
      assert.ok(!keys(forty.plans).includes('catastrophic'));
      const young = await search({
        household: {
          income: -1,
          people: [
            { age: 25, aptc_eligible: true, gender: 'Female', uses_tobacco: false },
            { age: 28, aptc_eligible: true, gender: 'Female', uses_tobacco: false },
          ],
        },
        limit: 100,
      });
      assert.equal(young.total, 12);
      const catastrophic = young.plans.find((p) => p.id === ID.catastrophic)!;
      // 250 × 1.004 + 250 × 1.087 = 251.00 + 271.75.
      assert.equal(catastrophic.premium, 522.75);
      const suppressed = await search({
        household: {
          income: -1,
          people: [
            { age: 25, aptc_eligible: true, gender: 'Female', uses_tobacco: false },
            { age: 28, aptc_eligible: true, gender: 'Female', uses_tobacco: false },
          ],
        },
        catastrophic_override: false,
        limit: 100,
      });
      assert.equal(suppressed.total, 11);
      assert.ok(!keys(suppressed.plans).includes('catastrophic'));
      const forced = await search({ household: HOUSEHOLD_A, catastrophic_override: true, limit: 100 });
      assert.equal(forced.total, 12);
      const plan = forced.plans.find((p) => p.id === ID.catastrophic)!;
      // No credit for a catastrophic plan (26 U.S.C. 36B(c)(3)(A)): 250 × 1.278 in full.
      assert.deepEqual([plan.premium, plan.premium_w_credit, plan.aptc_eligible_premium], [319.5, 319.5, 0]);
    });

    test('shown to an adult in the coverage gap (hardship exemption)', async () => {
      const answer = await search({
        household: {
          income: 10000,
          people: [{ age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
        },
        limit: 100,
      });
      assert.ok(keys(answer.plans).includes('catastrophic'));
    });
  });

  describe('POST /plans/search: filters, sorting and paging', () => {
    const filtered = async (filter: Record<string, unknown>) =>
      keys((await search({ household: HOUSEHOLD_A, filter, limit: 100 })).plans);

    test('metal levels (Expanded Bronze is Bronze), types, design types, HSA', async () => {
      assert.deepEqual(await filtered({ metal_levels: ['Silver'] }), [
        'silverTobacco',
        'silverCsr',
        'silverNoCsr',
        'silverEhb',
      ]);
      assert.deepEqual(await filtered({ metal_levels: ['Bronze'] }), [
        'partialBronze',
        'bronzeHsa',
        'bronzeExpanded',
      ]);
      assert.deepEqual(await filtered({ metal_levels: ['Gold', 'Platinum'] }), [
        'partialGold',
        'goldNoAge64',
        'goldTobacco',
        'platinum',
      ]);
      assert.deepEqual(await filtered({ types: ['PPO'] }), ['silverNoCsr', 'goldTobacco']);
      assert.deepEqual(await filtered({ types: ['EPO', 'PPO'] }), [
        'silverTobacco',
        'silverNoCsr',
        'goldTobacco',
      ]);
      assert.deepEqual(await filtered({ design_types: ['DESIGN1', 'DESIGN2'] }), [
        'bronzeExpanded',
        'silverCsr',
      ]);
      assert.deepEqual(await filtered({ hsa: true }), ['bronzeHsa']);
      assert.equal((await filtered({ hsa: false })).length, 10);
    });

    test('issuers by name (any case) or id', async () => {
      assert.deepEqual(await filtered({ issuers: ['LONE STAR FIXTURE CARE (test fixture)'] }), [
        'partialBronze',
        'partialGold',
      ]);
      assert.deepEqual(await filtered({ issuers: ['99995'] }), ['partialBronze', 'partialGold']);
      assert.equal((await filtered({ issuer: 'Fixture Health of Texas (test fixture)' })).length, 9);
      assert.deepEqual(await filtered({ issuers: ['No Such Issuer'] }), []);
    });

    test('premium_range (after credit) and deductible_range (of the variant shown)', async () => {
      assert.deepEqual(await filtered({ premium_range: { min: 100, max: 200 } }), [
        'silverTobacco',
        'silverCsr',
        'silverNoCsr',
      ]);
      assert.deepEqual(await filtered({ premium: 50 }), ['partialBronze', 'bronzeHsa']);
      // silverCsr's standard deductible is 5,000, but at 87 % CSR it is 1,500.
      assert.deepEqual(await filtered({ deductible_range: { max: 1500 } }), [
        'silverCsr',
        'silverEhb',
        'goldNoAge64',
        'goldTobacco',
        'platinum',
      ]);
      assert.deepEqual(await filtered({ deductible_range: { min: 7000, max: 7500 } }), [
        'bronzeHsa',
        'bronzeExpanded',
      ]);
    });

    test('division Dental: no dental plan is loaded, so none', async () => {
      const answer = await search({ household: HOUSEHOLD_A, filter: { division: 'Dental' } });
      assert.deepEqual(answer.plans, []);
      assert.equal(answer.total, 0);
      assert.deepEqual(answer.ranges, {
        premiums: { min: null, max: null },
        deductibles: { min: null, max: null },
      });
    });

    test('suppressed_plan_ids, and the market', async () => {
      const suppressed = await search({
        household: HOUSEHOLD_A,
        suppressed_plan_ids: [ID.silverCsr, ID.platinum],
        limit: 100,
      });
      assert.equal(suppressed.total, 9);
      assert.ok(!keys(suppressed.plans).includes('silverCsr'));
      assert.equal((await search({ household: HOUSEHOLD_A, market: 'Any' })).total, 11);
      // Every fixture plan is an individual-market plan.
      assert.equal((await search({ household: HOUSEHOLD_A, market: 'SHOP' })).total, 0);
    });

    test('sort total_costs without estimates (no Benefits PUF, no levels): all unknown, so by premium', async () => {
      // total_costs = 12 × premium after credit + oopc (test/plans/oopc-api.test.ts sorts by it with
      // estimates); here no plan has an estimate, every key is unknown and ties go by premium, then id.
      const byTotal = await search({ household: HOUSEHOLD_A, sort: 'total_costs', limit: 100 });
      const byPremium = await search({ household: HOUSEHOLD_A, sort: 'premium', limit: 100 });
      assert.ok(byTotal.plans.every((p) => p.oopc === -1));
      assert.deepEqual(keys(byTotal.plans), keys(byPremium.plans));
      assert.deepEqual(keys(byTotal.plans).slice(0, 3), ['partialBronze', 'bronzeHsa', 'bronzeExpanded']);
    });

    test('sort by premium, deductible and quality rating, ascending or descending', async () => {
      const sorted = async (sort: string, order?: string) =>
        keys((await search({ household: HOUSEHOLD_A, sort, limit: 100, ...(order ? { order } : {}) })).plans);
      const byPremium = [
        'partialBronze',
        'bronzeHsa',
        'bronzeExpanded',
        'silverTobacco',
        'silverCsr',
        'silverNoCsr',
        'silverEhb',
        'partialGold',
        'goldNoAge64',
        'goldTobacco',
        'platinum',
      ];
      assert.deepEqual(await sorted('premium'), byPremium);
      assert.deepEqual(await sorted('premium', 'desc'), [...byPremium].reverse());
      // Deductibles of the variant shown (87 % CSR for silver); equal ones by premium.
      assert.deepEqual(await sorted('deductible'), [
        'platinum', // 0
        'silverEhb', // 1,000
        'goldTobacco', // 1,000
        'silverCsr', // 1,500
        'goldNoAge64', // 1,500
        'silverTobacco', // 2,000
        'partialGold', // 2,000
        'silverNoCsr', // 4,500
        'bronzeExpanded', // 7,000
        'bronzeHsa', // 7,500
        'partialBronze', // 8,000
      ]);
      assert.deepEqual((await sorted('deductible', 'desc')).slice(0, 4), [
        'partialBronze',
        'bronzeHsa',
        'bronzeExpanded',
        'silverNoCsr',
      ]);
      // QRS fixture: silverEhb 5, silverCsr 4, bronzeHsa 3, the others not rated (0).
      assert.deepEqual((await sorted('quality_rating', 'desc')).slice(0, 5), [
        'silverEhb',
        'silverCsr',
        'bronzeHsa',
        'partialBronze',
        'bronzeExpanded',
      ]);
      assert.deepEqual((await sorted('quality_rating')).slice(-3), ['bronzeHsa', 'silverCsr', 'silverEhb']);
    });

    test('pages: 10 by default, offset and limit (at most 100); total before paging', async () => {
      const first = await search({ household: HOUSEHOLD_A });
      assert.equal(first.plans.length, 10);
      assert.equal(first.total, 11);
      const second = await search({ household: HOUSEHOLD_A, offset: 10 });
      assert.deepEqual(keys(second.plans), ['platinum']);
      assert.equal(second.total, 11);
      const middle = await search({ household: HOUSEHOLD_A, offset: 2, limit: 3 });
      assert.deepEqual(keys(middle.plans), ['bronzeExpanded', 'silverTobacco', 'silverCsr']);
      assert.equal((await search({ household: HOUSEHOLD_A, limit: 100 })).plans.length, 11);
      assert.deepEqual((await search({ household: HOUSEHOLD_A, offset: 50 })).plans, []);
      await assertPlanError(
        await post('/plans/search', {
          place: PLACE,
          market: 'Individual',
          year: YEAR,
          household: HOUSEHOLD_A,
          limit: 101,
        }),
        {
          code: '1003',
          status: '400',
          message: 'invalid plan search request',
          error: 'limit: an integer from 1 to 100',
        },
      );
    });

    test('facet_groups and ranges are over the whole result, not the page', async () => {
      const page = await search({ household: HOUSEHOLD_A, limit: 2 });
      assert.equal(page.plans.length, 2);
      assert.deepEqual(page.facet_groups, [
        {
          name: 'metal_level',
          facets: [
            { value: 'Silver', count: 4 },
            { value: 'Bronze', count: 3 },
            { value: 'Gold', count: 3 },
            { value: 'Platinum', count: 1 },
          ],
        },
        {
          name: 'type',
          facets: [
            { value: 'HMO', count: 8 },
            { value: 'PPO', count: 2 },
            { value: 'EPO', count: 1 },
          ],
        },
        {
          name: 'issuer',
          facets: [
            { value: 'Fixture Health of Texas (test fixture)', count: 9 },
            { value: 'Lone Star Fixture Care (test fixture)', count: 2 },
          ],
        },
        {
          name: 'design_type',
          facets: [
            { value: 'NOT_APPLICABLE', count: 9 },
            { value: 'DESIGN1', count: 1 },
            { value: 'DESIGN2', count: 1 },
          ],
        },
      ]);
      // Premiums after credit: 6.75 (partialBronze) … 415.71 (platinum, on page 2 of the default paging);
      // individual deductibles of the variants shown: 0 (platinum) … 8,000 (partialBronze).
      assert.deepEqual(page.ranges, {
        premiums: { min: 6.75, max: 415.71 },
        deductibles: { min: 0, max: 8000 },
      });
      assert.deepEqual((await search({ household: HOUSEHOLD_A })).ranges, page.ranges);
      // A filter narrows them.
      const silver = await search({ household: HOUSEHOLD_A, filter: { metal_levels: ['Silver'] }, limit: 1 });
      assert.equal(silver.total, 4);
      assert.deepEqual(silver.facet_groups[0], {
        name: 'metal_level',
        facets: [{ value: 'Silver', count: 4 }],
      });
      assert.deepEqual(silver.ranges, {
        premiums: { min: 147.33, max: 211.23 },
        deductibles: { min: 1000, max: 4500 },
      });
    });
  });

  describe('POST /plans/search: the place and the request', () => {
    test('rate_area, and a partial-county service area sells only in its ZIPs', async () => {
      const inside = await search({ household: HOUSEHOLD_A, limit: 100 });
      assert.deepEqual(inside.rate_area, { state: 'TX', area: 3 });
      const outside = await search({ place: OUTSIDE, household: HOUSEHOLD_A, limit: 100 });
      assert.deepEqual(outside.rate_area, { state: 'TX', area: 3 });
      assert.equal(outside.total, 9);
      assert.ok(!keys(outside.plans).some((k) => k.startsWith('partial')));
    });

    test('nobody in the household: every plan listed, unpriced', async () => {
      const answer = await search({ household: { income: -1, people: [] }, limit: 100 });
      // No people: nobody is over 30, so catastrophic plans are listed too.
      assert.equal(answer.total, 12);
      for (const plan of answer.plans) {
        assert.equal(plan.premium, null, plan.id);
        assert.equal(plan.premium_w_credit, null, plan.id);
        assert.equal(
          plan.premium_unavailable,
          'no household: give household.people (an age or dob each) to price the plan',
        );
      }
      assert.deepEqual(answer.rate_area, { state: 'TX', area: 3 });
      // Issue 17 point 2: no premium known → null, not 0 (which reads as free plans).
      assert.deepEqual(answer.ranges.premiums, { min: null, max: null });
    });

    test('an effective date outside the market year → 1003', async () => {
      const response = await post(
        '/plans/search',
        JSON.stringify({
          place: PLACE,
          market: 'Individual',
          year: YEAR,
          household: {
            income: -1,
            effective_date: '2027-02-01',
            people: [{ age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
          },
        }),
      );
      const body = (await response.json()) as Record<string, string>;
      assert.equal(response.status, 400);
      assert.equal(body.code, '1003');
      assert.equal(body.error, `household.effective_date: 2027-02-01 is not in market year ${YEAR}`);
    });

    test('a text/plain body (the HealthCare.gov front end) and the year as a query parameter', async () => {
      const body = JSON.stringify({ place: PLACE, market: 'Individual', household: HOUSEHOLD_A });
      const response = await post(`/plans/search?year=${YEAR}`, body, 'text/plain;charset=UTF-8');
      const text = await response.text();
      assert.equal(response.status, 200, text);
      const answer = JSON.parse(text) as SearchAnswer;
      assert.equal(answer.total, 11);
      assert.equal(answer.plans[0]!.premium_w_credit, 6.75);
    });

    test('malformed JSON → 1003', async () => {
      for (const contentType of ['application/json', 'text/plain;charset=UTF-8']) {
        const response = await post('/plans/search', '{"place":', contentType);
        const body = (await response.json()) as Record<string, string>;
        assert.equal(response.status, 400, contentType);
        assert.deepEqual(
          [body.code, body.status, body.message],
          ['1003', '400', 'invalid input'],
          contentType,
        );
        assert.match(body.error!, /not valid JSON/, contentType);
      }
    });

    const PLACE_FIX = 'place: countyfips (5 digits), state (2 letters) and zipcode (5 digits) are required';
    const invalid: [string, Record<string, unknown>, string, string][] = [
      [
        'no place',
        { market: 'Individual', year: YEAR, household: HOUSEHOLD_A },
        'invalid plan search request',
        PLACE_FIX,
      ],
      [
        'a 4-digit countyfips',
        { place: { ...PLACE, countyfips: '4820' }, market: 'Individual', year: YEAR, household: HOUSEHOLD_A },
        'invalid plan search request',
        'place.countyfips: must match pattern "^[0-9]{5}$"',
      ],
      [
        'no market',
        { place: PLACE, year: YEAR, household: HOUSEHOLD_A },
        'invalid plan search request',
        'market: Individual, SHOP or Any is required',
      ],
      [
        'a county of another state',
        { place: { ...PLACE, state: 'OK' }, market: 'Individual', year: YEAR, household: HOUSEHOLD_A },
        'invalid place',
        'place.countyfips: 48209 is not a county of OK',
      ],
      [
        'a relationship valid only up to 2020',
        {
          place: PLACE,
          market: 'Individual',
          year: YEAR,
          household: {
            income: -1,
            people: [
              { age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false },
              {
                age: 70,
                relationship: 'Stepparent',
                aptc_eligible: true,
                gender: 'Female',
                uses_tobacco: false,
              },
            ],
          },
        },
        'invalid household request',
        'household.people[1].relationship: "Stepparent" is not valid for market year 2026',
      ],
      [
        'an effective date that is no calendar date',
        {
          place: PLACE,
          market: 'Individual',
          year: YEAR,
          household: {
            income: -1,
            effective_date: '2026-02-30',
            people: [{ age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
          },
        },
        'invalid household request',
        'household.effective_date: 2026-02-30 is not a calendar date',
      ],
      [
        'a dob after the effective date',
        {
          place: PLACE,
          market: 'Individual',
          year: YEAR,
          household: {
            income: -1,
            people: [{ dob: '2026-05-01', aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
          },
        },
        'invalid household request',
        'household.people[0].dob: 2026-05-01 is after the effective date 2026-01-01',
      ],
      [
        'a person without age or dob',
        {
          place: PLACE,
          market: 'Individual',
          year: YEAR,
          household: { income: -1, people: [{ gender: 'Male', aptc_eligible: true, uses_tobacco: false }] },
        },
        'invalid household request',
        'household.people[0]: age or dob is required',
      ],
      [
        'an age that is no number',
        {
          place: PLACE,
          market: 'Individual',
          year: YEAR,
          household: {
            income: -1,
            people: [{ age: 'forty', aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
          },
        },
        'invalid plan search request',
        'household.people[0].age: must be integer',
      ],
      [
        'a state that runs its own exchange (CA, 2026)',
        {
          place: { countyfips: '06037', state: 'CA', zipcode: '90001' },
          market: 'Individual',
          year: YEAR,
          household: HOUSEHOLD_A,
        },
        'state is not a valid marketplace state',
        'CA does not use HealthCare.gov in 2026: it runs its own exchange',
      ],
    ];
    for (const [label, body, message, error] of invalid) {
      test(`${label} → 1003`, async () => {
        await assertPlanError(await post('/plans/search', body), {
          code: '1003',
          status: '400',
          message,
          error,
        });
      });
    }

    test('no rating area for the county → 1017', async () => {
      await assertPlanError(
        await post('/plans/search', {
          place: { countyfips: '48091', state: 'TX', zipcode: '78130' },
          market: 'Individual',
          year: YEAR,
          household: HOUSEHOLD_A,
        }),
        {
          code: '1017',
          status: '404',
          message: 'rate area not found',
          error: 'No rate area could be determined for county 48091, ZIP 78130 in 2026',
        },
      );
    });

    const oklahoma = { countyfips: '40109', state: 'OK', zipcode: '73102' };
    const inOklahoma = { place: oklahoma, market: 'Individual', year: YEAR, household: HOUSEHOLD_A };

    test('no Medicaid/CHIP limits for the state and year, with an income → 1015', async () => {
      await assertPlanError(await post('/plans/search', inOklahoma), {
        code: '1015',
        status: '404',
        message: 'missing medicaid eligibility data',
        error: 'missing eligibility for fiscal year: 2026, quarter: 1, state: OK (load the medicaid kind)',
      });
      // Without an income nothing is screened: no 1015.
      const noIncome = await ok<SearchAnswer>('/plans/search', {
        ...inOklahoma,
        household: {
          income: -1,
          people: [{ age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
        },
      });
      assert.equal(noIncome.total, 0);
      assert.deepEqual(noIncome.rate_area, { state: 'OK', area: 3 });
    });

    test('aptc_override bypasses the Medicaid/CHIP limits (no 1015)', async () => {
      const overridden = await ok<SearchAnswer>('/plans/search', { ...inOklahoma, aptc_override: 50 });
      assert.equal(overridden.total, 0);
      assert.deepEqual(overridden.rate_area, { state: 'OK', area: 3 });
    });
  });

  describe('POST /plans/search/stats', () => {
    interface Stat {
      metal_level: string;
      total: number;
      simple_choice: number;
      premiums: { min: number; max: number; mean: number };
      oopc: { min: number; max: number; mean: number };
      quality_ratings: Record<string, number>;
    }
    const stats = async (body: Record<string, unknown>) =>
      new Map(
        (
          await ok<Stat[]>('/plans/search/stats', { place: PLACE, market: 'Individual', year: YEAR, ...body })
        ).map((s) => [s.metal_level, s]),
      );
    const stars = (five: number, four: number, three: number) => ({
      five_star_rating: five,
      four_star_rating: four,
      three_star_rating: three,
      two_star_rating: 0,
      one_star_rating: 0,
    });

    test('per metal level: totals, premiums after credit (min, max, mean), quality ratings', async () => {
      const byMetal = await stats({ household: HOUSEHOLD_A });
      assert.deepEqual([...byMetal.keys()].sort(), ['Bronze', 'Gold', 'Platinum', 'Silver']);
      const none = { min: -1, max: -1, mean: -1 };
      assert.deepEqual(byMetal.get('Silver'), {
        metal_level: 'Silver',
        total: 4,
        simple_choice: 0,
        // (147.33 + 160.11 + 198.45 + 211.23) / 4 = 179.28
        premiums: { min: 147.33, max: 211.23, mean: 179.28 },
        oopc: none,
        quality_ratings: stars(1, 1, 0),
      });
      assert.deepEqual(byMetal.get('Bronze')!.premiums, { min: 6.75, max: 57.87, mean: 32.31 });
      assert.deepEqual(byMetal.get('Bronze')!.quality_ratings, stars(0, 0, 1));
      assert.deepEqual(byMetal.get('Gold')!.premiums, { min: 262.35, max: 313.47, mean: 287.91 });
      assert.deepEqual(byMetal.get('Platinum')!.premiums, { min: 415.71, max: 415.71, mean: 415.71 });
    });

    test('the same filters; a plan without a premium counts in total but not in the premiums', async () => {
      const silver = await stats({ household: HOUSEHOLD_A, filter: { metal_levels: ['Silver'] } });
      assert.deepEqual([...silver.keys()], ['Silver']);
      // 64, $20,000 (see above): partialGold 287.00, goldTobacco 407.00, goldNoAge64 no rate.
      const gold = (
        await stats({
          household: {
            income: 20000,
            people: [{ age: 64, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
          },
        })
      ).get('Gold')!;
      assert.equal(gold.total, 3);
      assert.deepEqual(gold.premiums, { min: 287, max: 407, mean: 347 });
    });
  });

  describe('POST /plans', () => {
    test('the plans asked for, in that order, each in full and priced; ids not sold there left out', async () => {
      const body = {
        place: PLACE,
        market: 'Individual',
        year: YEAR,
        household: HOUSEHOLD_A,
        plan_ids: [ID.platinum, ID.silverCsr, '99994TX0019999', ID.partialBronze, ID.platinum],
      };
      const answer = await ok<{ plans: Plan[] }>('/plans', body);
      assert.deepEqual(premiums(answer.plans), [
        ['platinum', 766.8, 415.71],
        ['silverCsr', 511.2, 160.11],
        ['partialBronze', 357.84, 6.75],
      ]);
      // In full: every CSR variant's deductibles, not only the household's.
      const csrs = new Set(answer.plans[1]!.deductibles.map((d) => d.csr));
      assert.deepEqual([...csrs].sort(), [
        '73% AV Level Silver Plan CSR',
        '87% AV Level Silver Plan CSR',
        '94% AV Level Silver Plan CSR',
        'Exchange variant (no CSR)',
      ]);
      const outside = await ok<{ plans: Plan[] }>('/plans', { ...body, place: OUTSIDE });
      assert.deepEqual(keys(outside.plans), ['platinum', 'silverCsr']);
    });

    test('none of them sold at the place → 1006; bad ids → 1003', async () => {
      await assertPlanError(
        await post('/plans', {
          place: OUTSIDE,
          market: 'Individual',
          year: YEAR,
          household: HOUSEHOLD_A,
          plan_ids: [ID.partialBronze, '99994TX0019999'],
        }),
        {
          code: '1006',
          status: '404',
          message: 'Plan not found',
          error: 'none of the plans is sold in county 48209 (ZIP 78640) in 2026',
        },
      );
      await assertPlanError(
        await post('/plans', { place: PLACE, year: YEAR, household: HOUSEHOLD_A, plan_ids: ['nope'] }),
        {
          code: '1003',
          status: '400',
          message: 'invalid plans request',
          error: 'plan_ids[0]: must match pattern "^[0-9]{5}[A-Z]{2}[0-9]{7}$"',
        },
      );
    });
  });

  describe('POST /plans/{plan_id}', () => {
    test('{plan, rate_area}, priced for the household', async () => {
      const answer = await ok<{ plan: Plan; rate_area: unknown }>(`/plans/${ID.silverEhb}`, {
        place: PLACE,
        market: 'Individual',
        year: YEAR,
        household: HOUSEHOLD_A,
      });
      // `data_notes`: the fixture loads no Benefits PUF (issue 17 point 7).
      assert.deepEqual(Object.keys(answer).sort(), ['data_notes', 'plan', 'rate_area']);
      assert.deepEqual(answer.rate_area, { state: 'TX', area: 3 });
      const { plan } = answer;
      assert.equal(plan.id, ID.silverEhb);
      assert.equal(plan.name, 'Fixture Silver Plus HMO');
      assert.deepEqual(
        [plan.premium, plan.ehb_premium, plan.aptc_eligible_premium, plan.premium_w_credit],
        [562.32, 506.09, 506.09, 211.23],
      );
    });

    test('current_enrollment: that plan is rated with the tobacco status enrolled with, others are not', async () => {
      const person = (uses: boolean, enrolledAs: boolean) => ({
        household: {
          income: -1,
          people: [
            {
              age: 21,
              uses_tobacco: uses,
              current_enrollment: { plan_id: ID.silverTobacco, uses_tobacco: enrolledAs },
              aptc_eligible: true,
              gender: 'Female',
            },
          ],
        },
      });
      assert.equal((await onePlan('silverTobacco', person(false, true))).premium, 487.5);
      assert.equal((await onePlan('goldTobacco', person(false, true))).premium, 520);
      assert.equal((await onePlan('silverTobacco', person(true, false))).premium, 390);
      assert.equal((await onePlan('goldTobacco', person(true, false))).premium, 624);
      // The same in a search.
      const answer = await search({ ...person(true, false), limit: 100 });
      const price = new Map(answer.plans.map((p) => [KEY_OF.get(p.id), p.premium]));
      assert.deepEqual([price.get('silverTobacco'), price.get('goldTobacco')], [390, 624]);
    });

    test('not sold at the place, or no such plan → 1006', async () => {
      await assertPlanError(
        await post(`/plans/${ID.partialBronze}`, {
          place: OUTSIDE,
          market: 'Individual',
          year: YEAR,
          household: HOUSEHOLD_A,
        }),
        {
          code: '1006',
          status: '404',
          message: 'Plan not found',
          error: `plan ${ID.partialBronze} is not sold in county 48209 (ZIP 78640) in 2026`,
        },
      );
      assert.equal(
        (
          await post('/plans/99994TX0019999', {
            place: PLACE,
            market: 'Individual',
            year: YEAR,
            household: HOUSEHOLD_A,
          })
        ).status,
        404,
      );
      await assertPlanError(
        await post('/plans/nope', { place: PLACE, market: 'Individual', year: YEAR, household: HOUSEHOLD_A }),
        {
          code: '1003',
          status: '400',
          message: 'invalid plan request',
          error: 'plan_id: must be a 14-character HIOS plan ID (5 digits, state, 7 digits)',
        },
      );
    });
  });
});
