import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { oopcHousehold, planOopc } from '../../src/plans/quote/oopc/plan-oopc.js';
import { createPlanDetailStore } from '../../src/plans/store/plan-details.js';
import type { CsrVariant } from '../../src/plans/store/plan-detail.js';
import { loadPricedMarket, postJson } from '../helpers/priced-market.js';
import { startService, type RunningService } from '../helpers/service.js';
import { SANDBOX_KEY, planApiSuite } from './plan-api.js';

/**
 * The yearly out-of-pocket estimate through the plan API (docs/decisions.md#oopc-method): `oopc` on every
 * plan of POST /plans/search, /plans and /plans/{plan_id}, its stats, sorts and filter, our `oopc_range`,
 * and -1 with `data_notes.oopc` where it cannot be made. The model's arithmetic is tested by hand in
 * src/plans/quote/oopc/*.test.ts and against CMS's worked example in oopc-cms-model.test.ts; here the
 * figures are those of the same engine over the plans as the store reads them back, so what is checked is
 * that the API prices each plan in the variant the household is quoted, and orders, filters and sums them.
 */

interface Plan {
  id: string;
  metal_level: string;
  premium_w_credit: number | null;
  oopc: number;
  oopc_range?: { expected: number; p10: number; p90: number; combinations: number; sampled: boolean } | null;
  deductibles: { csr: string }[];
}
interface Search {
  plans: Plan[];
  total: number;
  data_notes?: Record<string, string>;
}

const PLACE = { countyfips: '48091', state: 'TX', zipcode: '78130' };
interface Person {
  age: number;
  gender: 'Female' | 'Male';
  utilization?: string;
  utilization_level?: string;
  [field: string]: unknown;
}
const person = (age: number, gender: 'Female' | 'Male', more: Record<string, unknown> = {}): Person => ({
  age,
  gender,
  aptc_eligible: true,
  uses_tobacco: false,
  ...more,
});
/** A family of four, each with a level (the CMS document's `utilization_level` and the older `utilization`). */
const FAMILY = [
  person(44, 'Female', { utilization_level: 'Medium' }),
  person(46, 'Male', { utilization_level: 'High', relationship: 'Spouse' }),
  person(12, 'Female', { utilization: 'Low', relationship: 'Child' }),
  person(8, 'Male', { utilization_level: 'Medium', relationship: 'Child' }),
];

