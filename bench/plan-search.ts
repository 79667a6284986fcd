/**
 * The plan-search benchmark: POST /api/v1/plans/search for a household of four priced with APTC in a county
 * with at least 100 plans, with autocannon; and, in the same run, the cost of `JSON.stringify` of the same
 * response body, to compare with the server's own time per search (its Server-Timing header).
 *
 * Plans: the real PY2025 Plan Attributes and Service Area PUFs (Dallas County, TX). Rates: no real PY2025
 * Rate PUF is available to us, so the benchmark writes one in the Rate PUF layout with GENERATED rates
 * (a metal-level base × a per-plan factor × the federal age curve) — benchmark input only, never served
 * as real: it lives in a throwaway database. Likewise no PY2025 Benefits and Cost Sharing PUF: the yearly
 * out-of-pocket estimate is measured over one GENERATED in its layout (`writeGeneratedBenefits`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from '../src/storage/connect.js';
import { FEDERAL_AGE_CURVE } from '../src/plans/sample/age-curve.js';
import { BENEFITS_COLUMNS, PLAIN_BENEFIT_CELLS, RATE_COLUMNS } from '../src/plans/tables/puf-columns.js';
import { OOPC_BENEFIT_NAMES } from '../src/plans/quote/oopc/services.js';
import { mergeLoads, postLoad, type PostLoadResult } from './load.js';
import type { BenchDatabase } from './server.js';

export const SEARCH_YEAR = 2025;
export const SEARCH_PLACE = { countyfips: '48113', state: 'TX', zipcode: '75201' };

/** Monthly age-21 rate by metal level, dollars, before the per-plan factor (rough PY2025 TX levels). */
const METAL_BASE: Record<string, number> = {
  Catastrophic: 250,
  Bronze: 330,
  Silver: 420,
  Gold: 470,
  Platinum: 560,
};

