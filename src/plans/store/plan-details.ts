import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { mergeBusinessRules } from './business-rules.js';
import type { Issuer } from './issuers.js';
import type { CostLimit, CsrVariant, PlanDetail, SbcScenario, VariantDetail } from './plan-detail.js';
import { gatherBenefits, type PlanBenefit, type VariantBenefit } from './plan-benefits.js';
import { QUALITY_COLUMNS, toQualityRating, type QualityRating, type QualityRow } from './quality.js';

/**
 * The key of what the out-of-pocket estimate reads of a plan beyond the API's Plan: a symbol, so it
 * follows the details through spreads but no answer ever writes it (JSON and the response serialiser skip
 * symbol keys).
 */
export const COST_TERMS: unique symbol = Symbol('plan cost terms');

/** One variant's Plan Attributes cells for the out-of-pocket estimate (undefined: stored before they were kept). */
export interface VariantCostTerms {
  csr: CsrVariant;
  specialtyDrugMaxCoinsurance: number | null | undefined;
  inpatientCopayMaxDays: number | null | undefined;
  primaryCareCostSharingAfterVisits: number | null | undefined;
  primaryCareDeductibleAfterCopays: number | null | undefined;
  /** The variant's own Benefits PUF rows, by benefit name (empty when none is loaded). */
  benefits: ReadonlyMap<string, VariantBenefit>;
}

/** CMS `Plan` as `GET /plans/{plan_id}` shows it: no premium, no household. */
export interface PlanDetails {
  /** Per variant, what the out-of-pocket estimate reads (see `COST_TERMS`). */
  [COST_TERMS]?: readonly VariantCostTerms[];
  id: string;
  name: string;
  issuer: Issuer;
  metal_level: string;
  type: string;
  design_type: string;
  is_standardized_plan: boolean;
  market: string;
  state: string;
  product_division: 'HealthCare' | 'Dental';
  insurance_market: 'QHP';
  hsa_eligible: boolean;
  has_national_network: boolean;
  specialist_referral_required: boolean;
  guaranteed_rate: boolean;
  disease_mgmt_programs: string[];
  benefits_url: string;
  brochure_url: string;
  formulary_url: string;
  network_url: string;
  service_area_id: string;
  deductibles: CostLimit[];
  moops: CostLimit[];
  benefits: PlanBenefit[];
  sbcs?: { baby: SbcScenario; diabetes: SbcScenario; fracture: SbcScenario };
  quality_rating: QualityRating;
  /** Business Rules PUF: the oldest a child dependent may be; null when no rule states it. */
  max_age_child: number | null;
  /** Business Rules PUF: months tobacco-free before a person is rated as a non-user; null when not stated. */
  tobacco_lookback: number | null;
  /**
   * Benefits PUF "Abortion for Which Public Funding is Prohibited": covered or not; null when the plan does
   * not list that benefit (or lists none). The `Plan` fields no public file carries are null (docs/decisions.md#plan-fields).
   */
  covers_nonhyde_abortion: boolean | null;
  simple_choice: null;
  suppression_state: null;
  certification: null;
  network_adequacy: null;
  rx_3mo_mail_order: null;
}

interface Variant extends VariantDetail {
  variantId: string;
}

/** The variant sold on the exchange without cost-sharing reductions (`-01`), else the first one. */
function standardVariant(variants: Variant[]): Variant | undefined {
  return variants.find((v) => v.csr === 'Exchange variant (no CSR)') ?? variants[0];
}

/** Splits `items` into lists of at most `size` (bound parameters per statement stay well under the limits). */
function chunks<T>(items: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list) list.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/**
 * Everything `GET /plans/{plan_id}` shows of plans: the plans, then their parts, one query per table for
 * the whole list (a county's hundred plans cost the same eight queries as one plan).
 */