describe('oopc over the zero-setup sample market', () => {
  let running: RunningService;
  let year = 0;
  const body = (people: unknown[], more: Record<string, unknown> = {}, income = 95_000) => ({
    place: PLACE,
    market: 'Individual',
    year,
    household: { income, people },
    limit: 100,
    ...more,
  });
  const post = async <T>(path: string, payload: unknown, status = 200): Promise<T> => {
    const response = await postJson(running.url, SANDBOX_KEY, path, payload);
    const text = await response.text();
    assert.equal(response.status, status, text);
    return JSON.parse(text) as T;
  };
  /** What the engine says for a plan as stored, in a variant, for the family. */
  const engine = async (id: string, csr: CsrVariant, people = FAMILY) => {
    const details = await createPlanDetailStore(running.service.storage.db).findManyPlanDetails(year, [id]);
    const household = oopcHousehold(
      people.map((p) => ({
        age: p.age,
        gender: p.gender,
        utilization: p.utilization_level ?? p.utilization,
      })),
      year,
    );
    return planOopc(household, details.get(id)!, csr);
  };

  before(async () => {
    running = await startService();
    year = new Date(running.clock.now()).getUTCFullYear();
  });
  after(() => running.close());

  test('without utilization levels every plan is -1, as CMS answers, with no note', async () => {
    const answer = await post<Search>('/plans/search', body(FAMILY.map(stripLevel)));
    assert.ok(answer.total > 10);
    assert.ok(answer.plans.every((p) => p.oopc === -1));
    assert.equal(answer.data_notes?.oopc, undefined);
  });

  test('with levels every plan carries the estimate of the variant it shows', async () => {
    const answer = await post<Search>('/plans/search', body(FAMILY));
    assert.equal(answer.plans.length, answer.total);
    for (const plan of answer.plans) {
      assert.ok(plan.oopc > 0, plan.id);
      // Every search plan lists the deductibles of the one variant it shows: that is the one priced.
      const shown = plan.deductibles[0]!.csr as CsrVariant;
      const expected = await engine(plan.id, shown);
      assert.ok(expected.computed);
      assert.equal(plan.oopc, expected.oopc, plan.id);
    }
    assert.equal(answer.data_notes?.oopc, undefined);
  });

  test('a household in the 94 % CSR band is priced in the silver plans’ 94 % variant, and pays less', async () => {
    // 100–150 % FPL: 94 % AV silver variants (45 CFR 155.305(g)(2)(i)); $40,000 for four is about 124 %
    // (below 100 % Texas, which did not expand Medicaid, leaves adults in the coverage gap, with no CSR).
    const low = await post<Search>(
      '/plans/search',
      body(FAMILY, { filter: { metal_level: 'Silver' } }, 40_000),
    );
    const high = await post<Search>('/plans/search', body(FAMILY, { filter: { metal_level: 'Silver' } }));
    assert.ok(low.plans.length > 0);
    for (const plan of low.plans) {
      assert.equal(plan.deductibles[0]!.csr, '94% AV Level Silver Plan CSR');
      const standard = high.plans.find((p) => p.id === plan.id)!;
      assert.equal(standard.deductibles[0]!.csr, 'Exchange variant (no CSR)');
      assert.ok(plan.oopc < standard.oopc, `${plan.id}: ${plan.oopc} < ${standard.oopc}`);
      assert.equal(plan.oopc, (await engine(plan.id, '94% AV Level Silver Plan CSR')).oopc);
    }
  });

  test('sort=oopc and sort=total_costs (12 × premium after credit + oopc), both orders', async () => {
    const byOopc = (await post<Search>('/plans/search', body(FAMILY, { sort: 'oopc' }))).plans;
    assert.deepEqual(
      byOopc.map((p) => p.oopc),
      byOopc.map((p) => p.oopc).sort((a, b) => a - b),
    );
    const desc = (await post<Search>('/plans/search', body(FAMILY, { sort: 'oopc', order: 'desc' }))).plans;
    assert.deepEqual(
      desc.map((p) => p.oopc),
      byOopc.map((p) => p.oopc).sort((a, b) => b - a),
    );
    const total = (p: Plan) => Math.round((p.premium_w_credit! * 12 + p.oopc) * 100) / 100;
    const byTotal = (await post<Search>('/plans/search', body(FAMILY, { sort: 'total_costs' }))).plans;
    const totals = byTotal.map(total);
    assert.deepEqual(
      totals,
      [...totals].sort((a, b) => a - b),
    );
    // The two orders differ: a cheap premium is not a cheap year.
    assert.notDeepEqual(
      byTotal.map((p) => p.id),
      (await post<Search>('/plans/search', body(FAMILY, { sort: 'premium' }))).plans.map((p) => p.id),
    );
  });

  test('filter.oopc keeps the plans whose estimate is at most the amount', async () => {
    const all = (await post<Search>('/plans/search', body(FAMILY))).plans;
    const median = all.map((p) => p.oopc).sort((a, b) => a - b)[Math.floor(all.length / 2)]!;
    const kept = await post<Search>('/plans/search', body(FAMILY, { filter: { oopc: median } }));
    assert.deepEqual(
      kept.plans.map((p) => p.id).sort(),
      all
        .filter((p) => p.oopc <= median)
        .map((p) => p.id)
        .sort(),
    );
    assert.ok(kept.total < all.length && kept.total > 0);
  });

  test('stats: oopc min, max and mean per metal level', async () => {
    const plans = (await post<Search>('/plans/search', body(FAMILY))).plans;
    const stats = await post<{ metal_level: string; oopc: { min: number; max: number; mean: number } }[]>(
      '/plans/search/stats',
      body(FAMILY),
    );
    assert.ok(stats.length > 1);
    for (const stat of stats) {
      const cents = plans
        .filter((p) => p.metal_level === stat.metal_level)
        .map((p) => Math.round(p.oopc * 100));
      const mean = Math.round(cents.reduce((a, b) => a + b, 0) / cents.length) / 100;
      assert.deepEqual(stat.oopc, { min: Math.min(...cents) / 100, max: Math.max(...cents) / 100, mean });
    }
    const none = await post<{ oopc: unknown }[]>('/plans/search/stats', body(FAMILY.map(stripLevel)));
    assert.ok(none.every((s) => JSON.stringify(s.oopc) === '{"min":-1,"max":-1,"mean":-1}'));
  });

  test('POST /plans and POST /plans/{plan_id} carry the same estimates as the search', async () => {
    const searched = (await post<Search>('/plans/search', body(FAMILY))).plans.slice(0, 3);
    const ids = searched.map((p) => p.id);
    const compared = await post<{ plans: Plan[] }>('/plans', body(FAMILY, { plan_ids: ids }));
    assert.deepEqual(
      compared.plans.map((p) => p.oopc),
      searched.map((p) => p.oopc),
    );
    const one = await post<{ plan: Plan }>(`/plans/${ids[0]}`, body(FAMILY));
    assert.equal(one.plan.oopc, searched[0]!.oopc);
  });

  test('oopc_range (our option): expected cost and 10th–90th percentiles over the members’ bands', async () => {
    const plain = (await post<Search>('/plans/search', body(FAMILY))).plans;
    assert.ok(plain.every((p) => p.oopc_range === undefined));
    const ranged = (await post<Search>('/plans/search', body(FAMILY, { oopc_range: true, limit: 5 }))).plans;
    for (const plan of ranged) {
      const range = plan.oopc_range!;
      assert.ok(range.p10 <= range.expected && range.expected <= range.p90, plan.id);
      // Bands of 4 (Medium), 3 (High), 2 (a girl of 12's Low band: her age group pools deciles 1–2) and 4.
      assert.equal(range.combinations, 4 * 3 * 2 * 4);
      assert.equal(range.sampled, false);
    }
    const one = await post<{ plan: Plan }>(`/plans/${ranged[0]!.id}`, body(FAMILY, { oopc_range: true }));
    assert.deepEqual(one.plan.oopc_range, ranged[0]!.oopc_range);
  });

  test('a member without a level: -1 everywhere and data_notes.oopc names them; filter.oopc is 1003', async () => {
    const partial = [FAMILY[0]!, stripLevel(FAMILY[1]!)];
    const answer = await post<Search>('/plans/search', body(partial));
    assert.ok(answer.plans.every((p) => p.oopc === -1));
    assert.match(answer.data_notes!.oopc!, /household\.people\[1\] has no utilization level/);
    const response = await postJson(
      running.url,
      SANDBOX_KEY,
      '/plans/search',
      body(partial, { filter: { oopc: 5000 } }),
    );
    await assert1003(response, /filter\.oopc: household\.people\[1\] has no utilization level/);
  });

  test('utilization and utilization_level that disagree are 1003; an unknown level is 1003', async () => {
    const both = [person(40, 'Female', { utilization: 'Low', utilization_level: 'High' })];
    await assert1003(
      await postJson(running.url, SANDBOX_KEY, '/plans/search', body(both)),
      /utilization_level \(High\) and utilization \(Low\) differ/,
    );
    const unknown = [person(40, 'Female', { utilization_level: 'Extreme' })];
    await assert1003(
      await postJson(running.url, SANDBOX_KEY, '/plans/search', body(unknown)),
      /utilization_level/,
    );
  });
});

