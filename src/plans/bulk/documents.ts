import { toStateMedicaid, type StateMedicaidLimits } from '../eligibility/state-medicaid.js';
import type { BulkSourceStore, CrosswalkRow, DecileRow, ZipInCounty } from '../store/bulk-sources.js';
import { latestByKey, resolveRatingArea } from '../store/rating-areas.js';
import { APPLICABLE_PERCENTAGE } from '../tables/tax-credit.js';
import { findState } from '../tables/states.js';

/**
 * The bulk data documents of `/api/v1/data/*` (CMS Marketplace API document, "Bulk Data"): what each is
 * built from and how. A document is the JSON value `build` returns (undefined: no data for that year);
 * `kinds` are the ingest kinds it reads, so a load of one of them makes it stale.
 */
export interface BulkDefinition {
  name: BulkName;
  summary: string;
  kinds: readonly string[];
  build(sources: BulkSourceStore, year: number): Promise<BulkValue | undefined>;
}

/** A document's value: a top-level array or object whose arrays are written out element by element. */
export type BulkValue = unknown[] | Record<string, unknown>;

export type BulkName =
  'apt' | 'decile-mapping' | 'state-medicaid' | 'rate-areas' | 'county-zips' | 'crosswalk';

interface CountyZips {
  name: string;
  fips: string;
  zips: string[];
}

/** Consecutive rows of one county (the list is by state, county, ZIP) → `CountyZips`. */
function countiesOf(rows: ZipInCounty[]): CountyZips[] {
  const counties: CountyZips[] = [];
  let current: CountyZips | undefined;
  for (const row of rows) {
    if (current?.fips !== row.fips) counties.push((current = { name: row.name, fips: row.fips, zips: [] }));
    current.zips.push(row.zip);
  }
  return counties;
}

/** Rows grouped by state, in their order. */
function byState<T extends { state: string }>(rows: T[]): Map<string, T[]> {
  const states = new Map<string, T[]>();
  for (const row of rows) {
    let list = states.get(row.state);
    if (!list) states.set(row.state, (list = []));
    list.push(row);
  }
  return states;
}

/** `APT`: the applicable percentage table of the year (26 U.S.C. 36B(b)(3)(A), the IRS Rev. Procs). */
function aptOf(year: number): BulkValue | undefined {
  const bands = APPLICABLE_PERCENTAGE[year];
  if (!bands) return undefined;
  return {
    market_year: year,
    tiers: bands.map((band) => ({
      pctFPL: band.toPct === null ? { min: band.fromPct } : { min: band.fromPct, max: band.toPct },
      pctPremium: { min: band.initial / 100, max: band.final / 100 },
    })),
  };
}

/** `StateCounty[]`: every state's counties with their ZIP codes (HUD crosswalk, Census names). */
async function countyZipsOf(sources: BulkSourceStore): Promise<BulkValue | undefined> {
  const rows = await sources.listZipsInCounties();
  if (rows.length === 0) return undefined;
  return [...byState(rows)].map(([state, list]) => ({ state, counties: countiesOf(list) }));
}

/**
 * `StateRateArea[]`: every state's rating areas with the counties in them and, of each county, the ZIP
 * codes in that area (a county split by 3-digit ZIP appears under each of its areas with its ZIPs there).
 * Each ZIP's area is the one `/rate-areas` answers for it (`resolveRatingArea`); a ZIP whose area cannot
 * be determined is left out.
 */
async function rateAreasOf(sources: BulkSourceStore, year: number): Promise<BulkValue | undefined> {
  const [rows, tables, landscape] = await Promise.all([
    sources.listZipsInCounties(),
    sources.listRatingAreaRows(year),
    sources.listLandscapeAreas(year),
  ]);
  const none = new Set<number>();
  const states: { state: string; rateAreas: { rateArea: number; counties: CountyZips[] }[] }[] = [];
  for (const [state, list] of byState(rows)) {
    const latest = latestByKey(tables.get(state) ?? []);
    const areas = new Map<number, ZipInCounty[]>();
    for (const row of list) {
      const found = resolveRatingArea(latest, landscape.get(row.fips) ?? none, {
        year,
        fips: row.fips,
        zip3: row.zip.slice(0, 3),
      });
      if (!found) continue;
      let inArea = areas.get(found.area);
      if (!inArea) areas.set(found.area, (inArea = []));
      inArea.push(row);
    }
    if (areas.size === 0) continue;
    const rateAreas = [...areas]
      .sort(([a], [b]) => a - b)
      .map(([rateArea, inArea]) => ({ rateArea, counties: countiesOf(inArea) }));
    states.push({ state, rateAreas });
  }
  return states.length === 0 ? undefined : states;
}

/** `StateMedicaidList[]`: per quarter of the year loaded, every state's Medicaid and CHIP limits. */
async function stateMedicaidOf(sources: BulkSourceStore, year: number): Promise<BulkValue | undefined> {
  const quarters = await sources.listMedicaidQuarters(year);
  if (quarters.length === 0) return undefined;
  return quarters.map(({ quarter, states }) => ({
    fiscal_year: year,
    fiscal_quarter: quarter,
    states: [...states].flatMap(([abbrev, limits]): StateMedicaidLimits[] => {
      const facts = findState(abbrev);
      return facts ? [toStateMedicaid(facts, { year, quarter, limits })] : [];
    }),
  }));
}

