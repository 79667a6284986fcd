import { Type } from 'typebox';

/**
 * Response bodies of the lookup endpoints: the CMS document's definitions (`County`, `ZIPCounty`, `State`,
 * `Issuer`, `QualityRating`, `Plan` …) with the corrections of docs/decisions.md#cms-document-corrections.
 * Text a source does not give is an empty string (as the CMS service sends it), never a guess.
 */

export const County = Type.Object({
  fips: Type.String({ description: '5-digit county FIPS code' }),
  name: Type.String(),
  state: Type.String({ description: '2-letter USPS state abbreviation' }),
});

export const ZipCounty = Type.Object({
  fips: Type.String(),
  name: Type.String(),
  state: Type.String(),
  zipcode: Type.String(),
});

export const RateArea = Type.Object({
  state: Type.String(),
  area: Type.Integer({ description: 'rating area number within the state' }),
});

const MarketplaceModel = Type.Union([Type.Literal('FFM'), Type.Literal('SBM')], {
  description:
    'FFM when the state uses HealthCare.gov in the year, SBM when it runs its own exchange; absent when ' +
    'we cannot tell (no cited list and no real Plan Attributes PUF for the year)',
});

export const State = Type.Object({
  abbrev: Type.String(),
  fips: Type.String({ description: '2-digit state FIPS code' }),
  name: Type.String(),
  marketplace_model: Type.Optional(MarketplaceModel),
  shop_marketplace_model: Type.Optional(MarketplaceModel),
  hix_name: Type.String(),
  hix_url: Type.String(),
  shop_hix_name: Type.String(),
  shop_hix_url: Type.String(),
  '8962_link': Type.String(),
  '8965_link': Type.String(),
  assister_program_url: Type.String(),
});

const LowIncomeChild = Type.Object({
  min_age: Type.Integer(),
  max_age: Type.Integer(),
  pc_fpl: Type.Number({ description: 'income limit as a fraction of FPL (1.38 = 138%)' }),
});

const Fraction = (description: string) =>
  Type.Optional(Type.Number({ description: `${description}: fraction of FPL; 0 = not covered` }));

export const StateMedicaid = Type.Object({
  name: Type.String({ description: 'state name, upper case' }),
  abbrev: Type.String(),
  fiscal_year: Type.Integer(),
  fiscal_quarter: Type.Integer(),
  pc_fpl_parent: Fraction('parents and caretaker relatives'),
  pc_fpl_pregnant: Fraction('pregnant women (Medicaid)'),
  pc_fpl_adult: Fraction('the ACA adult group, 19–64'),
  pc_fpl_child_newborn: Fraction('infants under 1'),
  pc_fpl_child_1_5: Fraction('children 1–5'),
  pc_fpl_child_6_18: Fraction('children 6–18'),
  low_income_child: Type.Array(LowIncomeChild, {
    description: 'Medicaid for young adults 19–20, where covered',
  }),
  chip: Type.Array(LowIncomeChild, { description: 'separate CHIP for children, where the state has one' }),
});

export const PovertyGuideline = Type.Object({
  add_per_person_after_eight: Type.Integer(),
  guidelines: Type.Array(Type.Object({ household_size: Type.Integer(), guideline: Type.Integer() })),
});

export const Issuer = Type.Object({
  id: Type.String({ description: '5-digit HIOS issuer id' }),
  name: Type.String(),
  state: Type.String(),
  individual_url: Type.String(),
  shop_url: Type.String(),
  toll_free: Type.String(),
  tty: Type.String(),
  eligible_dependents: Type.Array(Type.String(), {
    description: 'relationships accepted as dependents (Business Rules PUF); empty when not loaded',
  }),
});

export const QualityRating = Type.Object({
  available: Type.Boolean(),
  year: Type.Integer(),
  global_rating: Type.Integer({ minimum: 0, maximum: 5 }),
  global_not_rated_reason: Type.String(),
  clinical_quality_management_rating: Type.Integer({ minimum: 0, maximum: 5 }),
  clinical_quality_management_not_rated_reason: Type.String(),
  enrollee_experience_rating: Type.Integer({ minimum: 0, maximum: 5 }),
  enrollee_experience_not_rated_reason: Type.String(),
  plan_efficiency_rating: Type.Integer({ minimum: 0, maximum: 5 }),
  plan_efficiency_not_rated_reason: Type.String(),
});

export const Crosswalk = Type.Object({
  new_plan_id: Type.String({ description: 'the plan of the next year; empty when the plan is not renewed' }),
  level: Type.String({ description: 'crosswalk level code (Plan ID Crosswalk PUF)' }),
  reason: Type.String({ description: 'crosswalk reason code (Plan ID Crosswalk PUF)' }),
});
