import { Type } from 'typebox';
import type { App } from '../../shared/http.js';
import type { PlansDeps } from '../deps.js';
import { invalidInput, planError } from '../errors.js';
import { usesData } from '../gateway/sample-data.js';
import {
  guidelineFor,
  guidelineYearOf,
  percentOfPoverty,
  povertyRegion,
  povertyTable,
} from '../tables/poverty-guidelines.js';
import { findState } from '../tables/states.js';
import { refuseInvalidInput } from './invalid-input.js';
import { StateCode, Year } from '../input-schemas.js';
import { errorResponses } from './schemas.js';

/** Household income as a percentage of the federal poverty level. */
export function registerHouseholdRoutes(api: App, _deps: PlansDeps): void {
  api.get(
    '/households/pcfpl',
    {
      attachValidation: true,
      schema: {
        tags: ['plan-api'],
        summary: 'Household income as a percentage of the federal poverty level',
        description:
          'income ÷ the poverty guideline for the household size and state × 100, rounded to 2 decimals. ' +
          '`year` is the market year, measured against the guidelines published in year − 1 (26 CFR ' +
          '1.36B-1(h)), as for the premium tax credit and GET /states/{abbrev}/poverty-guidelines. 1010 ' +
          'when we hold no guidelines for the year.',
        querystring: Type.Object({
          year: Year,
          state: StateCode,
          size: Type.Integer({ minimum: 1, maximum: 100, description: 'persons in the tax household' }),
          // A finite, plausible amount: 1e400 parses as Infinity, and no household earns a trillion.
          income: Type.Number({
            minimum: 0,
            maximum: 1e12,
            description: 'annual household income, US dollars',
          }),
        }),
        response: {
          200: Type.Object({ pc_fpl: Type.Number({ description: 'percent of FPL, 2 decimals' }) }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'pcfpl', {
        year: 'year: a 4-digit market year is required',
        state: 'state: a 2-letter USPS abbreviation is required',
        size: 'size: the household size, an integer from 1 to 100, is required',
        income: 'income: the annual household income, a number from 0 to 1000000000000, is required',
      });
      const { year, state, size, income } = request.query;
      if (!findState(state)) throw invalidInput('pcfpl', `state: ${state} is not a state`);
      usesData(request, []);
      const table = povertyTable(guidelineYearOf(year), povertyRegion(state));
      if (!table) throw planError(1010, `guideline not found for state: ${state}, year: ${year}`);
      return { pc_fpl: percentOfPoverty(income, guidelineFor(table, size)) };
    },
  );
}
