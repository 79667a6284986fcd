import { Type, type Static } from 'typebox';
import { UNEMPLOYMENT_RECEIVED } from '../eligibility/unemployment-2021.js';
import { literalUnion, PlanId } from '../input-schemas.js';
import { RELATIONSHIPS_2021, RELATIONSHIPS_TO_2020, type Relationship } from './relationships.js';

/**
 * The household of a priced request (CMS `Household` and `Person`): the schema the routes validate with,
 * and through `Static` the types the household is read from (household.ts).
 */

const DateText = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD' });

const Utilization = literalUnion(['Low', 'Medium', 'High']);

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
    Type.Unsafe<Relationship>({
      type: 'string',
      enum: [...RELATIONSHIPS_2021, ...RELATIONSHIPS_TO_2020],
      description: 'relationship to the first person (Self); must be valid for the market year',
    }),
  ),
  utilization_level: Type.Optional(Utilization),
  utilization: Type.Optional(Utilization),
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
  unemployment_received: Type.Optional(literalUnion(UNEMPLOYMENT_RECEIVED)),
});
export type HouseholdInput = Static<typeof Household>;
