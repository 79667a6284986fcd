import { Type, type Static } from 'typebox';
import { CountyFips, PlanId, StateCode, ZipCode } from './input-schemas.js';

/**
 * The request bodies of the priced endpoints (CMS `Household`, `Person`, `Place`, `PlanSearchRequest`,
 * `PlanSearchFilter`), with the seed's rules. Unknown properties are accepted and ignored, as the live
 * service ignores the HealthCare.gov front end's extras (`extended_zipcode`).
 */

const DateText = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD' });

export const RELATIONSHIPS_2021 = [
  'Self',
  'Brother or Sister',
  'Child',
  'Collateral Dependent',
  'Ex-Spouse',
  'Foster Child',
  'Grandson or Granddaughter',
  'Life Partner',
  'Nephew or Niece',
  'Other Relationship',
  'Other Relative',
  'Sponsored Dependent',
  'Spouse',
  'Stepson or Stepdaughter',
  'Ward',
] as const;

/** Valid for market year 2020 and earlier only (seed, "Relationship values"). */
export const RELATIONSHIPS_TO_2020 = [
  'Adopted Child',
  'Annultant',
  'Brother-in-Law or Sister-in-Law',
  'Court Appointed Guardian',
  'Dependent of a Minor Dependent',
  'Guardian',
  'Son-in-Law or Daughter-in-Law',
  'Stepparent',
] as const;

export const Person = Type.Object({
  age: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 130,
      description: 'age in years; wins over dob when both are given',
    }),
  ),
  dob: Type.Optional(DateText),
  aptc_eligible: Type.Optional(Type.Boolean({ description: 'false keeps the person out of the tax credit' })),
  gender: Type.Optional(Type.Union([Type.Literal('Male'), Type.Literal('Female')])),
  uses_tobacco: Type.Optional(Type.Boolean()),
  last_tobacco_use_date: Type.Optional(DateText),
  has_mec: Type.Optional(Type.Boolean({ description: 'has other minimum essential coverage: not priced' })),
  is_parent: Type.Optional(Type.Boolean()),
  is_pregnant: Type.Optional(Type.Boolean()),
  pregnant_with: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
  does_not_cohabitate: Type.Optional(Type.Boolean()),
  relationship: Type.Optional(
    Type.Unsafe<(typeof RELATIONSHIPS_2021)[number] | (typeof RELATIONSHIPS_TO_2020)[number]>({
      type: 'string',
      enum: [...RELATIONSHIPS_2021, ...RELATIONSHIPS_TO_2020],
      description: 'relationship to the first person (Self); must be valid for the market year',
    }),
  ),
  utilization_level: Type.Optional(
    Type.Union([Type.Literal('Low'), Type.Literal('Medium'), Type.Literal('High')]),
  ),
  utilization: Type.Optional(Type.Union([Type.Literal('Low'), Type.Literal('Medium'), Type.Literal('High')])),
  current_enrollment: Type.Optional(
    Type.Object({
      plan_id: PlanId,
      effective_date: Type.Optional(DateText),
      uses_tobacco: Type.Optional(Type.Boolean()),
    }),
  ),
});
export type PersonInput = Static<typeof Person>;

export const Household = Type.Object({
  income: Type.Optional(
    Type.Number({
      minimum: -1,
      maximum: 1e12,
      description:
        'yearly household income, US dollars; -1 (or absent) = unknown: no tax credit is estimated',
    }),
  ),
  people: Type.Optional(
    Type.Array(Person, { maxItems: 30, description: 'the first person is the subscriber' }),
  ),
  has_married_couple: Type.Optional(Type.Boolean()),
  effective_date: Type.Optional(DateText),
  unemployment_received: Type.Optional(
    Type.Union([Type.Literal('Adult'), Type.Literal('Dependent'), Type.Literal('None')]),
  ),
});
export type HouseholdInput = Static<typeof Household>;

export const Place = Type.Object({
  countyfips: CountyFips,
  state: StateCode,
  zipcode: ZipCode,
});

export const MarketEnum = Type.Union([Type.Literal('Individual'), Type.Literal('SHOP'), Type.Literal('Any')]);

export const CsrOverride = Type.Union(
  ['CSR73', 'CSR87', 'CSR94', 'LimitedCSR', 'ZeroCSR'].map((c) => Type.Literal(c)),
  { description: 'price as if the household had this cost-sharing reduction' },
);

const Metal = Type.Union(
  ['Catastrophic', 'Bronze', 'Silver', 'Gold', 'Platinum'].map((m) => Type.Literal(m)),
);
const PlanType = Type.Union(['Indemnity', 'PPO', 'HMO', 'EPO', 'POS'].map((t) => Type.Literal(t)));
const DesignType = Type.Union(
  ['DESIGN1', 'DESIGN2', 'DESIGN3', 'DESIGN4', 'DESIGN5', 'NOT_APPLICABLE'].map((t) => Type.Literal(t)),
);
const Range = Type.Object({ min: Type.Optional(Type.Number()), max: Type.Optional(Type.Number()) });