describe('oopc without a Benefits and Cost Sharing PUF for the year', () => {
  const api = planApiSuite([]);
  before(() => loadPricedMarket(api));

  test('-1 for every plan and data_notes.oopc says why: never a figure made of defaults', async () => {
    const response = await postJson(api.running.url, SANDBOX_KEY, '/plans/search', {
      place: { countyfips: '48209', state: 'TX', zipcode: '78666' },
      market: 'Individual',
      year: 2026,
      household: { income: 60_000, people: [person(40, 'Female', { utilization_level: 'Medium' })] },
      sort: 'oopc',
    });
    const answer = (await response.json()) as Search;
    assert.equal(response.status, 200, JSON.stringify(answer));
    assert.ok(answer.plans.length > 0);
    assert.ok(answer.plans.every((p) => p.oopc === -1));
    assert.match(answer.data_notes!.oopc!, /no Benefits and Cost Sharing PUF rows for this plan variant/);
    assert.match(answer.data_notes!.benefits!, /No Benefits and Cost Sharing PUF is loaded for 2026/);
  });
});

/** A 1003 answer whose `error` (the fix) matches. */
async function assert1003(response: Response, error: RegExp): Promise<void> {
  const text = await response.text();
  assert.equal(response.status, 400, text);
  const body = JSON.parse(text) as { code: string; error: string };
  assert.equal(body.code, '1003');
  assert.match(body.error, error);
}

function stripLevel<T extends Record<string, unknown>>(p: T): T {
  const rest: Record<string, unknown> = { ...p };
  delete rest.utilization;
  delete rest.utilization_level;
  return rest as T;
}
