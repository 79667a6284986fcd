import { Type } from 'typebox';
import type { App } from '../../shared/http.js';
import type { PlansDeps } from '../deps.js';
import { invalidInput, planError } from '../errors.js';
import { usesData } from '../gateway/sample-data.js';
import { findState } from '../tables/states.js';
import { refuseInvalidInput } from './invalid-input.js';
import { MARKETPLACE_RULE, refuseOwnExchange } from '../market/marketplace.js';
import { CountyFips, PlanId, StateCode, ZipCode } from '../input-schemas.js';
import { errorResponses } from './schemas.js';
import { Crosswalk } from './shapes.js';

/** Where a plan's enrollees go the next year. */
export function registerCrosswalkRoutes(api: App, deps: PlansDeps): void {
  api.get(
    '/crosswalk',
    {
      attachValidation: true,
      schema: {
        tags: ['plan-api'],
        summary: "A previous year's plan crosswalked to the next year's plan",
        description:
          '`year` is the previous plan year, the year of `plan_id` (Plan ID Crosswalk PUF). The row for ' +
          'the ZIP code when the crosswalk splits the county, else the county-wide row. 1005 when none. ' +
          '1003 "state is not a valid marketplace state" for a `state` known to run its own exchange in ' +
          "`year` (the plan's year: a state that leaves HealthCare.gov the next year still has its " +
          'crosswalk). ' +
          MARKETPLACE_RULE,
        querystring: Type.Object({
          year: Type.Integer({
            minimum: 1000,
            maximum: 9999,
            description: "the previous (plan_id's) plan year",
          }),
          plan_id: PlanId,
          state: StateCode,
          zipcode: ZipCode,
          fips: CountyFips,
        }),
        response: { 200: Crosswalk, ...errorResponses },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'crosswalk', {
        year: 'year: the previous plan year is required (4 digits)',
        plan_id: 'plan_id: a 14-character HIOS plan ID is required',
        state: 'state: a 2-letter USPS abbreviation is required',
        zipcode: 'zipcode: a 5-digit ZIP code is required',
        fips: 'fips: a 5-digit county FIPS code is required',
      });
      const { year, plan_id: planId, state, zipcode, fips } = request.query;
      usesData(request, ['crosswalk'], year);
      if (!findState(state)) throw invalidInput('crosswalk', `state: ${state} is not a state`);
      await refuseOwnExchange(deps, state, year);
      const found = await deps.crosswalks.findCrosswalk({ year, planId, state, fips, zipcode });
      if (!found) throw planError(1005, `no crosswalk of plan ${planId} from ${year} in county ${fips}`);
      return { new_plan_id: found.newPlanId ?? '', level: String(found.level), reason: String(found.reason) };
    },
  );
}
