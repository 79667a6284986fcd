import { Type, type Static } from 'typebox';
import type { App } from '../../shared/http.js';
import type { PlansDeps } from '../deps.js';
import { validateEnrollment, type ExtendedEnrollment } from '../enrollment/enrollment-groups.js';
import { RELATIONSHIPS_2021, RELATIONSHIPS_TO_2020 } from '../household/relationships.js';
import { literalUnion, PlanId, YearQuery } from '../input-schemas.js';
import { marketContext } from '../quote/priced-context.js';
import { refuseInvalidInput } from './invalid-input.js';
import { pricedYear } from './priced-year.js';
import { errorResponses, PlanError } from './schemas.js';

/** CMS `ExtendedEnrollment` and `FlattenedEnrollmentGroup` (the document's "Enrollments" tag). */

const DateText = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD' });
const Id = Type.String({ minLength: 1, maxLength: 64 });

const Csr = literalUnion([
  'Exchange variant (no CSR)',
  'Zero Cost Sharing Plan Variation',
  'Limited Cost Sharing Plan Variation',
  '73% AV Level Silver Plan CSR',
  '87% AV Level Silver Plan CSR',
  '94% AV Level Silver Plan CSR',
  'Non-Exchange variant',
  'Unknown CSR',
]);

const Relationship = Type.Unsafe<string>({
  type: 'string',
  enum: ['', ...RELATIONSHIPS_2021, ...RELATIONSHIPS_TO_2020],
  description: 'relationship to the subscriber; empty when unknown; must be valid for the market year',
});

const Address = Type.Object({
  city: Type.Optional(Type.String({ maxLength: 100 })),
  state: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$' })),
  street_1: Type.Optional(Type.String({ maxLength: 200 })),
  street_2: Type.Optional(Type.String({ maxLength: 200 })),
  zipcode: Type.Optional(Type.String({ pattern: '^[0-9]{5}$' })),
  countyfips: Type.Optional(Type.String({ pattern: '^[0-9]{5}$', description: '5-digit county FIPS code' })),
});

const RelationshipEdge = Type.Object({
  super_id: Type.Optional(Id),
  sub_id: Type.Optional(Id),
  relationship: Type.Optional(Relationship),
});

const ExtendedEnrollee = Type.Object({
  id: Id,
  name: Type.Optional(Type.String({ maxLength: 200 })),
  gender: Type.Optional(literalUnion(['Male', 'Female'])),
  dob: Type.Optional(DateText),
  location: Type.Optional(Address),
  csr: Type.Optional(Csr),
  is_filer: Type.Optional(Type.Boolean()),
  effective_age: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 130, description: 'age at enrollment; wins over dob' }),
  ),
  has_hardship: Type.Optional(Type.Boolean()),
  relationship: Type.Optional(Relationship),
  allowed_metal_levels: Type.Optional(
    Type.Array(literalUnion(['Catastrophic', 'Bronze', 'Silver', 'Gold', 'Platinum', 'High', 'Low']), {
      maxItems: 10,
    }),
  ),
  allowed_plan_ids: Type.Optional(Type.Array(PlanId, { maxItems: 500 })),
  current_enrollment: Type.Optional(
    Type.Object({
      plan_id: PlanId,
      effective_date: Type.Optional(DateText),
      uses_tobacco: Type.Optional(Type.Boolean()),
    }),
  ),
});

const ExtendedEnrollmentBody = Type.Object({
  maxAPTC: Type.Optional(
    Type.Number({ minimum: 0, maximum: 1e7, description: 'not used: the credit is not allocated here' }),
  ),
  year: Type.Optional(Type.Integer({ minimum: 1000, maximum: 9999, description: 'market year' })),
  is_custom: Type.Optional(
    Type.Boolean({
      description: 'true: also check that each group has a plan its members may enrol in together',
    }),
  ),
  division: Type.Optional(literalUnion(['HealthCare', 'Dental'])),
  enrollment_groups: Type.Array(
    Type.Object({
      id: Type.Optional(Id),
      csr: Type.Optional(Csr),
      enrollees: Type.Array(Id, { minItems: 1, maxItems: 30, description: 'enrollee ids' }),
      subscriber_id: Type.Optional(Id),
      relationships: Type.Optional(Type.Array(RelationshipEdge, { maxItems: 200 })),
      effective_date: Type.Optional(DateText),
    }),
    { minItems: 1, maxItems: 30 },
  ),
  enrollees: Type.Array(ExtendedEnrollee, { minItems: 1, maxItems: 30 }),
});