export const PlanSearchFilter = Type.Object({
  division: Type.Optional(Type.Union([Type.Literal('HealthCare'), Type.Literal('Dental')])),
  issuer: Type.Optional(Type.String({ description: 'issuer name' })),
  issuers: Type.Optional(Type.Array(Type.String(), { description: 'issuer names (or 5-digit issuer ids)' })),
  metal_level: Type.Optional(Metal),
  metal_levels: Type.Optional(Type.Array(Metal)),
  metal_design_types: Type.Optional(
    Type.Array(Type.Object({ metal_level: Metal, design_types: Type.Array(DesignType) })),
  ),
  design_types: Type.Optional(Type.Array(DesignType)),
  type: Type.Optional(PlanType),
  types: Type.Optional(Type.Array(PlanType)),
  premium: Type.Optional(Type.Number({ description: 'at most this premium after credit' })),
  deductible: Type.Optional(Type.Number({ description: 'at most this individual deductible' })),
  premium_range: Type.Optional(Range),
  deductible_range: Type.Optional(Range),
  hsa: Type.Optional(Type.Boolean()),
  quality_rating: Type.Optional(Type.Number({ description: 'at least this overall rating' })),
  disease_mgmt_programs: Type.Optional(Type.Array(Type.String())),
  simple_choice: Type.Optional(Type.Boolean()),
  drugs: Type.Optional(
    Type.Array(Type.String({ pattern: '^[0-9]{1,10}$' }), {
      maxItems: 50,
      description:
        'RxCUIs: only plans that cover each (Covered or GenericCovered); plans carry drug_coverage',
    }),
  ),
  providers: Type.Optional(
    Type.Array(Type.String({ pattern: '^[0-9]{10}$' }), {
      maxItems: 50,
      description: 'NPIs: only plans whose network has each; plans carry provider_coverage',
    }),
  ),
});
export type PlanSearchFilterInput = Static<typeof PlanSearchFilter>;

/** Fields every priced request shares. */
const priced = {
  household: Type.Optional(Household),
  place: Place,
  market: Type.Optional(MarketEnum),
  year: Type.Optional(Type.Integer({ minimum: 1000, maximum: 9999, description: 'market year' })),
  aptc_override: Type.Optional(
    Type.Number({ minimum: 0, maximum: 1e7, description: 'monthly tax credit to use instead of ours, $' }),
  ),
  csr_override: Type.Optional(CsrOverride),
};

export const PlanSearchRequest = Type.Object({
  ...priced,
  market: MarketEnum,
  filter: Type.Optional(PlanSearchFilter),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'page size, 10 by default' })),
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  sort: Type.Optional(
    Type.Union(
      ['premium', 'deductible', 'oopc', 'total_costs', 'quality_rating'].map((s) => Type.Literal(s)),
    ),
  ),
  catastrophic_override: Type.Optional(Type.Boolean()),
  suppressed_plan_ids: Type.Optional(Type.Array(PlanId)),
});
export type PlanSearchInput = Static<typeof PlanSearchRequest>;

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
});

export const PlanRequest = Type.Object({ ...priced, market: MarketEnum, filter: CoverageAsked });

export const EstimateRequest = Type.Object({
  household: Type.Optional(Household),
  place: Place,
  market: Type.Optional(MarketEnum),
  year: Type.Optional(Type.Integer({ minimum: 1000, maximum: 9999 })),
});

export const IchraRequest = Type.Object({
  household: Type.Optional(Household),
  place: Place,
  market: Type.Optional(MarketEnum),
  year: Type.Optional(Type.Integer({ minimum: 1000, maximum: 9999 })),
  hra: Type.Number({ minimum: 0, maximum: 1e7, description: "the employer's monthly HRA amount, $" }),
});

/** What the priced endpoints share after validation. */
export interface PricedRequest {
  household?: HouseholdInput;
  place: Static<typeof Place>;
  market?: 'Individual' | 'SHOP' | 'Any';
  year?: number;
  aptc_override?: number;
  csr_override?: string;
}

/** 1003 `error` texts per top-level field of these bodies. */
export const HOUSEHOLD_FIXES: Record<string, string> = {
  place: 'place: countyfips (5 digits), state (2 letters) and zipcode (5 digits) are required',
  household:
    'household: income (a number) and people (each with age 0–130 or dob YYYY-MM-DD; gender Male or Female; booleans as booleans)',
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
