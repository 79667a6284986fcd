import { Type } from 'typebox';
import { DrugCoverage } from './drug-shapes.js';
import { ProviderCoverage } from './provider-shapes.js';
import { Issuer, QualityRating } from './shapes.js';

/** CMS `Plan` of `GET /plans/{plan_id}`: details without premiums (this endpoint has no household). */

const Csr = Type.String({ description: 'CostSharingReductionEnum: the CSR variant the row belongs to' });
const NetworkTier = Type.String({ description: 'In-Network, In-Network Tier 2, Out-of-Network, Combined …' });
const Money = Type.Union([Type.Number(), Type.Null()], { description: 'US dollars; null when not given' });

const CostLimit = Type.Object({
  type: Type.String(),
  amount: Money,
  csr: Csr,
  network_tier: NetworkTier,
  family_cost: Type.String({ description: 'Individual, Family Per Person or Family' }),
  individual: Type.Boolean(),
  family: Type.Boolean(),
  display_string: Type.String(),
});

const CostSharing = Type.Object({
  network_tier: NetworkTier,
  csr: Csr,
  copay_amount: Money,
  copay_options: Type.Union([Type.String(), Type.Null()]),
  coinsurance_rate: Type.Union([Type.Number(), Type.Null()], { description: 'fraction (0.2 = 20%)' }),
  coinsurance_options: Type.Union([Type.String(), Type.Null()]),
  display_string: Type.String(),
});

const Benefit = Type.Object({
  name: Type.String(),
  type: Type.String(),
  covered: Type.Boolean(),
  explanation: Type.String(),
  exclusions: Type.String(),
  has_limits: Type.Boolean(),
  limit_unit: Type.String(),
  limit_quantity: Type.Union([Type.Number(), Type.Null()]),
  cost_sharings: Type.Array(CostSharing),
});

const SbcScenario = Type.Object({
  deductible: Money,
  copay: Money,
  coinsurance: Money,
  limit: Money,
});

export const Plan = Type.Object({
  id: Type.String({ description: '14-character HIOS plan id' }),
  name: Type.String(),
  issuer: Issuer,
  metal_level: Type.String(),
  type: Type.String({ description: 'PlanTypeEnum: HMO, PPO, EPO, POS, Indemnity' }),
  design_type: Type.String({ description: 'DESIGN1…DESIGN5 (standardized plan) or NOT_APPLICABLE' }),
  is_standardized_plan: Type.Boolean(),
  market: Type.String(),
  state: Type.String(),
  product_division: Type.Union([Type.Literal('HealthCare'), Type.Literal('Dental')]),
  insurance_market: Type.Literal('QHP'),
  hsa_eligible: Type.Boolean(),
  has_national_network: Type.Boolean(),
  specialist_referral_required: Type.Boolean(),
  guaranteed_rate: Type.Boolean(),
  disease_mgmt_programs: Type.Array(Type.String()),
  benefits_url: Type.String(),
  brochure_url: Type.String(),
  formulary_url: Type.String(),
  network_url: Type.String(),
  service_area_id: Type.String(),
  deductibles: Type.Array(CostLimit, {
    description: 'every CSR variant of the plan, each row tagged with its csr',
  }),
  moops: Type.Array(CostLimit, {
    description: 'every CSR variant of the plan, each row tagged with its csr',
  }),
  benefits: Type.Array(Benefit, { description: 'Benefits and Cost Sharing PUF; empty when not loaded' }),
  sbcs: Type.Optional(
    Type.Object(
      { baby: SbcScenario, diabetes: SbcScenario, fracture: SbcScenario },
      { description: 'coverage examples of the standard (no CSR) variant' },
    ),
  ),
  quality_rating: QualityRating,
  max_age_child: Type.Optional(
    Type.Integer({ description: 'Business Rules PUF: oldest age a child dependent may be' }),
  ),
  tobacco_lookback: Type.Optional(
    Type.Integer({ description: 'Business Rules PUF: months tobacco-free before rated as a non-user' }),
  ),
});

const money = (what: string) =>
  Type.Union([Type.Number(), Type.Null()], {
    description: `${what}. Monthly US dollars, two decimals; null when the plan has no rate for the household`,
  });

/** The household's premium fields of a priced plan (quote/premium-fields.ts `premiumFields`). */
export const PremiumFields = {
  premium: money(
    'the full monthly premium of the members who enrol (tobacco rates for users): the figure ' +
      'POST /households/lcsp and /households/lcbp return for their plan',
  ),
  premium_w_credit: money('`premium` minus the credit applied to this plan, never below 0'),
  ehb_premium: money(
    'the essential-health-benefits portion of `premium` (× the plan’s EHB percent of total premium): ' +
      'for a household without tobacco users, the figure POST /households/slcsp returns for its plan ' +
      '(the benchmark ignores tobacco)',
  ),
  pediatric_ehb_premium: money('pediatric dental EHB portion; null when the plan states none'),
  aptc_eligible_premium: money(
    'the EHB portion of the premium of the APTC-eligible members: the most the credit can cover',
  ),
  premium_unavailable: Type.Optional(
    Type.String({ description: 'why the plan has no premium for this household (no rate is invented)' }),
  ),
  oopc: Type.Number({ description: 'estimated yearly out-of-pocket cost: not computed, always -1' }),
  is_ineligible: Type.Boolean(),
  rate_source: Type.String({
    description:
      'rate-puf (CMS Rate PUF rows), landscape (derived from a QHP Landscape age-21 premium × the federal age curve) or none',
  }),
};

/** `Plan` with the household's premiums (POST /plans, POST /plans/{plan_id}). */
/** The coverage blocks a plan carries when the request asks about drugs or providers. */
const CoverageBlocks = {
  drug_coverage: Type.Optional(Type.Array(DrugCoverage, { description: 'when filter.drugs is given' })),
  provider_coverage: Type.Optional(
    Type.Array(ProviderCoverage, { description: 'when filter.providers is given' }),
  ),
};

export const PricedPlan = Type.Object({ ...Plan.properties, ...PremiumFields, ...CoverageBlocks });

/** `Plan` as a search answer shows it: one CSR variant, top benefits, no coverage examples. */
export const SearchPlan = Type.Object({
  ...Type.Omit(Plan, ['sbcs']).properties,
  ...PremiumFields,
  ...CoverageBlocks,
});

export const RateArea = Type.Object({ state: Type.String(), area: Type.Integer() });

/** `data_notes` in our OpenAPI document: an addition to the CMS shapes, present only when something is missing. */
export const DataNotesShape = Type.Object(
  {
    plans: Type.Optional(
      Type.String({
        description:
          'why the answer has no plans: none of the year’s loaded plans is sold at the place (or the year ' +
          'has only the generated sample market)',
      }),
    ),
    premiums: Type.Optional(
      Type.String({
        description:
          'why no plan has a premium (no Rate PUF loaded for the year, or none for the rating area), so ' +
          'the premium ranges are null and the tax credit was not computed',
      }),
    ),
    benefits: Type.Optional(
      Type.String({
        description:
          'why every plan lists no benefits (no Benefits and Cost Sharing PUF loaded for the year)',
      }),
    ),
  },
  {
    description:
      'Our addition to the CMS answer: what the loaded data could not tell, said once for the answer ' +
      '(absent when nothing is missing).',
  },
);
