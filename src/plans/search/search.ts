import type { CsrOverride } from '../eligibility/csr.js';
import { planError } from '../errors.js';
import type { HouseholdEligibility } from '../household/household-eligibility.js';
import type { SettledHousehold } from '../household/household.js';
import type { MarketPlan } from '../market/county-market.js';
import { centsToDollars, type Cents } from '../pricing/money.js';
import { CreditPricer, type CreditedSums, type PricedPlan } from '../quote/credit-pricer.js';
import type { PlanOopc } from '../quote/oopc/plan-oopc.js';
import type { PricedContext } from '../quote/priced-context.js';
import { termsOfAll, type ListTerms } from '../quote/rate-matrix.js';
import { shownDeductible, shownDeductibles } from '../quote/shown-variant.js';
import type { CsrVariant } from '../store/plan-detail.js';
import type { IneligibleReason } from '../household/enrollment-rules.js';
import type { CoverageFilter } from './coverage-filter.js';
import { candidateTest, matchesFilter, type PlanSearchFilterInput } from './search-filter.js';
import { dentalTest } from './dental-filter.js';

/** Catastrophic plans are for people under 30 (45 CFR 156.155(a)(1)) or with a hardship exemption. */
const CATASTROPHIC_AGE_LIMIT = 30;

/**
 * Whether the search shows catastrophic plans: `catastrophic_override` decides when given; else only when
 * every enrolling member (no `has_mec`) is under 30 or someone has a hardship exemption
 * (docs/decisions.md#catastrophic-plans).
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
  /** Who the issuer's business rules refuse (`is_ineligible`), for a row priced from the matrix. */
  ineligible: readonly IneligibleReason[];
  /** The yearly out-of-pocket estimate in the variant `csr` (quote/yearly-cost.ts). */
  oopc: PlanOopc;
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
    ineligible: priced.ineligible,
    oopc: priced.oopc,
    full: priced,
  };
}

function quickRow(
  plan: MarketPlan,
  csr: CsrVariant,
  deductible: number | null,
  sums: CreditedSums,
  ineligible: readonly IneligibleReason[],
  oopc: PlanOopc,
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
    ineligible,
    oopc,
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
    ineligible: row.ineligible,
    oopc: row.oopc,
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
      row = quickRow(
        plan,
        csr,
        deductibles[i]!,
        sums,
        pricer.pricer.ineligible(plan),
        pricer.yearly.of(plan, csr),
      );
    } else {
      row = fullRow(pricer.full(plan));
    }
    if (matchesFilter(row, filter)) rows.push(row);
  }
  return rows;
}

/** What of a search request decides which plans match, and the variant each shows. */
export interface SearchQuestion {
  filter?: PlanSearchFilterInput;
  catastrophic_override?: boolean;
  suppressed_plan_ids?: string[];
  csr_override?: CsrOverride;
}

/** The matching plans of a search, priced, in market order (sorting and paging are the caller's). */
export function matchingRows(
  context: PricedContext,
  question: SearchQuestion,
  coverage?: CoverageFilter,
): SearchRow[] {
  const { market, household, eligibility, year } = context;
  const shown = showCatastrophic(household, eligibility, question.catastrophic_override);
  const pricer = new CreditPricer(year, household, eligibility, question.csr_override, context.yearly);
  const yearly = pricer.yearly.household;
  if (question.filter?.oopc !== undefined && !yearly.ok && yearly.unavailable.code === 'person-incomplete') {
    // Nothing could meet the criterion: say why rather than answer no plans.
    throw planError(1003, `filter.oopc: ${yearly.unavailable.reason}`, 'invalid plan search request');
  }
  return searchRows(
    termsOfAll(market.plans, household.effectiveDate, year),
    pricer,
    candidateTest(
      question.filter,
      shown,
      question.suppressed_plan_ids,
      coverage?.keep,
      dentalTest(market.plans, question.filter),
    ),
    question.filter,
  );
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

/**
 * `ranges` over the whole result: premiums from `premium_w_credit`, deductibles
 * (docs/decisions.md#plan-search-results).
 */
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