/**
 * What the Plan ID Crosswalk PUF's codes mean, as far as public sources say (the PUF's data dictionary;
 * docs/decisions.md#crosswalk-puf). Reason codes carry only their number where no public description was
 * found.
 */
const CROSSWALK_LEVELS: readonly { code: number; description: string }[] = [
  { code: 0, description: 'Same plan' },
  { code: 1, description: 'Plan-level mapping' },
  { code: 2, description: 'County-level mapping' },
  { code: 3, description: 'ZIP-level mapping' },
  { code: 4, description: 'No re-enrollment option' },
  { code: 5, description: 'No re-enrollment option' },
];
const REASONS: Readonly<Record<number, string>> = {
  8: 'CMS-determined crosswalk to a plan of a different issuer',
};

/** Rows of one (state, plan, county, new plan, level, reason) → one `CrosswalkData` with its ZIPs. */
function crosswalkData(rows: CrosswalkRow[]) {
  const data: {
    state: string;
    previous_plan_id: string;
    new_plan_id: string;
    fips: string;
    level: number;
    reason: number;
    zipcodes: string[];
  }[] = [];
  let key = '';
  for (const row of rows) {
    const rowKey = `${row.state}|${row.oldPlanId}|${row.fips}|${row.newPlanId ?? ''}|${row.level}|${row.reason}`;
    if (rowKey !== key) {
      key = rowKey;
      data.push({
        state: row.state,
        previous_plan_id: row.oldPlanId,
        new_plan_id: row.newPlanId ?? '',
        fips: row.fips,
        level: row.level,
        reason: row.reason,
        zipcodes: [],
      });
    }
    data.at(-1)!.zipcodes.push(row.zip);
  }
  return data;
}

/**
 * `Crosswalk`: the Plan ID Crosswalk PUF that leads into market year `year` (plans of `year − 1` → plans
 * of `year`). ZIP code `00000` stands for the whole county, as in the PUF.
 */
async function crosswalkOf(sources: BulkSourceStore, year: number): Promise<BulkValue | undefined> {
  const rows = await sources.listCrosswalks(year - 1);
  if (rows.length === 0) return undefined;
  const reasons = [...new Set(rows.map((r) => r.reason))].sort((a, b) => a - b);
  return {
    levels: CROSSWALK_LEVELS,
    reasons: reasons.map((code) => ({
      code,
      description: REASONS[code] ?? `Reason code ${code} (Plan ID Crosswalk PUF data dictionary)`,
    })),
    data: crosswalkData(rows),
  };
}

/** The age bands of `DecileUtilizationAgeMap`: upper bounds of age. */
export const DECILE_AGES = [6, 18, 26, 35, 45, 55, 999] as const;
export const DECILE_UTILIZATIONS = ['low', 'medium', 'high'] as const;
/** `female` as stored; the CMS document spells the field `femaile`, and so does the answer. */
export const DECILE_GENDERS = ['male', 'female'] as const;

/** `DecileMapping`: utilization × gender × age band → "Decile n", from the file an operator loaded. */
function decileMappingOf(rows: DecileRow[]): BulkValue | undefined {
  if (rows.length === 0) return undefined;
  const mapping: Record<string, Record<string, Record<string, string>>> = {};
  for (const utilization of DECILE_UTILIZATIONS) {
    mapping[utilization] = {};
    for (const gender of DECILE_GENDERS) {
      const ages: Record<string, string> = {};
      for (const row of rows) {
        if (row.utilization === utilization && row.gender === gender)
          ages[String(row.ageMax)] = `Decile ${row.decile}`;
      }
      mapping[utilization][gender === 'female' ? 'femaile' : gender] = ages;
    }
  }
  return mapping;
}

export const BULK_DOCUMENTS: readonly BulkDefinition[] = [
  {
    name: 'apt',
    summary: 'Applicable percentage table of the premium tax credit (IRS Rev. Procs; 26 U.S.C. 36B)',
    kinds: [],
    build: async (_sources, year) => aptOf(year),
  },
  {
    name: 'decile-mapping',
    summary: 'OOPC utilization decile mapping, from the file an operator loads (no public source)',
    kinds: ['decile-mapping'],
    build: async (sources, year) => decileMappingOf(await sources.listDecileMapping(year)),
  },
  {
    name: 'state-medicaid',
    summary: 'Medicaid and CHIP income limits of every state, per quarter loaded',
    kinds: ['medicaid'],
    build: stateMedicaidOf,
  },
  {
    name: 'rate-areas',
    summary: 'Rating areas of every state, with their counties and ZIP codes',
    kinds: ['counties', 'zip-county', 'rating-areas', 'landscape'],
    build: rateAreasOf,
  },
  {
    name: 'county-zips',
    summary: 'Counties of every state with their ZIP codes (HUD ZIP–county crosswalk, Census names)',
    kinds: ['counties', 'zip-county'],
    build: (sources) => countyZipsOf(sources),
  },
  {
    name: 'crosswalk',
    summary: 'Plan ID Crosswalk into the market year (plans of the year before → plans of the year)',
    kinds: ['crosswalk'],
    build: crosswalkOf,
  },
];
