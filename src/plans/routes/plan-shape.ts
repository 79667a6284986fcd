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
  max_age_child: Type.Union([Type.Integer(), Type.Null()], {
    description:
      'Business Rules PUF: the oldest a child dependent may be; null when no rule of the issuer states it',
  }),
  tobacco_lookback: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Business Rules PUF: months tobacco-free before rated as a non-user; null when not stated',
  }),
  covers_nonhyde_abortion: Type.Union([Type.Boolean(), Type.Null()], {
    description:
      'Benefits and Cost Sharing PUF, "Abortion for Which Public Funding is Prohibited": covered or not; ' +
      'null when the plan lists no such benefit',
  }),
  simple_choice: Type.Null({
    description: 'no public file marks Simple Choice plans (docs/decisions.md#plan-fields)',
  }),
  suppression_state: Type.Null({ description: 'HealthCare.gov display state; in no public file' }),
  certification: Type.Null({ description: 'certification status; in no public file' }),
  network_adequacy: Type.Null({ description: 'network adequacy by specialty; in no public file' }),
  rx_3mo_mail_order: Type.Null({ description: '3-month mail order benefit; in no public file' }),
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
  oopc: Type.Number({
    description:
      'estimated yearly out-of-pocket cost of the household on this plan, $ to the cent, by the CMS/LMI OOPC ' +
      "model (docs/decisions.md#oopc-method in the repository): each enrolling member's expected use of 26 " +
      'service categories (utilization table from 2014 claims, by age group, gender and `utilization_level`) ' +
      'priced through the in-network cost sharing, deductibles and MOOPs of the CSR variant shown, from the ' +
      "market year's Benefits and Cost Sharing and Plan Attributes PUFs. -1 when a member lacks age, gender " +
      'or `utilization_level`; and, said in `data_notes.oopc`, when the plan has no loaded cost sharing, ' +
      'states no deductible and no MOOP, or is a stand-alone dental plan',
  }),
  oopc_range: Type.Optional(
    Type.Union(
      [
        Type.Object({
          expected: Type.Number({ description: "expected yearly cost over the members' spending bands, $" }),
          p10: Type.Number({ description: '10th percentile, $' }),
          p90: Type.Number({ description: '90th percentile, $' }),
          combinations: Type.Integer({ description: "combinations of the members' deciles priced" }),
          sampled: Type.Boolean({ description: 'true when a fixed sample of the combinations was priced' }),
        }),
        Type.Null(),
      ],
      {
        description:
          'our addition, with `oopc_range: true` in the request: the out-of-pocket cost over each member’s ' +
          'band of spending deciles (Low 1–3, Medium 4–7, High 8–10) instead of CMS’s single decile point, ' +
          'as expected value and 10th–90th percentiles; null when there is no estimate (`oopc` -1)',
      },
    ),
  ),
  is_ineligible: Type.Boolean({
    description:
      'true when the issuer’s business rules (Business Rules PUF) refuse someone of the household on this ' +
      'plan with the others: a relationship to the first person the issuer does not accept as a dependent, ' +
      'or a child-like dependent older than the issuer’s maximum age (`max_age_child`). Only what the ' +
      'request states is checked (a person without `relationship` is not refused); such plans are left out ' +
      'of the SLCSP, LCSP and LCBP and of the credit’s benchmark. Always false when no Business Rules PUF ' +
      'is loaded for the year (`data_notes.business_rules`)',
  }),
  ineligible_reasons: Type.Optional(
    Type.Array(
      Type.Object({
        person: Type.Integer({ description: 'index in household.people' }),
        rule: Type.Union([Type.Literal('relationship'), Type.Literal('max_age_child')], {
          description: 'relationship: not an accepted dependent; max_age_child: older than the maximum age',
        }),
        reason: Type.String({ description: 'who, which rule of which issuer, and the values compared' }),
      }),
      {
        description:
          'our addition, present only when `is_ineligible`: each person the issuer’s business rules refuse',
      },
    ),
  ),
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
    business_rules: Type.Optional(
      Type.String({
        description:
          'why no plan is flagged `is_ineligible` for a household with dependents: no Business Rules PUF ' +
          'loaded for the year',
      }),
    ),
    pediatric_dental: Type.Optional(
      Type.String({
        description:
          'why the tax credit may be low for a household with children under 19: the benchmark silver ' +
          'plan does not cover (or is not known to cover) pediatric dental care and no stand-alone dental ' +
          'plan’s pediatric portion could be added (26 CFR 1.36B-3(f)(6))',
      }),
    ),
    oopc: Type.Optional(
      Type.String({
        description:
          'why plans have no out-of-pocket estimate (`oopc` -1): no Benefits and Cost Sharing PUF rows for ' +
          'their variant, or a member without the age, gender or utilization level the model needs',
      }),
    ),
    dental_coverage: Type.Optional(
      Type.String({
        description:
          'why `filter.child_dental_coverage` / `adult_dental_coverage` was not applied (no plan lists ' +
          'benefits) or left plans of unknown coverage out',
      }),
    ),
  },
  {
    description:
      'Our addition to the CMS answer: what the loaded data could not tell, said once for the answer ' +
      '(absent when nothing is missing).',
  },
);