export function createPlanDetailStore(db: Kysely<Database>) {
  async function findMany(year: number, planIds: readonly string[]): Promise<Map<string, PlanDetails>> {
    const ids = [...new Set(planIds)];
    const out = new Map<string, PlanDetails>();
    for (const part of chunks(ids)) {
      const plans = await db
        .selectFrom('plans')
        .selectAll()
        .where('year', '=', year)
        .where('plan_id', 'in', part)
        .execute();
      if (plans.length === 0) continue;
      const found = plans.map((p) => p.plan_id);
      const issuerIds = [...new Set(plans.map((p) => p.issuer_id))];
      const networks = [...new Set(plans.flatMap((p) => (p.network_id ? [p.network_id] : [])))];
      // The plans' own rules, else their products', else their issuers' (scope = plan, product or issuer id).
      const scopes = [...new Set([...found, ...found.map((id) => id.slice(0, 10)), ...issuerIds])];
      const [issuers, variantRows, benefitRows, quality, networkRows, rules] = await Promise.all([
        db
          .selectFrom('issuers')
          .selectAll()
          .where('year', '=', year)
          .where('issuer_id', 'in', issuerIds)
          .execute(),
        db
          .selectFrom('plan_variants')
          .select(['plan_id', 'variant_id', 'detail'])
          .where('year', '=', year)
          .where('plan_id', 'in', found)
          .orderBy('plan_id')
          .orderBy('variant_id')
          .execute(),
        db
          .selectFrom('plan_benefits')
          .select(['plan_id', 'variant_id', 'detail'])
          .where('year', '=', year)
          .where('plan_id', 'in', found)
          .orderBy('plan_id')
          .orderBy('variant_id')
          .execute(),
        db
          .selectFrom('quality_ratings')
          .select(['plan_id', ...QUALITY_COLUMNS])
          .where('year', '=', year)
          .where('plan_id', 'in', found)
          .execute(),
        networks.length > 0
          ? db
              .selectFrom('networks')
              .select(['issuer_id', 'network_id', 'url'])
              .where('year', '=', year)
              .where('issuer_id', 'in', issuerIds)
              .where('network_id', 'in', networks)
              .execute()
          : [],
        db
          .selectFrom('business_rules')
          .select(['issuer_id', 'scope_id', 'detail'])
          .where('year', '=', year)
          .where('issuer_id', 'in', issuerIds)
          .where('scope_id', 'in', scopes)
          .execute(),
      ]);
      const issuerById = new Map(issuers.map((i) => [i.issuer_id, i]));
      const variantsOf = groupBy(variantRows, (r) => r.plan_id);
      const benefitsOf = groupBy(benefitRows, (r) => r.plan_id);
      const qualityOf = new Map(quality.map((q) => [q.plan_id, q]));
      const networkUrl = new Map(networkRows.map((n) => [`${n.issuer_id}|${n.network_id}`, n.url]));
      const rulesOf = groupBy(rules, (r) => r.issuer_id);
      for (const plan of plans) {
        const own = new Set([plan.plan_id, plan.plan_id.slice(0, 10), plan.issuer_id]);
        out.set(
          plan.plan_id,
          assemble(year, plan, {
            issuer: issuerById.get(plan.issuer_id),
            variantRows: variantsOf.get(plan.plan_id) ?? [],
            benefitRows: benefitsOf.get(plan.plan_id) ?? [],
            quality: qualityOf.get(plan.plan_id),
            networkUrl: plan.network_id ? networkUrl.get(`${plan.issuer_id}|${plan.network_id}`) : undefined,
            rules: (rulesOf.get(plan.issuer_id) ?? []).filter((r) => own.has(r.scope_id)),
          }),
        );
      }
    }
    return out;
  }

  return {
    async findPlanDetails(year: number, planId: string): Promise<PlanDetails | undefined> {
      return (await findMany(year, [planId])).get(planId);
    },
    /** Details of every plan of the list the year has, by plan id (absent ids are left out). */
    findManyPlanDetails: findMany,
  };
}

interface PlanParts {
  issuer: Selectable<Database['issuers']> | undefined;
  variantRows: { variant_id: string; detail: string }[];
  benefitRows: { variant_id: string; detail: string }[];
  quality: QualityRow | undefined;
  networkUrl: string | undefined;
  rules: { scope_id: string; detail: string }[];
}

