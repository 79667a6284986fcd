import { Type, type Static } from 'typebox';
import { UNEMPLOYMENT_RECEIVED } from '../eligibility/unemployment-2021.js';
import { literalUnion, PlanId } from '../input-schemas.js';
import { RELATIONSHIPS_2021, RELATIONSHIPS_TO_2020, type Relationship } from './relationships.js';

/**
 * The household of a priced request (CMS `Household` and `Person`): the schema the routes validate with,
 * and the types the household is read from (household.ts). The schema requires what a quote depends on and
 * refuses keys it does not define, so that a misspelt key is answered 1003 instead of quietly changing
 * the quote (docs/decisions.md#household-required). `age` or `dob` is checked where the household is read.
 */

const DateText = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD' });

export const Person = Type.Object(
  {
    age: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 130,
        description: 'age in years; wins over dob when both are given; one of age or dob is required',
      }),
    ),
    dob: Type.Optional(DateText),
    aptc_eligible: Type.Boolean({ description: 'false keeps the person out of the tax credit' }),
    gender: Type.Union([Type.Literal('Male'), Type.Literal('Female')]),
    uses_tobacco: Type.Boolean(),
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
    utilization_level: Type.Optional(
      literalUnion(['Low', 'Medium', 'High'], {
        description:
          "expected use of care, for the yearly out-of-pocket estimate (`oopc`): the CMS model's 3rd, " +
          '5.5th or 10th spending decile of people of the same age group and gender',
      }),
    ),
    utilization: Type.Optional(
      literalUnion(['Low', 'Medium', 'High'], { description: 'the older name of utilization_level' }),
    ),
    current_enrollment: Type.Optional(
      Type.Object(
        {
          plan_id: PlanId,
          effective_date: Type.Optional(DateText),
          uses_tobacco: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const Household = Type.Object(
  {
    income: Type.Number({
      minimum: -1,
      maximum: 1e12,
      description: 'yearly household income, US dollars, 0 or more; -1 = unknown: no tax credit is estimated',
    }),
    people: Type.Array(Person, {
      maxItems: 30,
      description: 'the first person is the subscriber; an empty list prices nobody (plans listed unpriced)',
    }),
    has_married_couple: Type.Optional(Type.Boolean()),
    effective_date: Type.Optional(DateText),
    unemployment_received: Type.Optional(literalUnion(UNEMPLOYMENT_RECEIVED)),
  },
  { additionalProperties: false },
);

/**
 * The person and household the domain reads: a request's, or one built in code (unit tests, benchmarks),
 * which may leave out what a request must state and then gets the defaults (eligible for the credit, no
 * tobacco, income unknown).
 */
export type PersonInput = Partial<Static<typeof Person>>;
export type HouseholdInput = Partial<Omit<Static<typeof Household>, 'people'>> & { people?: PersonInput[] };
