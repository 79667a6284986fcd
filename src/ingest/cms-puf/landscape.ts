import type { Transaction } from 'kysely';
import { write, type Write } from '../engine/writes.js';
import type { Database } from '../../storage/schema.js';
import { Reject, type TabularFormat } from '../engine/tabular-format.js';
import { lazyColumns, missingGroups, type Columns } from '../engine/headers.js';
import { FIPS_COUNTY, STATE } from '../geography/codes.js';
import { PLAN_ID } from './values.js';
import { COLUMN, REQUIRED } from './landscape-columns.js';
import { countyResolver } from './landscape-counties.js';
import { planWrites } from './landscape-plan.js';
import { premiums, ratingArea } from './landscape-values.js';

/** Plans and issuers of a year that another kind (the Plan Attributes PUF) wrote: those win. */
interface PufOwned {
  plans: Set<string>;
  issuers: Set<string>;
}

/** What one load shares across its files. */
interface LoadState {
  counties: ReturnType<typeof countyResolver>;
  puf: Map<number, Promise<PufOwned>>;
  /** Rating area stored per `year|plan|fips`. */
  areas: Map<string, number>;
  /** `year|state` pairs whose earlier landscape rows this load has deleted (or is deleting). */
  replaced: Map<string, Promise<void>>;
}

async function pufOwned(db: Transaction<Database>, year: number): Promise<PufOwned> {
  const [plans, issuers] = await Promise.all([
    db
      .selectFrom('plans')
      .select('plan_id')
      .where('year', '=', year)
      .where('source', '<>', 'landscape')
      .execute(),
    db
      .selectFrom('issuers')
      .select('issuer_id')
      .where('year', '=', year)
      .where('source', '<>', 'landscape')
      .execute(),
  ]);
  return { plans: new Set(plans.map((r) => r.plan_id)), issuers: new Set(issuers.map((r) => r.issuer_id)) };
}

/**
 * Deletes what earlier landscape loads stored for one state and year, so this load replaces that state
 * and no other (the files are published one per state): its landscape plans, issuers and variants (PUF
 * rows stay) and its `plan_counties` rows (the plan id carries the state; only the landscape writes them).
 */
async function replaceState(db: Transaction<Database>, year: number, usps: string): Promise<void> {
  const ofState = `_____${usps}%`;
  await db
    .deleteFrom('plans')
    .where('year', '=', year)
    .where('source', '=', 'landscape')
    .where('state', '=', usps)
    .execute();
  await db
    .deleteFrom('issuers')
    .where('year', '=', year)
    .where('source', '=', 'landscape')
    .where('state', '=', usps)
    .execute();
  await db
    .deleteFrom('plan_variants')
    .where('year', '=', year)
    .where('source', '=', 'landscape')
    .where('variant_id', 'like', ofState)
    .execute();
  await db.deleteFrom('plan_counties').where('year', '=', year).where('plan_id', 'like', ofState).execute();
}

/** The row's county FIPS: the 2017+ FIPS column, else its name resolved through `geo_counties`. */
async function countyOf(state: LoadState, cells: Record<string, string>, col: Columns, usps: string) {
  const counties = await state.counties(usps);
  const fips = col.get(cells, ...COLUMN.fips);
  if (fips !== '') {
    return FIPS_COUNTY.test(fips) && counties.has(fips)
      ? fips
      : new Reject(`FIPS County Code "${fips}" is not a county of ${usps}`);
  }
  const name = col.get(cells, ...COLUMN.county);
  if (name === '') return new Reject('County Name is empty');
  return counties.find(name) ?? new Reject(`county "${name}" is not a county of ${usps} (geo_counties)`);
}

/**
 * CMS QHP Landscape, individual market, medical (data.healthcare.gov, PY2014–): one row per plan and
 * county with the county's rating area and the plan's premiums at sample ages and family tiers, and its
 * deductibles and MOOPs per CSR variant. Fills plans, issuers and variants (unless the Plan Attributes
 * PUF already has the plan for the year) and `plan_counties`. Year: `--year` or the file name's prefix.
 * A load replaces the (year, state) pairs it has rows for and leaves the other states of the year.
 */
