import type { Kysely } from 'kysely';
import type { Database, PlanRatesTable } from '../../storage/schema.js';
import {
  derivedAgePremium,
  landscapeCurve,
  publishedPrecision,
  reconstructedAge21,
} from '../pricing/landscape-derivation.js';
import { FAMILY_OPTION_AGE_KEY } from '../pricing/family-tier.js';
import type { RateLookup, RateRow } from '../pricing/premium.js';
import type { AgeRule } from '../pricing/age.js';
import { enrollmentRulesOf, type EnrollmentRules } from '../household/enrollment-rules.js';
import { mergeBusinessRules, type BusinessRule, type RatedChildrenRule } from '../store/business-rules.js';
import type { PlanDetails } from '../store/plan-details.js';
import { dentalCoverageOf, type DentalCoverage } from './dental-coverage.js';
import type { MarketKind } from './market-kind.js';

/**
 * A county's market in one plan year: the plans sold in the county (each with the ZIPs it is limited to,
 * if any) and the rates each charges in one rating area, read once from the database and then priced for any household
 * (pricing/, eligibility/) without further I/O.
 */

/** Where a household lives (CMS `Place`). */
export interface Place {
  countyfips: string;
  state: string;
  zipcode: string;
}

/** Where a plan's rates come from, for the answer's honesty about them. */
export type RateSource = 'rate-puf' | 'landscape' | 'none';

/** A plan as the market holds it: what filters and sorts need, its rates, and its details for the answer. */
export interface MarketPlan {
  id: string;
  /** The ZIPs of the county it is sold in (a partial-county service area), or null: the whole county. */
  zips: ReadonlySet<string> | null;
  issuerId: string;
  issuerName: string;
  name: string;
  metalLevel: string;
  type: string;
  designType: string;
  hsaEligible: boolean;
  catastrophic: boolean;
  dental: boolean;
  market: string;
  /** `EHBPercentTotalPremium`; null where the source does not publish it (landscape 2014–2015). */
  ehbShare: number | null;
  /** Quality rating (0 = not rated). */
  qualityRating: number;
  /** Months tobacco-free before a person is rated as a non-user (Business Rules PUF), when known. */
  tobaccoLookback: number | null;
  /** The issuer's `AgeDeterminationRule` (Business Rules PUF); the effective date when not stated. */
  ageRule: AgeRule;
  /**
   * The issuer's `CohabitationRule`: whether a dependant of this relationship must live with the
   * subscriber (Business Rules PUF); undefined when the data has no rule for the plan.
   */
  cohabitationRequired?: (relationship: string | null | undefined) => boolean;
  /** Who the issuer accepts as dependents, and up to what age (Business Rules PUF); null without rules. */
  enrollment: EnrollmentRules | null;
  /** The issuer's limits on rated children below the federal three (Business Rules PUF); null without. */
  ratedChildren: RatedChildrenRule | null;
  /** A stand-alone dental plan's pediatric dental EHB share (Plan Attributes PUF); null when not stated. */
  pediatricDentalShare: number | null;
  /** Whether the plan covers dental care for children and for adults (Benefits PUF); null when unknown. */
  dentalCoverage: DentalCoverage;
  rateSource: RateSource;
  /** The plan's rates on a coverage effective date; undefined when it has none in force that day. */
  ratesOn(effectiveDate: string): RateLookup | undefined;
  details: PlanDetails;
}

export interface CountyMarket {
  year: number;
  place: Place;
  ratingArea: number;
  plans: MarketPlan[];
}

/** The columns of a stored Rate PUF row that pricing reads. */
type PufRate = Pick<
  PlanRatesTable,
  'age' | 'tobacco' | 'effective_date' | 'expiration_date' | 'individual_rate' | 'tobacco_rate'
>;

/**
 * Rate PUF rows of one plan and area as a lookup for a date: the rows whose RateEffectiveDate ≤ date ≤
 * RateExpirationDate (a plan may file quarterly rates). `Tobacco` "No Preference" rows carry no tobacco
 * rate: users pay the individual rate (premium.ts reads `tobaccoRate: null` that way).
 */
