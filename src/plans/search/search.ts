import type { HouseholdEligibility, SettledHousehold } from '../household/household.js';
import type { MarketPlan } from '../market/county-market.js';
import { centsToDollars } from '../pricing/money.js';
import type { PlanSearchFilterInput } from '../routes/household-input.js';
import type { CreditedSums, CreditPricer, ListTerms, PricedPlan } from './pricing.js';
import type { Cents } from '../pricing/money.js';
import type { CsrVariant } from '../store/plan-detail.js';
import { shownDeductible, shownDeductibles } from './render.js';

/** Catastrophic plans are for people under 30 (45 CFR 156.155(a)(1)) or with a hardship exemption. */
const CATASTROPHIC_AGE_LIMIT = 30;

/**
 * Whether the search shows catastrophic plans: `catastrophic_override` decides when given; else only when
 * every enrolling member (no `has_mec`) is under 30 or someone has a hardship exemption (research §3.1).
 * With nobody enrolling, shown.
 */
export function showCatastrophic(
  household: SettledHousehold,
  eligibility: HouseholdEligibility,
  override: boolean | undefined,
): boolean {
  if (override !== undefined) return override;
  // The people who enrol: someone with other coverage (`has_mec`) is not on the policy.
  const enrolling = household.members.filter((m) => !m.input.has_mec);
  if (enrolling.length === 0) return true;
  return (
    enrolling.every((m) => m.age < CATASTROPHIC_AGE_LIMIT) || eligibility.people.some((p) => p.inCoverageGap)
  );
}

/** Which plans a search starts from: division (medical by default), catastrophic visibility, suppressions. */
export function candidateTest(
  filter: PlanSearchFilterInput | undefined,
  catastrophic: boolean,
  suppressed: readonly string[] | undefined,
  only?: ReadonlySet<string>,
): (plan: MarketPlan) => boolean {
  const dental = filter?.division === 'Dental';
  const hidden = suppressed && suppressed.length > 0 ? new Set(suppressed) : undefined;
  return (p) =>
    p.dental === dental &&
    (catastrophic || !p.catastrophic) &&
    !hidden?.has(p.id) &&
    (!only || only.has(p.id));
}

/**
 * A priced plan of a search with the figures filters and sorts use (dollars; null where unknown). Every
 * row has the same fields: one priced from the rate matrix (`CreditPricer.quick`) carries its sums, one
 * priced in full (`CreditPricer.full`: an unusual plan, or one without a premium) its `PricedPlan`.
 */
export interface SearchRow {
  plan: MarketPlan;
  /** `premium_w_credit` in dollars; null when the plan has no premium for the household. */
  premiumWithCredit: number | null;
  deductible: number | null;
  csr: CsrVariant;
  /** The sums of a row priced from the matrix, cents (0 when `full` is set). */
  premium: Cents;
  ehbPremium: Cents;
  aptcEligiblePremium: Cents;
  credit: Cents;
  withCredit: Cents;
  full: PricedPlan | null;
}

function fullRow(priced: PricedPlan): SearchRow {
  return {
    plan: priced.plan,
    premiumWithCredit: priced.premium.available ? centsToDollars(priced.premiumWithCredit) : null,
    deductible: shownDeductible(priced.plan.details, priced.csr),
    csr: priced.csr,
    premium: 0,
    ehbPremium: 0,
    aptcEligiblePremium: 0,
    credit: 0,
    withCredit: 0,
    full: priced,
  };
}

function quickRow(
  plan: MarketPlan,
  csr: CsrVariant,
  deductible: number | null,
  sums: CreditedSums,
): SearchRow {
  return {
    plan,
    premiumWithCredit: centsToDollars(sums.premiumWithCredit),
    deductible,
    csr,
    premium: sums.premium,
    ehbPremium: sums.ehbPremium,
    aptcEligiblePremium: sums.aptcEligiblePremium,
    credit: sums.credit,
    withCredit: sums.premiumWithCredit,
    full: null,
  };
}

/**
 * The row's plan priced in full, for the plans an answer shows. The county market carries no pediatric
 * dental apportionment, so a matrix-priced row's is null, as in `HouseholdPricer.price`.
 */
export function pricedPlanOf(row: SearchRow): PricedPlan {
  if (row.full) return row.full;
  return {
    plan: row.plan,
    csr: row.csr,
    premium: {
      available: true,
      premium: row.premium,
      ehbPremium: row.ehbPremium,
      aptcEligiblePremium: row.aptcEligiblePremium,
      pediatricEhbPremium: null,
      members: [],
    },
    credit: row.credit,
    premiumWithCredit: row.withCredit,
  };
}

