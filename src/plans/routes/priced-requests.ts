import { Type } from 'typebox';
import { CSR_OVERRIDES } from '../eligibility/csr.js';
import { Household } from '../household/household-input.js';
import { CountyFips, literalUnion, PlanId, StateCode, ZipCode } from '../input-schemas.js';
import { MARKETS } from '../market/market-kind.js';
import { PlanSearchFilter } from '../search/search-filter.js';
import { SORT_ORDERS, SORTS } from '../search/sort.js';

/**
 * The request bodies of the priced endpoints (CMS `Household`, `Person`, `Place`, `PlanSearchRequest`,
 * `PlanSearchFilter`), with the rules of docs/decisions.md#household-request. Every one names its household
 * (docs/decisions.md#household-required), whose unknown keys are refused; at the top level and in `place`
 * unknown properties are accepted and ignored, as the live service ignores the HealthCare.gov front end's
 * extras (`extended_zipcode`) and one body may be sent to several of these endpoints.
 */

export const Place = Type.Object({
  countyfips: CountyFips,
  state: StateCode,
  zipcode: ZipCode,
});

export const MarketEnum = literalUnion(MARKETS);

export const CsrOverride = literalUnion(CSR_OVERRIDES, {
  description: 'price as if the household had this cost-sharing reduction',
});

const YearDefault = Type.Optional(
  Type.Integer({
    minimum: 1000,
    maximum: 9999,
    description: 'market year; defaults to ?year=, else the current market year',
  }),
);

/** The year of a request that must name one (docs/decisions.md#household-required). */
const YearNamed = Type.Optional(
  Type.Integer({ minimum: 1000, maximum: 9999, description: 'market year; required, here or as ?year=' }),
);

/** Fields every priced request shares. */
const priced = {
  household: Household,
  place: Place,
  market: Type.Optional(MarketEnum),
  year: YearDefault,
  aptc_override: Type.Optional(
    Type.Number({ minimum: 0, maximum: 1e7, description: 'monthly tax credit to use instead of ours, $' }),
  ),
  csr_override: Type.Optional(CsrOverride),
};

/** Our option (docs/decisions.md#oopc-range): each plan carries `oopc_range`. */
const OopcRangeAsked = Type.Optional(
  Type.Boolean({
    description:
      'our addition: true adds `oopc_range` to each plan, the expected yearly out-of-pocket cost over each ' +
      "member's band of spending deciles (Low 1–3, Medium 4–7, High 8–10) with its 10th and 90th percentiles",
  }),
);

export const PlanSearchRequest = Type.Object({
  ...priced,
  market: MarketEnum,
  year: YearNamed,
  filter: Type.Optional(PlanSearchFilter),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'page size, 10 by default' })),
  order: Type.Optional(literalUnion(SORT_ORDERS)),
  sort: Type.Optional(literalUnion(SORTS)),
  catastrophic_override: Type.Optional(Type.Boolean()),
  suppressed_plan_ids: Type.Optional(Type.Array(PlanId)),
  oopc_range: OopcRangeAsked,
});

/** What plan details may ask besides the household: the coverage of drugs and providers (no filtering). */
const CoverageAsked = Type.Optional(
  Type.Object(
    { drugs: PlanSearchFilter.properties.drugs, providers: PlanSearchFilter.properties.providers },
    { description: 'RxCUIs and NPIs: each plan carries drug_coverage / provider_coverage for them' },
  ),
);

export const PlansRequest = Type.Object({
  ...priced,
  plan_ids: Type.Array(PlanId, { minItems: 1, maxItems: 100 }),
  catastrophic_override: Type.Optional(Type.Boolean()),
  filter: CoverageAsked,
  oopc_range: OopcRangeAsked,
});

export const PlanRequest = Type.Object({
  ...priced,
  market: MarketEnum,
  filter: CoverageAsked,
  oopc_range: OopcRangeAsked,
});

/** The body of the benchmark-plan endpoints (/households/slcsp, /lcsp, /lcbp). */
export const LowestCostRequest = Type.Object({
  household: Household,
  place: Place,
  market: Type.Optional(MarketEnum),
  year: YearDefault,
});

export const EstimateRequest = Type.Object({ ...LowestCostRequest.properties, year: YearNamed });

export const IchraRequest = Type.Object({
  ...LowestCostRequest.properties,
  hra: Type.Number({ minimum: 0, maximum: 1e7, description: "the employer's monthly HRA amount, $" }),
});

/** How the priced endpoints price, for their descriptions. */
export const PRICING_RULES =
  'Premiums: the Rate PUF row of each member for the plan, rating area and age band (tobacco rate for ' +
  "users within the plan's look-back), only the three oldest children under 21 rated, NY/VT family " +
  'tiers; for 2014–2017 QHP Landscape plans the age-21 premium × the federal age curve (derived, ' +
  '`rate_source: landscape`). A plan with no rate for the household has null premiums and ' +
  '`premium_unavailable` saying why. The credit: SLCSP (EHB premium of the APTC-eligible members, tobacco ' +
  'ignored) minus the expected contribution, applied as min(credit, aptc_eligible_premium); ' +
  '`premium_w_credit` is never negative. `oopc`: the estimated yearly out-of-pocket cost by the CMS/LMI ' +
  "OOPC model (its 2014-claims utilization table, each member's age group, gender and " +
  '`utilization_level` — Low, Medium, High — priced through the in-network cost sharing, deductibles and ' +
  "MOOPs of the plan variant the household is quoted in, from the year's Benefits and Cost Sharing and " +
  'Plan Attributes PUFs); -1 when a member lacks age, gender or a level, and (with `data_notes.oopc`) ' +
  'when the plan has no loaded cost sharing or is a stand-alone dental plan. 1015 without Medicaid/CHIP limits for the state and year, 1017 ' +
  'without a rating area, 1003 for a state that runs its own exchange.';

/** 1003 `error` texts per top-level field of these bodies. */
export const HOUSEHOLD_FIXES: Record<string, string> = {
  place: 'place: countyfips (5 digits), state (2 letters) and zipcode (5 digits) are required',
  household:
    'household: an object with income (a number; -1 = unknown) and people (each with age 0–130 or dob ' +
    'YYYY-MM-DD, gender Male or Female, aptc_eligible and uses_tobacco true or false) is required',
  market: 'market: Individual, SHOP or Any is required',
  year: 'year: must be a 4-digit year',
  aptc_override: 'aptc_override: a monthly amount in dollars, 0 or more',
  csr_override: 'csr_override: one of CSR73, CSR87, CSR94, LimitedCSR, ZeroCSR',
  filter: 'filter: see PlanSearchFilter (metal levels, types and design types from their enums)',
  offset: 'offset: an integer, 0 or more',
  limit: 'limit: an integer from 1 to 100',
  order: 'order: asc or desc',
  sort: 'sort: premium, deductible, oopc, total_costs or quality_rating',
  plan_ids: 'plan_ids: 1 to 100 14-character HIOS plan ids',
  hra: 'hra: the monthly HRA amount in dollars is required',
  suppressed_plan_ids: 'suppressed_plan_ids: 14-character HIOS plan ids',
};