function pufRates(rows: PufRate[]): (date: string) => RateLookup | undefined {
  const byDate = new Map<string, RateLookup | undefined>();
  return (date) => {
    if (byDate.has(date)) return byDate.get(date);
    const table = new Map<string, RateRow>();
    for (const row of rows) {
      if (row.effective_date > date || row.expiration_date < date) continue;
      table.set(row.age, {
        individualRate: Number(row.individual_rate),
        tobaccoRate: row.tobacco_rate === null ? null : Number(row.tobacco_rate),
      });
    }
    const lookup: RateLookup | undefined = table.size === 0 ? undefined : (ageKey) => table.get(ageKey);
    if (byDate.size < 64) byDate.set(date, lookup);
    return lookup;
  };
}

/** `0-20` → 0, `21` → 21, `64 and over` → 64: the age a pre-2018 Rate PUF key stands for on the curve. */
function ageOfKey(ageKey: string): number | undefined {
  if (ageKey === '0-20' || ageKey === '0-14') return 0;
  if (ageKey === '64 and over') return 64;
  return /^\d{1,2}$/.test(ageKey) ? Number(ageKey) : undefined;
}

/** Landscape premium keys that price one age band exactly (pre-2018 bands: `child` is 0–20). */
const PUBLISHED_AGES: Readonly<Record<string, number>> = {
  child: 0,
  adult_21: 21,
  adult_27: 27,
  adult_30: 30,
  adult_40: 40,
  adult_50: 50,
  adult_60: 60,
};

/**
 * Rates from a QHP Landscape row (2014–2017). An age the file publishes (child, 21, 27, 30, 40, 50, 60) is
 * quoted as published; any other age is DERIVED: the row's base rate × the federal default age curve of
 * the year (pricing/landscape-derivation.ts says why that holds for those files). The base is the age-21
 * premium reconstructed from all the row's published columns (`reconstructedAge21`), which reproduces
 * every published cell within rounding, where the published age-21 figure alone is a step off in a few
 * issuers' rows. The files publish premiums of non-tobacco users only, so a tobacco user has no rate
 * from them (`undefined`): the answer says the plan has no rate for that household rather than
 * inventing a surcharge.
 */
function landscapeRates(year: number, premiums: Record<string, number>): RateLookup | undefined {
  const curve = landscapeCurve(year);
  if (!curve) return undefined;
  const published = new Map<number, number>();
  for (const [key, age] of Object.entries(PUBLISHED_AGES)) {
    const cents = premiums[key];
    if (cents !== undefined) published.set(age, cents);
  }
  if (!published.has(21)) return undefined;
  const columns = [...published].map(([age, cents]) => [age, cents] as const);
  const base = reconstructedAge21(columns, curve, publishedPrecision(published.values()));
  const cache = new Map<string, RateRow | undefined>();
  return (ageKey, tobacco) => {
    if (tobacco || ageKey === FAMILY_OPTION_AGE_KEY) return undefined;
    if (cache.has(ageKey)) return cache.get(ageKey);
    const age = ageOfKey(ageKey);
    const row =
      age === undefined
        ? undefined
        : { individualRate: published.get(age) ?? derivedAgePremium(base, age, curve), tobaccoRate: null };
    cache.set(ageKey, row);
    return row;
  };
}

/**
 * The Business Rules PUF's age and cohabitation rules of a plan. `AgeDeterminationRule` "Age on January 1st
 * of the effective date year" rates by age on 1 January; "Age on effective date" and anything else
 * (2 of 1,686 PY2014 rows say "age on insurance date", which we do not model) by age on the effective date.
 */
function issuerRules(
  issuerId: string,
  rule: BusinessRule | null,
): Pick<MarketPlan, 'ageRule' | 'cohabitationRequired' | 'enrollment' | 'ratedChildren'> {
  const ageRule: AgeRule =
    rule?.ageRule && /january\s*1/i.test(rule.ageRule) ? 'january-1' : 'effective-date';
  const limits = rule?.ratedChildren;
  const rules = {
    ageRule,
    enrollment: enrollmentRulesOf(issuerId, rule),
    ratedChildren: limits && Object.values(limits).some((v) => v !== null) ? limits : null,
  };
  if (!rule || rule.cohabitation.length === 0) return rules;
  const required = new Map(rule.cohabitation.map((c) => [c.relationship, c.cohabitation_required]));
  return { ...rules, cohabitationRequired: (relationship) => required.get(relationship ?? '') ?? false };
}

/**
 * `EHBPediatricDentalApportionmentQuantity` as the ingest keeps it in `plans.detail`: the share of a
 * stand-alone dental plan's child premium that is pediatric dental EHB (PY2025: 1.0, 0.993, 0.46, …).
 */
