import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureSampleMarket } from '../../src/ingest/sample-market.js';
import { oopcHousehold, planOopc, planOopcRange } from '../../src/plans/quote/oopc/plan-oopc.js';
import { createPlanDetailStore, type PlanDetails } from '../../src/plans/store/plan-details.js';
import type { CsrVariant } from '../../src/plans/store/plan-detail.js';
import { startService, type RunningService } from '../helpers/service.js';

/**
 * The zero-setup start: the generated sample market, loaded through the ingest formats and read back by
 * the plan detail store, gives every plan an estimate (no figure made of defaults, no -1), on SQLite and
 * PostgreSQL alike.
 */

describe('out-of-pocket estimates over the loaded sample market', () => {
  let running: RunningService;
  let year: number;
  let plans: { id: string; metal: string; details: PlanDetails }[];

  before(async () => {
    running = await startService({ SAMPLE_MARKET: 'false' });
    const storage = running.service.storage;
    const loaded = await ensureSampleMarket(storage, running.clock.now());
    year = loaded!.year;
    const rows = await storage.db
      .selectFrom('plans')
      .select(['plan_id', 'metal_level'])
      .where('year', '=', year)
      .orderBy('plan_id')
      .execute();
    const details = await createPlanDetailStore(storage.db).findManyPlanDetails(
      year,
      rows.map((r) => r.plan_id),
    );
    plans = rows.map((r) => ({ id: r.plan_id, metal: r.metal_level, details: details.get(r.plan_id)! }));
  });
  after(() => running.close());

  const family = () =>
    oopcHousehold(
      [
        { age: 44, gender: 'Female', utilization: 'Medium' },
        { age: 46, gender: 'Male', utilization: 'Medium' },
        { age: 12, gender: 'Female', utilization: 'Low' },
        { age: 8, gender: 'Male', utilization: 'High' },
      ],
      year,
    );

  /** The family in-network combined MOOP of a variant, $. */
  const familyMoop = (details: PlanDetails, csr: CsrVariant) =>
    details.moops.find((m) => m.csr === csr && m.network_tier === 'In-Network' && m.family_cost === 'Family')!
      .amount!;

  /** Whether the plan covers everything the estimate prices (some sample plans leave out adult eye exams). */
  const coversAll = (details: PlanDetails) => details.benefits.every((b) => b.covered);

  test('every plan gets an estimate, with nothing assumed, within its family MOOP when all is covered', () => {
    assert.ok(plans.length >= 20);
    assert.ok(plans.some((p) => coversAll(p.details)) && plans.some((p) => !coversAll(p.details)));
    for (const plan of plans) {
      const answer = planOopc(family(), plan.details, 'Exchange variant (no CSR)');
      assert.ok(answer.computed, `${plan.id}: ${!answer.computed && answer.reason}`);
      assert.deepEqual(answer.notes, [], plan.id);
      assert.ok(answer.oopc > 0 && answer.oopc <= answer.allowed, plan.id);
      // What is not covered is paid beyond the MOOP; everything else stops there.
      if (coversAll(plan.details))
        assert.ok(answer.oopc <= familyMoop(plan.details, answer.variant), plan.id);
      // Every estimate is to the cent.
      assert.equal(Math.round(answer.oopc * 100) / 100, answer.oopc);
    }
  });

  test('silver CSR variants cost the household less, the higher the AV', () => {
    const silver = plans.filter((p) => p.metal === 'Silver');
    assert.ok(silver.length > 0);
    for (const plan of silver) {
      const [standard, csr73, csr87, csr94] = (
        [
          'Exchange variant (no CSR)',
          '73% AV Level Silver Plan CSR',
          '87% AV Level Silver Plan CSR',
          '94% AV Level Silver Plan CSR',
        ] as const
      ).map((csr) => planOopc(family(), plan.details, csr));
      for (const [i, answer] of [standard, csr73, csr87, csr94].entries())
        assert.equal(answer!.computed && answer!.variant.startsWith(['E', '7', '8', '9'][i]!), true, plan.id);
      assert.ok(
        standard!.oopc >= csr73!.oopc && csr73!.oopc >= csr87!.oopc && csr87!.oopc >= csr94!.oopc,
        plan.id,
      );
    }
  });

  test('a range over the decile bands for every plan', () => {
    for (const plan of plans) {
      const range = planOopcRange(family(), plan.details, 'Exchange variant (no CSR)');
      assert.ok(range.computed, plan.id);
      assert.ok(range.p10 <= range.p90 && range.expected > 0, plan.id);
      // Members in bands of 4, 3 and 3 deciles (the 12-year-old girl's Low band is 2 rows: her group pools
      // deciles 1 and 2): 4 × 4 × 2 × 3.
      assert.equal(range.combinations, 96, plan.id);
    }
  });

  test('a member without a utilization level: -1 for every plan, with the reason', () => {
    const household = oopcHousehold([{ age: 30, gender: 'Female' }], year);
    for (const plan of plans) {
      const answer = planOopc(household, plan.details, 'Exchange variant (no CSR)');
      assert.equal(answer.oopc, -1);
    }
  });
});