const FlattenedEnrollmentGroup = Type.Object({
  id: Type.String(),
  csr: Type.String(),
  enrollees: Type.Array(ExtendedEnrollee),
  grouping_reason: Type.String({
    description:
      '"valid: …" for a group that may enrol as given; otherwise the conflict that split it, starting ' +
      'with address, csr, hardship, no_plans or business_rules, and what it compared',
  }),
  year: Type.Integer(),
  subscriber_id: Type.String(),
  relationships: Type.Array(RelationshipEdge),
  effective_date: Type.String(),
});

const ValidateAnswer = Type.Object({ suggested_groups: Type.Array(FlattenedEnrollmentGroup) });

const FIXES: Record<string, string> = {
  enrollees: 'enrollees: 1 to 30 enrollees, each with an id',
  enrollment_groups: 'enrollment_groups: 1 to 30 groups, each listing its enrollee ids',
  year: 'year: must be a 4-digit year',
  division: 'division: HealthCare or Dental',
};

/** POST /enrollment/validate: whether enrollment groups can enrol as given, and how to regroup them. */
export function registerEnrollmentRoutes(api: App, deps: PlansDeps): void {
  api.post(
    '/enrollment/validate',
    {
      attachValidation: true,
      schema: {
        tags: ['plan-api'],
        summary: 'Validate enrollment groups (CMS ExtendedEnrollment)',
        description:
          'Each group is checked for the conflicts the CMS document names: enrollees living in different ' +
          'counties, different cost-sharing reductions, and a hardship exemption beside enrollees who may not ' +
          'buy a catastrophic plan. With `is_custom`, also that the group has a plan its enrollees may enrol ' +
          'in together: sold at the subscriber’s address (location: countyfips, state, zipcode), allowed by ' +
          'every enrollee’s `allowed_plan_ids` and `allowed_metal_levels`, and whose issuer’s business rules ' +
          '(Business Rules PUF) accept each enrollee’s relationship to the subscriber and age — the rules ' +
          'of `is_ineligible` in plan search. Ages are on 1 January of `year` unless `effective_age` is given; ' +
          'relationships come from the group’s edges from the subscriber, else the enrollee’s own, and must ' +
          'be valid for the year. 200 when every group is valid, 400 with the same body when one is not: ' +
          '`suggested_groups` then holds the parts of each invalid group, each with its `grouping_reason`. ' +
          '`maxAPTC` is accepted and not used. A malformed request is 1003.',
        querystring: YearQuery,
        body: ExtendedEnrollmentBody,
        response: {
          ...errorResponses,
          200: ValidateAnswer,
          400: Type.Union([ValidateAnswer, PlanError], {
            description: 'an invalid group (the same body as 200), or a malformed request (1003)',
          }),
        },
      },
    },
    async (request, reply) => {
      refuseInvalidInput(request, 'enrollment validate', FIXES);
      const body = request.body as Static<typeof ExtendedEnrollmentBody>;
      const year = await pricedYear(deps, request, body);
      const answer = await validateEnrollment(
        body as ExtendedEnrollment,
        year,
        async (place) => (await marketContext(deps, year, { place, market: 'Individual' })).market.plans,
      );
      // The enrollees are echoed as the request gave them, so they meet the schema the request did.
      const groups = answer.suggested_groups as Static<typeof ValidateAnswer>['suggested_groups'];
      return reply.code(answer.valid ? 200 : 400).send({ suggested_groups: groups });
    },
  );
}