/**
 * A search's rows: the candidate plans of `terms.plans` (in their order) priced for the household that
 * match the filter. Most plans are priced from the terms' rate matrix without allocating anything but
 * their row; the others in full.
 */
export function searchRows(
  terms: ListTerms,
  pricer: CreditPricer,
  candidate: (plan: MarketPlan) => boolean,
  filter: PlanSearchFilterInput | undefined,
): SearchRow[] {
  const rows: SearchRow[] = [];
  const plans = terms.plans;
  const sums: CreditedSums = {
    premium: 0,
    ehbPremium: 0,
    aptcEligiblePremium: 0,
    credit: 0,
    premiumWithCredit: 0,
  };
  // The deductible each plan shows, per variant (a search sees at most two: its silver one and the rest's).
  const byCsr = new Map<CsrVariant, readonly (number | null)[]>();
  for (let i = 0; i < plans.length; i += 1) {
    const plan = plans[i]!;
    if (!candidate(plan)) continue;
    let row: SearchRow;
    if (pricer.quick(terms, i, sums)) {
      const csr = pricer.csrFor(plan);
      let deductibles = byCsr.get(csr);
      if (!deductibles) {
        deductibles = shownDeductibles(plans, csr);
        byCsr.set(csr, deductibles);
      }
      row = quickRow(plan, csr, deductibles[i]!, sums);
    } else {
      row = fullRow(pricer.full(plan));
    }
    if (matches(row, filter)) rows.push(row);
  }
  return rows;
}

const lower = (s: string) => s.trim().toLowerCase();

function within(value: number | null, range: { min?: number; max?: number } | undefined): boolean {
  if (!range) return true;
  if (value === null) return false;
  return (range.min === undefined || value >= range.min) && (range.max === undefined || value <= range.max);
}

/**
 * PlanSearchFilter: every given criterion must hold. Premium criteria are on `premium_w_credit`; a plan
 * without a premium for the household fails them. `issuers` matches issuer names (case-insensitive) or
 * 5-digit issuer ids. `simple_choice`: no file we load marks simple-choice plans, so `true` matches none.
 */
function matches(row: SearchRow, filter: PlanSearchFilterInput | undefined): boolean {
  if (!filter) return true;
  const plan = row.plan;
  const metals: string[] = [
    ...(filter.metal_levels ?? []),
    ...(filter.metal_level ? [filter.metal_level] : []),
  ];
  if (metals.length > 0 && !metals.includes(plan.metalLevel)) return false;
  const types: string[] = [...(filter.types ?? []), ...(filter.type ? [filter.type] : [])];
  if (types.length > 0 && !types.includes(plan.type)) return false;
  if (filter.design_types?.length && !(filter.design_types as string[]).includes(plan.designType))
    return false;
  if (filter.metal_design_types?.length) {
    const ok = filter.metal_design_types.some(
      (m) => m.metal_level === plan.metalLevel && (m.design_types as string[]).includes(plan.designType),
    );
    if (!ok) return false;
  }
  const issuers = [...(filter.issuers ?? []), ...(filter.issuer ? [filter.issuer] : [])].map(lower);
  if (issuers.length > 0 && !issuers.includes(lower(plan.issuerName)) && !issuers.includes(plan.issuerId)) {
    return false;
  }
  if (filter.hsa !== undefined && plan.hsaEligible !== filter.hsa) return false;
  if (filter.premium !== undefined && !within(row.premiumWithCredit, { max: filter.premium })) return false;
  if (!within(row.premiumWithCredit, filter.premium_range)) return false;
  if (filter.deductible !== undefined && !within(row.deductible, { max: filter.deductible })) return false;
  if (!within(row.deductible, filter.deductible_range)) return false;
  if (filter.quality_rating !== undefined && plan.qualityRating < filter.quality_rating) return false;
  if (filter.disease_mgmt_programs?.length) {
    const offered = new Set(plan.details.disease_mgmt_programs);
    if (!filter.disease_mgmt_programs.every((d) => offered.has(d))) return false;
  }
  if (filter.simple_choice === true) return false;
  return true;
}

export interface Facet {
  value: string;
  count: number;
}

/** Counts over the whole filtered result, per metal level, plan type, issuer and design type. */
export function facetGroups(rows: readonly SearchRow[]): { name: string; facets: Facet[] }[] {
  const metal = new Map<string, number>();
  const type = new Map<string, number>();
  const issuer = new Map<string, number>();
  const design = new Map<string, number>();
  for (const row of rows) {
    const plan = row.plan;
    metal.set(plan.metalLevel, (metal.get(plan.metalLevel) ?? 0) + 1);
    type.set(plan.type, (type.get(plan.type) ?? 0) + 1);
    issuer.set(plan.issuerName, (issuer.get(plan.issuerName) ?? 0) + 1);
    design.set(plan.designType, (design.get(plan.designType) ?? 0) + 1);
  }
  const facets = (counts: Map<string, number>) =>
    [...counts]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1));
  return [
    { name: 'metal_level', facets: facets(metal) },
    { name: 'type', facets: facets(type) },
    { name: 'issuer', facets: facets(issuer) },
    { name: 'design_type', facets: facets(design) },
  ];
}

