import { sql, type Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { PLAN_KINDS } from '../tables/plan-kinds.js';
import { healthcareGovStates } from '../tables/healthcare-gov-states.js';
import type { DatasetInfo } from '../../storage/datasets.js';

/** What we know of a plan year's marketplaces: which states use HealthCare.gov, and whether that is all. */
export interface Marketplaces {
  /** States known to use HealthCare.gov in the year. */
  healthcareGov: ReadonlySet<string>;
  /** True when the year's whole list is known, so a state outside it runs its own exchange. */
  complete: boolean;
}

/**
 * A state's marketplace in a year: FFM (HealthCare.gov), SBM (its own exchange: known only when the
 * year's list is complete), or undefined when we cannot tell.
 */
export function marketplaceModel(known: Marketplaces, state: string): 'FFM' | 'SBM' | undefined {
  if (known.healthcareGov.has(state)) return 'FFM';
  return known.complete ? 'SBM' : undefined;
}

/**
 * Which states use HealthCare.gov in a plan year, in one place:
 * 1. the typed table `tables/healthcare-gov-states.ts`, for the years it cites: the whole list;
 * 2. else a real (non-sample) Plan Attributes PUF loaded for the year: the national PUF covers exactly
 *    the HealthCare.gov states, so the states with Individual plans in it are the whole list;
 * 3. a real QHP Landscape of the year adds its states (the landscape is HealthCare.gov's), but never makes
 *    another state SBM: the files are published one per state, and we may hold a few;
 * 4. the generated sample market counts only when nothing else is known of the year (no table row, no
 *    real plans), and then only for its own state: sample plans never decide it for a real state.
 * With none of these the year's list is unknown: no model is claimed, and no state is refused.
 */
export function createMarketplaceStore(db: Kysely<Database>) {
  /** States with Individual plans of `year` in the Plan Attributes PUF loaded for it. */
  const pufStates = async (year: number) => {
    const rows = await db
      .selectFrom('plans')
      .select('state')
      .distinct()
      .where('year', '=', year)
      .where('source', '=', 'plan-attributes')
      .where('market', '=', 'Individual')
      .execute();
    return rows.map((r) => r.state);
  };
  // The landscape writes a `plan_counties` row per plan and county, and only it does; its plans may have
  // given way to a PUF's, its county rows stay. The plan id carries the state (positions 6–7).
  const landscapeStates = async (year: number) => {
    const rows = await db
      .selectFrom('plan_counties')
      .select(sql<string>`substr(plan_id, 6, 2)`.as('state'))
      .distinct()
      .where('year', '=', year)
      .execute();
    return rows.map((r) => r.state);
  };

  async function compute(year: number, plans: DatasetInfo[]): Promise<Marketplaces> {
    const table = healthcareGovStates(year);
    const loaded = (kind: string, sample: boolean) =>
      plans.some((d) => d.kind === kind && d.sample === sample);
    const realPuf = loaded('plan-attributes', false);
    const realLandscape = loaded('landscape', false);
    const states = new Set<string>(table ?? []);
    const add = (list: string[]) => list.forEach((s) => states.add(s));
    if (realPuf) add(await pufStates(year));
    if (realLandscape) add(await landscapeStates(year));
    if (!table && !realPuf && !realLandscape) {
      if (loaded('plan-attributes', true)) add(await pufStates(year));
      if (loaded('landscape', true)) add(await landscapeStates(year));
    }
    return { healthcareGov: states, complete: table !== undefined || realPuf };
  }

  // Answers per year, until the year's plan datasets change (another load, another process).
  const cache = new Map<
    number,
    { signature: string; answer: Promise<Marketplaces>; datasets?: DatasetInfo[] }
  >();
  return {
    /** The marketplaces of `year`, given the loaded datasets (the sample tracker's list). */
    async findMarketplaces(year: number, datasets: DatasetInfo[]): Promise<Marketplaces> {
      // The tracker hands out one list until it re-reads: the same list, the same answer.
      const known = cache.get(year);
      if (known?.datasets === datasets) return known.answer;
      const plans = datasets.filter(
        (d) => d.year === year && (PLAN_KINDS as readonly string[]).includes(d.kind),
      );
      const signature = plans.map((d) => `${d.kind}|${d.sample}|${d.loadedAt}`).join(',');
      const cached = cache.get(year);
      if (cached?.signature === signature) {
        cached.datasets = datasets;
        return cached.answer;
      }
      const answer = compute(year, plans);
      cache.set(year, { signature, answer, datasets });
      answer.catch(() => {
        if (cache.get(year)?.answer === answer) cache.delete(year);
      });
      return answer;
    },
  };
}

export type MarketplaceStore = ReturnType<typeof createMarketplaceStore>;