/** A stable factor 0.85–1.15 from the plan id (FNV-1a), so runs price the same. */
function planFactor(planId: string): number {
  let hash = 0x811c9dc5;
  for (const ch of planId) hash = Math.imul(hash ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return 0.85 + (hash % 3001) / 10000;
}

/**
 * Writes a Rate PUF (current layout) with generated rates for every PY2025 Texas individual medical plan in
 * the rating area of the benchmark county, and returns its path and the number of plans it prices.
 */
export async function writeGeneratedRates(
  database: BenchDatabase,
  dir: string,
): Promise<{ file: string; plans: number; area: number }> {
  const storage = await connect(database.url);
  try {
    const area = await storage.db
      .selectFrom('rating_areas')
      .select('area')
      .where('year', '<=', SEARCH_YEAR)
      .where('state', '=', SEARCH_PLACE.state)
      .where('fips', '=', SEARCH_PLACE.countyfips)
      .orderBy('year', 'desc')
      .executeTakeFirstOrThrow();
    const plans = await storage.db
      .selectFrom('plans')
      .select(['plan_id', 'issuer_id', 'metal_level'])
      .where('year', '=', SEARCH_YEAR)
      .where('state', '=', SEARCH_PLACE.state)
      .where('market', '=', 'Individual')
      .where('dental_only', '=', 0)
      .orderBy('plan_id')
      .execute();
    const lines = [RATE_COLUMNS.join(',')];
    for (const plan of plans) {
      const rate21 = (METAL_BASE[plan.metal_level] ?? 450) * planFactor(plan.plan_id);
      // About half the plans surcharge tobacco users (×1.25, within the 1.5:1 limit of 45 CFR 147.102).
      const tobacco = planFactor(`${plan.plan_id}t`) > 1;
      for (const { label, factor } of FEDERAL_AGE_CURVE) {
        lines.push(
          [
            SEARCH_YEAR,
            SEARCH_PLACE.state,
            plan.issuer_id,
            'HIOS',
            '2024-10-15 00:00:00',
            `${SEARCH_YEAR}-01-01`,
            `${SEARCH_YEAR}-12-31`,
            plan.plan_id,
            `Rating Area ${area.area}`,
            tobacco ? 'Tobacco User/Non-Tobacco User' : 'No Preference',
            label,
            (rate21 * factor).toFixed(2),
            tobacco ? (rate21 * factor * 1.25).toFixed(2) : '',
            ...Array<string>(7).fill(''),
          ].join(','),
        );
      }
    }
    const file = join(dir, 'rate-puf-2025-generated-for-bench.csv');
    writeFileSync(file, `${lines.join('\r\n')}\r\n`);
    return { file, plans: plans.length, area: Number(area.area) };
  } finally {
    await storage.close();
  }
}

/** The published phrases of one benefit's in-network tier 1 cells: copay, coinsurance. */
type Cells = readonly [copay: string, coinsurance: string];

/**
 * GENERATED cost sharing of a plan variant by metal level, in the PUF's phrases: visits and generic drugs at
 * a copay, hospital, procedures and specialty drugs at coinsurance after the deductible, preventive care
 * free; bronze and catastrophic plans through the deductible. Benchmark input only, like the rates.
 */
function generatedCells(metal: string, benefit: string, factor: number): Cells {
  const through = metal === 'Bronze' || metal === 'Expanded Bronze' || metal === 'Catastrophic';
  const percent = { Platinum: 10, Gold: 20, Silver: 30 }[metal] ?? 40;
  const after: Cells = ['No Charge', `${percent}% Coinsurance after deductible`];
  const copay = (dollars: number): Cells => [`$${Math.round((dollars * factor) / 5) * 5}`, 'No Charge'];
  if (benefit.startsWith('Preventive')) return ['No Charge', 'No Charge'];
  if (through) return after;
  if (/Primary Care|Mental|Routine Eye/.test(benefit)) return copay(30);
  if (/Specialist|Chiropractic|Rehabilitation/.test(benefit)) return copay(60);
  if (benefit === 'Generic Drugs') return copay(15);
  if (benefit === 'Preferred Brand Drugs') return copay(50);
  if (benefit === 'Emergency Room Services')
    return [`$${Math.round((400 * factor) / 5) * 5} Copay after deductible`, 'No Charge'];
  return after;
}

/**
 * Writes a Benefits and Cost Sharing PUF (its layout) with GENERATED cost sharing for every variant of the
 * plans `writeGeneratedRates` prices: every benefit the out-of-pocket estimate reads. Returns its path.
 */
export async function writeGeneratedBenefits(database: BenchDatabase, dir: string): Promise<string> {
  const storage = await connect(database.url);
  try {
    const variants = await storage.db
      .selectFrom('plan_variants as v')
      .innerJoin('plans as p', (join) =>
        join.onRef('p.plan_id', '=', 'v.plan_id').onRef('p.year', '=', 'v.year'),
      )
      .select(['v.variant_id', 'p.plan_id', 'p.issuer_id', 'p.metal_level'])
      .where('p.year', '=', SEARCH_YEAR)
      .where('p.state', '=', SEARCH_PLACE.state)
      .where('p.market', '=', 'Individual')
      .where('p.dental_only', '=', 0)
      .orderBy('v.variant_id')
      .execute();
    const lines = [BENEFITS_COLUMNS.join(',')];
    for (const v of variants) {
      // Silver CSR variants (-04 … -06) and AI/AN ones (-02, -03) share less.
      const suffix = v.variant_id.slice(-2);
      const factor =
        ({ '02': 0, '03': 0.5, '04': 0.8, '05': 0.5, '06': 0.25 }[suffix] ?? 1) * planFactor(v.plan_id);
      for (const name of OOPC_BENEFIT_NAMES) {
        const [copay, coinsurance] =
          factor === 0 ? (['No Charge', 'No Charge'] as const) : generatedCells(v.metal_level, name, factor);
        const row: Record<(typeof BENEFITS_COLUMNS)[number], string | number> = {
          BusinessYear: SEARCH_YEAR,
          StateCode: SEARCH_PLACE.state,
          IssuerId: v.issuer_id,
          SourceName: 'HIOS',
          ImportDate: '2024-10-15 00:00:00',
          StandardComponentId: v.plan_id,
          PlanId: v.variant_id,
          BenefitName: name,
          ...PLAIN_BENEFIT_CELLS,
          CopayInnTier1: copay,
          CoinsInnTier1: coinsurance,
        };
        lines.push(BENEFITS_COLUMNS.map((c) => csvCell(String(row[c]))).join(','));
      }
    }
    const file = join(dir, 'benefits-puf-2025-generated-for-bench.csv');
    writeFileSync(file, `${lines.join('\r\n')}\r\n`);
    return file;
  } finally {
    await storage.close();
  }
}

const csvCell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/**
 * 32 households of four (two adults 25–60, two children 0–17), incomes 225–400 % of the 2024 poverty line
 * for four ($31,200): every adult and child APTC-eligible (above Texas's 206 % CHIP limit), so every plan is
 * priced with a credit; 225–250 % also see the 73 % CSR variants; in one household of four the first adult
 * uses tobacco. Deterministic, so runs compare.
 */
function searchBodies(utilization: boolean): string[] {
  let seed = 20251;
  const next = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  // With utilization each member names a level (the households are the same either way).
  const LEVELS = ['Medium', 'High', 'Low', 'Medium', 'Medium', 'Low'];
  let member = 0;
  const person = (age: number, relationship: string, gender: string, tobacco = false) => ({
    age,
    aptc_eligible: true,
    gender,
    uses_tobacco: tobacco,
    relationship,
    ...(utilization ? { utilization_level: LEVELS[member++ % LEVELS.length] } : {}),
  });
  const bodies: string[] = [];
  for (let i = 0; i < 32; i += 1) {
    const first = 25 + next(36);
    const second = Math.max(21, Math.min(64, first + next(9) - 4));
    const income = Math.round(31_200 * (2.25 + next(176) / 100));
    bodies.push(
      JSON.stringify({
        household: {
          income,
          people: [
            // One household in four has a smoker: tobacco rates where plans file them.
            person(first, 'Self', 'Male', i % 4 === 3),
            person(second, 'Spouse', 'Female'),
            person(next(18), 'Child', 'Female'),
            person(next(18), 'Child', 'Male'),
          ],
        },
        market: 'Individual',
        place: SEARCH_PLACE,
        year: SEARCH_YEAR,
      }),
    );
  }
  return bodies;
}

export interface SearchFigures {
  /** Every member names a utilization level: every plan carries its yearly out-of-pocket estimate. */
  utilization: boolean;
  load: PostLoadResult;
  plans: number;
  bodyBytes: number;
  /** Median server time per search request (Server-Timing `app`), ms. */
  serverMedianMs: number;
  /** Median time of the search route's own work (Server-Timing `search`), ms. */
  routeMedianMs: number;
  /** Mean time of JSON.stringify of one response body (parsed), ms. */
  stringifyMs: number;
  /** CPU time the server process spent per search over the measured load (user + system), ms. */
  serverCpuMs: number | null;
}

/** User + system CPU of a process so far, ms (Linux /proc; null elsewhere). */
function processCpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // Fields 14 and 15 of stat (utime, stime), in clock ticks of 10 ms; index 11 and 12 after the name.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Rounds of one search benchmark (`--rounds`) as one: their loads merged, medians over every answer. */
export function mergeSearches(rounds: SearchFigures[]): SearchFigures {
  const load = mergeLoads(
    rounds.map((r) => r.load),
    (loads) => ({
      serverMs: loads.flatMap((l) => l.serverMs),
      routeMs: loads.flatMap((l) => l.routeMs),
    }),
  );
  const cpu = rounds.every((r) => r.serverCpuMs !== null)
    ? rounds.reduce((sum, r) => sum + r.serverCpuMs! * r.load.latencies.length, 0) / load.latencies.length
    : null;
  return {
    ...rounds[0]!,
    load,
    serverMedianMs: median(load.serverMs),
    routeMedianMs: median(load.routeMs),
    stringifyMs: rounds.reduce((sum, r) => sum + r.stringifyMs, 0) / rounds.length,
    serverCpuMs: cpu,
  };
}

/** Times `JSON.stringify` of `value` over enough calls to be stable, ms per call. */
function stringifyCost(value: unknown): number {
  for (let i = 0; i < 200; i += 1) JSON.stringify(value);
  const rounds = 2000;
  const started = performance.now();
  for (let i = 0; i < rounds; i += 1) JSON.stringify(value);
  return (performance.now() - started) / rounds;
}

/** Runs the search load (after a short warm-up) and measures JSON.stringify of the same body. */
export async function searchBench(
  url: string,
  pid: number,
  key: string,
  connections: number,
  duration: number,
  utilization = false,
): Promise<SearchFigures> {
  const path = `/api/v1/plans/search?apikey=${key}`;
  const bodies = searchBodies(utilization);
  const first = await fetch(new URL(path, url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: bodies[0],
  });
  const text = await first.text();
  if (first.status !== 200) throw new Error(`plan search answered ${first.status}: ${text.slice(0, 300)}`);
  const answer = JSON.parse(text) as {
    total: number;
    plans: { premium_w_credit: number | null; oopc: number }[];
  };
  if (answer.total < 100) throw new Error(`the benchmark county has ${answer.total} plans, not ≥ 100`);
  if (!answer.plans.every((p) => typeof p.premium_w_credit === 'number')) {
    throw new Error('plan search answered plans without a premium');
  }
  if (!answer.plans.every((p) => (utilization ? p.oopc > 0 : p.oopc === -1))) {
    throw new Error(`plan search answered oopc ${answer.plans.map((p) => p.oopc).join(', ')}`);
  }
  const targets = bodies.map((body) => ({
    path,
    body,
    check: (b: string) => b.startsWith('{"plans":[{') && b.includes('"premium_w_credit":'),
  }));
  await postLoad(url, targets, connections, 2);
  const cpuBefore = processCpuMs(pid);
  const load = await postLoad(url, targets, connections, duration);
  const cpuAfter = processCpuMs(pid);
  return {
    utilization,
    load,
    plans: answer.total,
    bodyBytes: Buffer.byteLength(text),
    serverMedianMs: median(load.serverMs),
    routeMedianMs: median(load.routeMs),
    stringifyMs: stringifyCost(answer),
    serverCpuMs:
      cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / load.latencies.length,
  };
}