function pediatricShareOf(detail: string): number | null {
  const share = (JSON.parse(detail) as { pediatric_dental_ehb_share?: unknown }).pediatric_dental_ehb_share;
  return typeof share === 'number' && share > 0 && share <= 1 ? share : null;
}

function marketsOf(market: MarketKind): string[] {
  return market === 'Any' ? ['Individual', 'SHOP'] : [market];
}

/** Reads a county market: availability, rates and details, a fixed number of queries per call. */
export function createCountyMarketReader(
  db: Kysely<Database>,
  details: { findManyPlanDetails(year: number, ids: readonly string[]): Promise<Map<string, PlanDetails>> },
) {
  /**
   * Plans of the Plan Attributes PUF sold in the county: their issuer's service area (Service Area PUF)
   * covers the whole state, the whole county, or — for a partial county — listed ZIPs; same market. Each
   * id maps to the ZIPs it is limited to, or null where it is sold in the whole county.
   */
  async function pufPlans(
    year: number,
    place: Place,
    markets: string[],
  ): Promise<Map<string, Set<string> | null>> {
    const [county, statewide] = await Promise.all([
      db
        .selectFrom('service_areas')
        .select(['issuer_id', 'service_area_id', 'partial_county', 'zips', 'market'])
        .where('year', '=', year)
        .where('fips', '=', place.countyfips)
        .execute(),
      db
        .selectFrom('service_areas')
        .select(['issuer_id', 'service_area_id', 'partial_county', 'zips', 'market'])
        .where('year', '=', year)
        .where('state', '=', place.state)
        .where('cover_entire_state', '=', 1)
        .execute(),
    ]);
    // Per service area: null = the whole county; else the union of the ZIPs its partial rows list.
    const areas = new Map<string, Set<string> | null>();
    for (const row of [...county, ...statewide]) {
      if (!markets.includes(row.market)) continue;
      const key = `${row.issuer_id}|${row.service_area_id}|${row.market}`;
      if (Number(row.partial_county) !== 1) {
        areas.set(key, null);
        continue;
      }
      const known = areas.get(key);
      if (known === null) continue;
      const zips = known ?? new Set<string>();
      for (const zip of row.zips.split(',')) if (zip) zips.add(zip);
      areas.set(key, zips);
    }
    const out = new Map<string, Set<string> | null>();
    if (areas.size === 0) return out;
    const issuers = [...new Set([...areas.keys()].map((a) => a.split('|')[0]!))];
    const plans = await db
      .selectFrom('plans')
      .select(['plan_id', 'issuer_id', 'service_area_id', 'market'])
      .where('year', '=', year)
      .where('source', '=', 'plan-attributes')
      .where('issuer_id', 'in', issuers)
      .execute();
    for (const p of plans) {
      const limit = areas.get(`${p.issuer_id}|${p.service_area_id ?? ''}|${p.market}`);
      if (limit !== undefined) out.set(p.plan_id, limit);
    }
    return out;
  }

  /**
   * The landscape lists the county, but only in other rating areas than the place's: the 2014 files give
   * each county one area, while the year's rating-area table places some of its ZIPs in another (Idaho
   * 2014 was rated by 3-digit ZIP: Melba, 836xx in Ada County, is area 5; the file lists Ada in area 6
   * only). The plans are sold in the county, and a plan's premium depends on its rating area, not its
   * county (45 CFR 147.102(a)(1)(ii)): every landscape file lists one premium set per plan and area, so the
   * plan's row of the place's area in any other county is its rate here. Fills `landscape` with those
   * and returns the county's plans that have no row in the area anywhere (listed, without a rate).
   */
  async function ratesFromOtherCounties(
    year: number,
    countyRows: readonly { plan_id: string }[],
    ratingArea: number,
    landscape: Map<string, Record<string, number>>,
  ): Promise<string[]> {
    const planIds = [...new Set(countyRows.map((r) => r.plan_id))];
    const rows = await db
      .selectFrom('plan_counties')
      .select(['plan_id', 'premiums'])
      .where('year', '=', year)
      .where('plan_id', 'in', planIds)
      .where('rating_area', '=', ratingArea)
      .execute();
    for (const row of rows) {
      if (!landscape.has(row.plan_id)) {
        landscape.set(row.plan_id, JSON.parse(row.premiums) as Record<string, number>);
      }
    }
    return planIds.filter((id) => !landscape.has(id));
  }

  return {
    async read(year: number, place: Place, ratingArea: number, market: MarketKind): Promise<CountyMarket> {
      const markets = marketsOf(market);
      const [pufLimits, landscapeRows] = await Promise.all([
        pufPlans(year, place, markets),
        db
          .selectFrom('plan_counties')
          .select(['plan_id', 'rating_area', 'premiums'])
          .where('year', '=', year)
          .where('fips', '=', place.countyfips)
          .execute(),
      ]);
      // A county the landscape splits between areas lists a plan once per area: the place's area only.
      const landscape = new Map(
        landscapeRows
          .filter((r) => Number(r.rating_area) === ratingArea)
          .map((r) => [r.plan_id, JSON.parse(r.premiums) as Record<string, number>]),
      );
      const unrated =
        landscape.size === 0 && landscapeRows.length > 0
          ? await ratesFromOtherCounties(year, landscapeRows, ratingArea, landscape)
          : [];
      const pufIds = [...pufLimits.keys()];
      const ids = [...new Set([...pufIds, ...landscape.keys(), ...unrated])];
      if (ids.length === 0) return { year, place, ratingArea, plans: [] };
      const issuerIds = [...new Set(ids.map((id) => id.slice(0, 5)))];
      const [found, rateRows, planRows, ruleRows] = await Promise.all([
        details.findManyPlanDetails(year, ids),
        pufIds.length === 0
          ? []
          : db
              .selectFrom('plan_rates')
              .select([
                'plan_id',
                'age',
                'tobacco',
                'effective_date',
                'expiration_date',
                'individual_rate',
                'tobacco_rate',
              ])
              .where('year', '=', year)
              .where('plan_id', 'in', pufIds)
              .where('rating_area', '=', ratingArea)
              .execute(),
        db
          .selectFrom('plans')
          .select(['plan_id', 'ehb_pct', 'market', 'detail'])
          .where('year', '=', year)
          .where('plan_id', 'in', ids)
          .execute(),
        db
          .selectFrom('business_rules')
          .select(['issuer_id', 'scope_id', 'detail'])
          .where('year', '=', year)
          .where('issuer_id', 'in', issuerIds)
          .execute(),
      ]);
      const rulesOf = (planId: string) => {
        const scopes = new Set([planId, planId.slice(0, 10), planId.slice(0, 5)]);
        const rows = ruleRows.filter((r) => scopes.has(r.scope_id));
        return rows.length === 0 ? null : mergeBusinessRules(rows);
      };
      const ratesOf = new Map<string, PufRate[]>();
      for (const row of rateRows) {
        const list = ratesOf.get(row.plan_id);
        if (list) list.push(row);
        else ratesOf.set(row.plan_id, [row]);
      }
      const planRow = new Map(planRows.map((p) => [p.plan_id, p]));
      const plans: MarketPlan[] = [];
      for (const id of ids) {
        const d = found.get(id);
        const row = planRow.get(id);
        if (!d || !row || !markets.includes(row.market)) continue;
        const puf = ratesOf.get(id);
        const published = landscape.get(id);
        let rateSource: RateSource = 'none';
        let ratesOn: MarketPlan['ratesOn'] = () => undefined;
        if (puf && puf.length > 0) {
          rateSource = 'rate-puf';
          ratesOn = pufRates(puf);
        } else if (published) {
          const lookup = landscapeRates(year, published);
          if (lookup) {
            rateSource = 'landscape';
            ratesOn = () => lookup;
          }
        }
        plans.push({
          zips: pufLimits.get(id) ?? null,
          id,
          issuerId: d.issuer.id,
          issuerName: d.issuer.name,
          name: d.name,
          metalLevel: d.metal_level,
          type: d.type,
          designType: d.design_type,
          hsaEligible: d.hsa_eligible,
          catastrophic: d.metal_level === 'Catastrophic',
          dental: d.product_division === 'Dental',
          market: d.market,
          ehbShare: row.ehb_pct === null ? null : Number(row.ehb_pct),
          qualityRating: d.quality_rating.global_rating,
          tobaccoLookback: d.tobacco_lookback ?? null,
          ...issuerRules(d.issuer.id, rulesOf(id)),
          pediatricDentalShare: d.product_division === 'Dental' ? pediatricShareOf(row.detail) : null,
          dentalCoverage: dentalCoverageOf(d.benefits),
          rateSource,
          ratesOn,
          details: d,
        });
      }
      plans.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      return { year, place, ratingArea, plans };
    },
  };
}

export type CountyMarketReader = ReturnType<typeof createCountyMarketReader>;