/** `ranges` over the whole result: premiums from `premium_w_credit` (research §1.3), deductibles. */
export function ranges(rows: readonly SearchRow[]) {
  const premiums = { min: Infinity, max: -Infinity };
  const deductibles = { min: Infinity, max: -Infinity };
  const widen = (range: { min: number; max: number }, value: number | null) => {
    if (value === null) return;
    if (value < range.min) range.min = value;
    if (value > range.max) range.max = value;
  };
  for (const row of rows) {
    widen(premiums, row.premiumWithCredit);
    widen(deductibles, row.deductible);
  }
  // No figure at all (no plan, or none with a premium for the household): null to null, never 0 to 0,
  // which would read as free plans.
  const settled = (range: { min: number; max: number }): { min: number | null; max: number | null } =>
    range.min === Infinity ? { min: null, max: null } : range;
  return { premiums: settled(premiums), deductibles: settled(deductibles) };
}

export type SortKey = 'premium' | 'deductible' | 'oopc' | 'total_costs' | 'quality_rating';

interface Keyed {
  row: SearchRow;
  k: number | null;
  premium: number;
}

/**
 * Sort keys: `premium` = premium after credit; `deductible` = the individual in-network deductible of the
 * variant shown; `total_costs` = 12 × premium after credit + that deductible (our estimate: the CMS OOPC
 * model is not public); `oopc` is -1 for every plan, so it orders by premium, then plan id;
 * `quality_rating` = overall rating. Unknown figures sort last in either order; ties by premium, then plan id.
 */
const SORT_KEYS: Readonly<Record<SortKey, (row: SearchRow) => number | null>> = {
  premium: (row) => row.premiumWithCredit,
  deductible: (row) => row.deductible,
  total_costs: (row) =>
    row.premiumWithCredit === null ? null : row.premiumWithCredit * 12 + (row.deductible ?? 0),
  quality_rating: (row) => row.plan.qualityRating,
  oopc: () => 0,
};

/** Ascending (`direction` 1) or descending (-1) by key; unknown keys last; ties by premium, then plan id. */
function compareKeyed(a: Keyed, b: Keyed, direction: number): number {
  if (a.k !== b.k) {
    if (a.k === null) return 1;
    if (b.k === null) return -1;
    return (a.k - b.k) * direction;
  }
  if (a.premium !== b.premium) return a.premium < b.premium ? -1 : 1;
  return a.row.plan.id < b.row.plan.id ? -1 : 1;
}

/**
 * Rows `offset` … `offset + limit − 1` of the result in that order. A first page is picked from the rows
 * in one pass (a sorted run of `offset + limit` kept by binary insertion) instead of sorting them all:
 * the order of the rest is never shown, and `total`, facets and ranges do not depend on it.
 */
export function sortedPage(
  rows: readonly SearchRow[],
  sort: SortKey | undefined,
  order: 'asc' | 'desc' | undefined,
  offset: number,
  limit: number,
): SearchRow[] {
  const key = SORT_KEYS[sort ?? 'premium'];
  const direction = order === 'desc' ? -1 : 1;
  const keyed = (row: SearchRow): Keyed => ({ row, k: key(row), premium: row.premiumWithCredit ?? Infinity });
  const wanted = Math.min(rows.length, offset + limit);
  if (wanted === 0) return [];
  if (wanted * 4 >= rows.length) {
    return rows
      .map(keyed)
      .sort((a, b) => compareKeyed(a, b, direction))
      .slice(offset, offset + limit)
      .map((k) => k.row);
  }
  const best: Keyed[] = [];
  const probe: Keyed = { row: rows[0]!, k: null, premium: 0 };
  for (const row of rows) {
    // Rows that cannot enter the page are compared through one reused probe, not a new object each.
    probe.row = row;
    probe.k = key(row);
    probe.premium = row.premiumWithCredit ?? Infinity;
    if (best.length === wanted && compareKeyed(probe, best[wanted - 1]!, direction) >= 0) continue;
    const item: Keyed = { row, k: probe.k, premium: probe.premium };
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKeyed(best[mid]!, item, direction) <= 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, item);
    if (best.length > wanted) best.pop();
  }
  return best.slice(offset).map((k) => k.row);
}
