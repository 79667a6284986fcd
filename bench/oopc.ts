/**
 * Micro-benchmark of the out-of-pocket estimate (src/plans/quote/oopc/), in process: the generated sample
 * market is loaded into a throwaway SQLite database through the real ingest, its plans' details are read
 * back by the plan detail store, and copied (new objects, so nothing is shared between copies) up to the
 * 134 plans of the plan-search benchmark's county. Then, for households of four drawn from a fixed random
 * seed, it times per plan:
 *
 *   cold        the first estimate of a plan: reading its terms, step 1 for each member, the iteration
 *   iteration   the iteration alone, step 1 kept (a household not seen before, on a warm market)
 *   kept        an estimate of a household already priced under the plan (the per-variant cache)
 *   range       the range over decile bands (our option), households of four, all combinations
 *
 *   node --import tsx bench/oopc.ts [--rounds 20]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureSampleMarket } from '../src/ingest/sample-market.js';
import { spendResult } from '../src/plans/quote/oopc/estimate.js';
import {
  oopcHousehold,
  planOopc,
  planOopcRange,
  type OopcHousehold,
} from '../src/plans/quote/oopc/plan-oopc.js';
import { oopcVariant, planOopcTerms } from '../src/plans/quote/oopc/plan-oopc-terms.js';
import { COST_TERMS, createPlanDetailStore, type PlanDetails } from '../src/plans/store/plan-details.js';
import type { CsrVariant } from '../src/plans/store/plan-detail.js';
import { Random } from '../src/shared/random.js';
import { connect, migrate } from '../src/storage/connect.js';

const PLANS = 134;
const HOUSEHOLDS = 32;
const STANDARD: CsrVariant = 'Exchange variant (no CSR)';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '20' } } });
const rounds = Number(values.rounds);

interface Plan {
  details: PlanDetails;
  metal: string;
}

async function samplePlans(): Promise<{ plans: Plan[]; year: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'openenroll-oopc-bench-'));
  const storage = await connect(`sqlite:${join(dir, 'bench.db')}`);
  try {
    await migrate(storage);
    const loaded = await ensureSampleMarket(storage, Date.now());
    const year = loaded!.year;
    const rows = await storage.db
      .selectFrom('plans')
      .select(['plan_id', 'metal_level'])
      .where('year', '=', year)
      .execute();
    const details = await createPlanDetailStore(storage.db).findManyPlanDetails(
      year,
      rows.map((r) => r.plan_id),
    );
    const base = rows.map((r) => ({ details: details.get(r.plan_id)!, metal: r.metal_level }));
    // New objects (the symbol-keyed terms come along), so each copy has caches of its own.
    const plans = Array.from({ length: PLANS }, (_, i) => {
      const { details: d, metal } = base[i % base.length]!;
      return { details: { ...d, [COST_TERMS]: d[COST_TERMS] }, metal };
    });
    return { plans, year };
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function households(year: number): OopcHousehold[] {
  const random = new Random(134, 'oopc-bench');
  const level = () => random.pick(['Low', 'Medium', 'High']);
  return Array.from({ length: HOUSEHOLDS }, () =>
    oopcHousehold(
      [
        { age: random.int(25, 60), gender: 'Female', utilization: level() },
        { age: random.int(25, 60), gender: 'Male', utilization: level() },
        { age: random.int(0, 17), gender: random.pick(['Female', 'Male']), utilization: level() },
        { age: random.int(0, 17), gender: random.pick(['Female', 'Male']), utilization: level() },
      ],
      year,
    ),
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Microseconds per plan of `work` over every plan, the median of `rounds` passes. */
function perPlan(plans: readonly Plan[], passes: number, work: (plan: Plan, pass: number) => void): number {
  const times: number[] = [];
  for (let pass = 0; pass < passes; pass++) {
    const start = process.hrtime.bigint();
    for (const plan of plans) work(plan, pass);
    times.push(Number(process.hrtime.bigint() - start) / 1000 / plans.length);
  }
  return median(times);
}

const { plans, year } = await samplePlans();
const houses = households(year);

// Cold: fresh copies, so the terms and step 1 are worked out inside the timing.
const cold: number[] = [];
for (let r = 0; r < rounds; r++) {
  const fresh = plans.map((p) => ({ ...p, details: { ...p.details } }));
  cold.push(perPlan(fresh, 1, (plan) => planOopc(houses[r % HOUSEHOLDS]!, plan.details, STANDARD)));
}

// Warm every plan for every household, then time the iteration alone and the kept answer.
for (const house of houses) for (const plan of plans) planOopc(house, plan.details, STANDARD);
const terms = plans.map((plan) => {
  const read = planOopcTerms(plan.details, oopcVariant(plan.details, plan.details.metal_level, STANDARD));
  if (!read.ok) throw new Error(read.reason);
  return read.terms;
});
const uses = houses.map((h) => (h.ok ? h.uses : []));
let i = 0;
const iteration = perPlan(plans, rounds * HOUSEHOLDS, (_plan, pass) => {
  spendResult(terms[i++ % PLANS]!, uses[pass % HOUSEHOLDS]!);
});
const kept = perPlan(plans, rounds * HOUSEHOLDS, (plan, pass) => {
  planOopc(houses[pass % HOUSEHOLDS]!, plan.details, STANDARD);
});
const rangeHouse = oopcHousehold(
  [
    { age: 44, gender: 'Female', utilization: 'Medium' },
    { age: 46, gender: 'Male', utilization: 'Medium' },
    { age: 12, gender: 'Female', utilization: 'Medium' },
    { age: 8, gender: 'Male', utilization: 'Medium' },
  ],
  year,
);
const range = perPlan(
  plans.map((p) => ({ ...p, details: { ...p.details } })),
  1,
  (plan) => planOopcRange(rangeHouse, plan.details, STANDARD),
);

const row = (what: string, us: number) =>
  `| ${what.padEnd(44)} | ${us.toFixed(2).padStart(9)} | ${((us * PLANS) / 1000).toFixed(3).padStart(9)} |`;
console.log(
  `node ${process.version}, ${rounds} rounds, ${PLANS} plans (the sample market's ${PLANS} copies), households of four`,
);
console.log('| per plan                                     |        µs | ms / 134 |');
console.log('| -------------------------------------------- | --------- | -------- |');
console.log(row('cold (terms + step 1 + iteration)', median(cold)));
console.log(row('iteration only (step 1 kept)', iteration));
console.log(row('kept household (cache hit)', kept));
console.log(row('range, 4 × Medium (256 combinations), cold', range));
