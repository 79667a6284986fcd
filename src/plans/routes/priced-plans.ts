import { Type, type Static } from 'typebox';
import type { App } from '../../shared/http.js';
import type { PlansDeps } from '../deps.js';
import { planError } from '../errors.js';
import { PlanId, YearQuery } from '../input-schemas.js';
import { priceAll, withOopcRange } from '../quote/credit-pricer.js';
import { oopcNote } from '../quote/yearly-cost.js';
import { answerNotes } from '../quote/data-notes.js';
import { pricedPlanObject } from '../quote/premium-fields.js';
import { pricedContext, rateArea } from '../quote/priced-context.js';
import { coverageOf } from '../search/coverage-filter.js';
import { refuseInvalidInput } from './invalid-input.js';
import { DataNotesShape, PricedPlan, RateArea } from './plan-shape.js';
import { HOUSEHOLD_FIXES, PlanRequest, PlansRequest, PRICING_RULES } from './priced-requests.js';
import { pricedYear } from './priced-year.js';
import { errorResponses } from './schemas.js';

/** The priced plan endpoints: several plans for comparison, and one plan's details, for a household. */
export function registerPricedPlanRoutes(api: App, deps: PlansDeps): void {
  api.post(
    '/plans',
    {
      attachValidation: true,
      schema: {
        tags: ['plan-api'],
        summary: 'Several plans in full, priced for a household (plan comparison)',
        description:
          'Every plan of `plan_ids` sold at the place, in the order given, with all CSR variants and ' +
          'benefits and the household premium fields; ids not sold there are left out, and 1006 when none ' +
          'is. With `filter.drugs` / `filter.providers` each plan carries `drug_coverage` / ' +
          '`provider_coverage`. ' +
          PRICING_RULES,
        querystring: YearQuery,
        body: PlansRequest,
        response: {
          200: Type.Object({ plans: Type.Array(PricedPlan), data_notes: Type.Optional(DataNotesShape) }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'plans', HOUSEHOLD_FIXES);
      const body = request.body;
      const context = await pricedContext(deps, await pricedYear(deps, request, body), body);
      const byId = new Map(context.market.plans.map((p) => [p.id, p]));
      const chosen = [...new Set(body.plan_ids)].flatMap((id) => {
        const plan = byId.get(id);
        return plan ? [plan] : [];
      });
      if (chosen.length === 0) {
        throw planError(
          1006,
          `none of the plans is sold in county ${body.place.countyfips} (ZIP ${body.place.zipcode}) in ${context.year}`,
        );
      }
      const { year, household, eligibility } = context;
      const { yearly } = context;
      let priced = priceAll(chosen, year, household, eligibility, body.csr_override, yearly);
      if (body.oopc_range) priced = priced.map((p) => withOopcRange(p, yearly));
      const coverage = await coverageOf(deps, context, body);
      const notes = await answerNotes(
        deps,
        context,
        priced.some((p) => p.premium.available),
        {
          oopc: oopcNote(
            priced.map((p) => p.oopc),
            yearly,
          ),
        },
      );
      return {
        plans: priced.map((p) => ({ ...pricedPlanObject(p), ...coverage?.blocks.get(p.plan.id) })),
        ...(notes ? { data_notes: notes } : {}),
      };
    },
  );

  api.post(
    '/plans/:plan_id',
    {
      attachValidation: true,
      schema: {
        tags: ['plan-api'],
        summary: "One plan's details priced for a household, with the place's rating area",
        description:
          'As GET /plans/{plan_id} with the premium fields; `current_enrollment` rates its plan with the ' +
          'tobacco status the person enrolled with. 1006 when the plan is not sold at the place. With ' +
          '`filter.drugs` / `filter.providers` the plan carries `drug_coverage` / `provider_coverage`. ' +
          PRICING_RULES,
        params: Type.Object({ plan_id: PlanId }),
        querystring: YearQuery,
        body: PlanRequest,
        response: {
          200: Type.Object({
            plan: PricedPlan,
            rate_area: RateArea,
            data_notes: Type.Optional(DataNotesShape),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'plan', {
        ...HOUSEHOLD_FIXES,
        plan_id: 'plan_id: must be a 14-character HIOS plan ID (5 digits, state, 7 digits)',
      });
      const body = request.body as Static<typeof PlanRequest>;
      const context = await pricedContext(deps, await pricedYear(deps, request, body), body);
      const plan = context.market.plans.find((p) => p.id === request.params.plan_id);
      if (!plan) {
        throw planError(
          1006,
          `plan ${request.params.plan_id} is not sold in county ${body.place.countyfips} (ZIP ${body.place.zipcode}) in ${context.year}`,
        );
      }
      const { year, household, eligibility } = context;
      const { yearly } = context;
      let priced = priceAll([plan], year, household, eligibility, body.csr_override, yearly);
      if (body.oopc_range) priced = priced.map((p) => withOopcRange(p, yearly));
      const coverage = await coverageOf(deps, context, body);
      const notes = await answerNotes(deps, context, priced[0]!.premium.available, {
        oopc: oopcNote([priced[0]!.oopc], yearly),
      });
      return {
        plan: { ...pricedPlanObject(priced[0]!), ...coverage?.blocks.get(plan.id) },
        rate_area: rateArea(context),
        ...(notes ? { data_notes: notes } : {}),
      };
    },
  );
}