function assemble(year: number, plan: Selectable<Database['plans']>, parts: PlanParts): PlanDetails {
  const { issuer, variantRows, benefitRows, quality, rules } = parts;
  const detail = JSON.parse(plan.detail) as PlanDetail;
  const variants: Variant[] = variantRows.map((v) => ({
    ...(JSON.parse(v.detail) as VariantDetail),
    variantId: v.variant_id,
  }));
  const standard = standardVariant(variants);
  const rule = mergeBusinessRules(rules);
  const variantBenefits = new Map<string, Map<string, VariantBenefit>>();
  const benefits = gatherBenefits(
    benefitRows,
    new Map(variants.map((v) => [v.variantId, v.csr])),
    standard?.variantId,
    variantBenefits,
  );
  return {
    id: plan.plan_id,
    name: plan.name,
    issuer: {
      id: plan.issuer_id,
      name: issuer?.name ?? detail.issuer_name,
      state: issuer?.state ?? plan.state,
      individual_url: issuer?.individual_url ?? '',
      shop_url: issuer?.shop_url ?? '',
      toll_free: issuer?.toll_free ?? '',
      tty: issuer?.tty ?? '',
      eligible_dependents: rule.eligibleDependents,
    },
    metal_level: plan.metal_level,
    type: plan.plan_type,
    design_type: plan.design_type,
    is_standardized_plan: plan.design_type !== 'NOT_APPLICABLE',
    market: plan.market,
    state: plan.state,
    product_division: plan.dental_only === 1 ? 'Dental' : 'HealthCare',
    insurance_market: 'QHP',
    hsa_eligible: plan.hsa_eligible === 1,
    has_national_network: detail.has_national_network,
    specialist_referral_required: detail.specialist_referral_required,
    guaranteed_rate: detail.guaranteed_rate,
    disease_mgmt_programs: detail.disease_mgmt_programs,
    benefits_url: detail.benefits_url ?? '',
    brochure_url: detail.brochure_url ?? '',
    formulary_url: detail.formulary_url ?? '',
    network_url: detail.network_url ?? parts.networkUrl ?? '',
    service_area_id: plan.service_area_id ?? '',
    deductibles: variants.flatMap((v) => v.deductibles),
    moops: variants.flatMap((v) => v.moops),
    benefits,
    ...(standard?.sbcs ? { sbcs: standard.sbcs } : {}),
    quality_rating: toQualityRating(year, quality),
    max_age_child: rule.dependentMaxAge,
    tobacco_lookback: rule.tobaccoFreeMonths,
    covers_nonhyde_abortion: coversNonHydeAbortion(benefits),
    simple_choice: null,
    suppression_state: null,
    certification: null,
    network_adequacy: null,
    rx_3mo_mail_order: null,
    [COST_TERMS]: variants.map((v) => ({
      csr: v.csr,
      specialtyDrugMaxCoinsurance: v.specialty_drug_max_coinsurance,
      inpatientCopayMaxDays: v.inpatient_copay_max_days,
      primaryCareCostSharingAfterVisits: v.primary_care_cost_sharing_after_visits,
      primaryCareDeductibleAfterCopays: v.primary_care_deductible_after_copays,
      benefits: variantBenefits.get(v.variantId) ?? new Map(),
    })),
  };
}

/** The Benefits PUF's benefit for abortions the Hyde Amendment bars federal funds from (45 CFR 156.280). */
const NON_HYDE_ABORTION = 'Abortion for Which Public Funding is Prohibited';

/** Whether the plan covers such abortions: from its benefits; null when it lists none or not this one. */
function coversNonHydeAbortion(benefits: readonly PlanBenefit[]): boolean | null {
  return benefits.find((b) => b.name === NON_HYDE_ABORTION)?.covered ?? null;
}

export type PlanDetailStore = ReturnType<typeof createPlanDetailStore>;
