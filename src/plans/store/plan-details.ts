import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { mergeBusinessRules } from './business-rules.js';
import type { Issuer } from './issuers.js';
import type { CostLimit, PlanDetail, SbcScenario, VariantDetail } from './plan-detail.js';
import { gatherBenefits, type PlanBenefit } from './plan-benefits.js';
import { QUALITY_COLUMNS, toQualityRating, type QualityRating } from './quality.js';

/** CMS `Plan` as `GET /plans/{plan_id}` shows it: no premium, no household. */
export interface PlanDetails {
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
  /** Business Rules PUF, when loaded: the age up to which a child may be a dependent. */
  max_age_child?: number;
  /** Business Rules PUF, when loaded: months tobacco-free before a person is rated as a non-user. */
  tobacco_lookback?: number;
}

interface Variant extends VariantDetail {
  variantId: string;
}

/** The variant sold on the exchange without cost-sharing reductions (`-01`), else the first one. */
function standardVariant(variants: Variant[]): Variant | undefined {
  return variants.find((v) => v.csr === 'Exchange variant (no CSR)') ?? variants[0];
}

/** Everything `GET /plans/{plan_id}` shows of one plan: the plan, then its parts in parallel (all keyed). */
export function createPlanDetailStore(db: Kysely<Database>) {
  return {
    async findPlanDetails(year: number, planId: string): Promise<PlanDetails | undefined> {
      const plan = await db
        .selectFrom('plans')
        .selectAll()
        .where('year', '=', year)
        .where('plan_id', '=', planId)
        .executeTakeFirst();
      if (!plan) return undefined;
      const [issuer, variantRows, benefitRows, quality, network, rules] = await Promise.all([
        db
          .selectFrom('issuers')
          .selectAll()
          .where('year', '=', year)
          .where('issuer_id', '=', plan.issuer_id)
          .executeTakeFirst(),
        db
          .selectFrom('plan_variants')
          .select(['variant_id', 'detail'])
          .where('year', '=', year)
          .where('plan_id', '=', planId)
          .orderBy('variant_id')
          .execute(),
        db
          .selectFrom('plan_benefits')
          .select(['variant_id', 'detail'])
          .where('year', '=', year)
          .where('plan_id', '=', planId)
          .orderBy('variant_id')
          .execute(),
        db
          .selectFrom('quality_ratings')
          .select(QUALITY_COLUMNS)
          .where('year', '=', year)
          .where('plan_id', '=', planId)
          .executeTakeFirst(),
        plan.network_id
          ? db
              .selectFrom('networks')
              .select('url')
              .where('year', '=', year)
              .where('issuer_id', '=', plan.issuer_id)
              .where('network_id', '=', plan.network_id)
              .executeTakeFirst()
          : undefined,
        // The plan's own rules, else its product's, else the issuer's (scope = plan, product or issuer id).
        db
          .selectFrom('business_rules')
          .select(['scope_id', 'detail'])
          .where('year', '=', year)
          .where('issuer_id', '=', plan.issuer_id)
          .where('scope_id', 'in', [planId, planId.slice(0, 10), plan.issuer_id])
          .execute(),
      ]);
      const detail = JSON.parse(plan.detail) as PlanDetail;
      const variants: Variant[] = variantRows.map((v) => ({
        ...(JSON.parse(v.detail) as VariantDetail),
        variantId: v.variant_id,
      }));
      const standard = standardVariant(variants);
      const rule = mergeBusinessRules(rules);
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
        network_url: detail.network_url ?? network?.url ?? '',
        service_area_id: plan.service_area_id ?? '',
        deductibles: variants.flatMap((v) => v.deductibles),
        moops: variants.flatMap((v) => v.moops),
        benefits: gatherBenefits(
          benefitRows,
          new Map(variants.map((v) => [v.variantId, v.csr])),
          standard?.variantId,
        ),
        ...(standard?.sbcs ? { sbcs: standard.sbcs } : {}),
        quality_rating: toQualityRating(year, quality),
        ...(rule.dependentMaxAge !== null ? { max_age_child: rule.dependentMaxAge } : {}),
        ...(rule.tobaccoFreeMonths !== null ? { tobacco_lookback: rule.tobaccoFreeMonths } : {}),
      };
    },
  };
}

export type PlanDetailStore = ReturnType<typeof createPlanDetailStore>;
