import { Type } from 'typebox';
import type { App } from '../../shared/http.js';
import type { PlansDeps } from '../deps.js';
import { planError } from '../errors.js';
import { usesData } from '../gateway/sample-data.js';
import { refuseInvalidInput } from './invalid-input.js';
import { PlanId, YearQuery } from '../input-schemas.js';
import { yearOrCurrent } from './market-year.js';
import { missingBenefits } from '../quote/data-notes.js';
import { DataNotesShape, Plan } from './plan-shape.js';
import { errorResponses } from './schemas.js';

/** Kinds a plan's details are assembled from. */
const PLAN_DETAIL_KINDS = [
  'plan-attributes',
  'landscape',
  'benefits',
  'quality',
  'networks',
  'business-rules',
];

/** One plan's details, without premiums. */
export function registerPlanRoutes(api: App, deps: PlansDeps): void {
  api.get(
    '/plans/:plan_id',
    {
      attachValidation: true,
      schema: {
        tags: ['plan-api'],
        summary: "A plan's details: issuer, cost sharing of every CSR variant, benefits, quality rating",
        description:
          'No premium or tax credit: this endpoint has no household (POST /plans/{plan_id} prices one). ' +
          'Deductibles and MOOPs of every CSR variant, each tagged with its `csr`; `sbcs` of the standard ' +
          'variant; `quality_rating.available` false when the plan has no rating. `year` defaults to the ' +
          'current market year. 1006 when the year has no such plan. `data_notes.benefits` (our addition) ' +
          'says when no Benefits PUF is loaded for the year, so the empty `benefits` is not read as a fact.',
        params: Type.Object({ plan_id: PlanId }),
        querystring: YearQuery,
        response: {
          200: Type.Object({ plan: Plan, data_notes: Type.Optional(DataNotesShape) }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'get plan', {
        plan_id: 'plan_id: must be a 14-character HIOS plan ID (5 digits, state, 7 digits)',
      });
      const year = await yearOrCurrent(deps, request.query.year);
      usesData(request, PLAN_DETAIL_KINDS, year);
      const plan = await deps.planDetails.findPlanDetails(year, request.params.plan_id);
      if (!plan) throw planError(1006, `no plan ${request.params.plan_id} in ${year}`);
      const benefits = missingBenefits(await deps.samples.datasets(), year);
      return benefits ? { plan, data_notes: { benefits } } : { plan };
    },
  );
}