export const landscapeFormat: TabularFormat<LoadState> = {
  kind: 'landscape',
  summary: 'CMS QHP Landscape, individual medical (YYYY_QHP_Landscape_ST_Individual_Market_Medical.csv)',
  // Replaced per (year, state) by `replaceState`, not per year by the runner.
  owns: [
    { table: 'plans', scope: 'none' },
    { table: 'issuers', scope: 'none' },
    { table: 'plan_variants', scope: 'none' },
    { table: 'plan_counties', scope: 'none' },
  ],
  missingColumns: (header) => missingGroups(header, REQUIRED),
  yearFromFileName(file) {
    const match = /^(\d{4})[_ -]/.exec(file);
    return match ? Number(match[1]) : undefined;
  },
  startLoad: (db) => ({
    counties: countyResolver(db),
    puf: new Map(),
    areas: new Map(),
    replaced: new Map(),
  }),
  start({ db, seen, load }) {
    const columns = lazyColumns();
    return {
      async row(cells, year) {
        const col = columns(cells);
        const planId = col.get(cells, ...COLUMN.planId);
        if (!PLAN_ID.test(planId)) {
          return new Reject(`Plan ID "${planId}" is not a 14-character HIOS plan id`);
        }
        const usps = col.get(cells, ...COLUMN.state);
        if (!STATE.test(usps)) return new Reject(`State "${usps}" is not a state code`);
        if (planId.slice(5, 7) !== usps) return new Reject(`Plan ID ${planId} is not a plan of ${usps}`);
        const issuerId = planId.slice(0, 5);
        const hiosIssuer = col.get(cells, ...COLUMN.issuerId);
        if (hiosIssuer !== '' && hiosIssuer !== issuerId) {
          return new Reject(`HIOS Issuer ID ${hiosIssuer} is not the issuer of plan ${planId}`);
        }
        const fips = await countyOf(load, cells, col, usps);
        if (fips instanceof Reject) return fips;
        const area = ratingArea(col.get(cells, ...COLUMN.ratingArea));
        if (area instanceof Reject) return area;
        const prices = premiums(cells, col);
        if (prices instanceof Reject) return prices;
        const plan = planWrites(cells, col, { year, planId, state: usps, issuerId });
        if (plan instanceof Reject) return plan;

        // A county split between rating areas by 3-digit ZIP (Idaho 2017) lists a plan once per area, so
        // the key carries the area; the same (plan, county, area) twice is a duplicate row.
        const countyKey = `${year}|${planId}|${fips}|${area}`;
        if (load.areas.has(countyKey))
          return new Reject(`plan ${planId} in county ${fips} (rating area ${area}) appears twice`);
        load.areas.set(countyKey, area);

        const stateKey = `${year}|${usps}`;
        let replaced = load.replaced.get(stateKey);
        if (!replaced) load.replaced.set(stateKey, (replaced = replaceState(db, year, usps)));
        await replaced;

        const writes: Write[] = [
          write('plan_counties', {
            year,
            plan_id: planId,
            fips,
            rating_area: area,
            premiums: JSON.stringify(prices),
          }),
        ];
        let owned = load.puf.get(year);
        if (!owned) load.puf.set(year, (owned = pufOwned(db, year)));
        const puf = await owned;
        const planKey = `landscape:plan:${year}:${planId}`;
        if (!puf.plans.has(planId) && !seen.has(planKey)) {
          seen.add(planKey);
          writes.push(plan.plan, ...plan.variants);
        }
        const issuerKey = `landscape:issuer:${year}:${issuerId}`;
        if (!puf.issuers.has(issuerId) && !seen.has(issuerKey)) {
          seen.add(issuerKey);
          writes.push(plan.issuer);
        }
        return writes;
      },
    };
  },
};
