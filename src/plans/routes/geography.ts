import { Type } from 'typebox';
import type { App } from '../../shared/http.js';
import type { PlansDeps } from '../deps.js';
import { invalidInput, planError } from '../errors.js';
import { usesData } from '../gateway/sample-data.js';
import { PLAN_KINDS } from '../market-years.js';
import { findState } from '../tables/states.js';
import { refuseInvalidInput } from './invalid-input.js';
import { CountyFips, StateCode, Year, YearQuery, ZipCode } from './input-schemas.js';
import { errorResponses } from './schemas.js';
import { County, RateArea, ZipCounty } from './shapes.js';

/** At most this many counties answer a ZIP prefix (typeahead). */
export const ZIP_PREFIX_LIMIT = 50;

const tags = ['plan-api'];

/** Counties by ZIP code and by FIPS code, and the rating area of a place. */
export function registerGeographyRoutes(api: App, deps: PlansDeps): void {
  api.get(
    '/counties/by/zip/:zipcode',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: 'Counties of a ZIP code, or of the ZIP codes starting with a 1–4 digit prefix',
        description:
          'A 5-digit ZIP gives every county its addresses lie in, the county with the largest share of ' +
          "the ZIP's residential addresses first (HUD USPS ZIP→county crosswalk). A 1–4 digit prefix (for " +
          `typeahead) gives the counties of every matching ZIP, by ZIP, at most ${ZIP_PREFIX_LIMIT} rows. ` +
          'A ZIP we do not know gives an empty list. `year` is accepted and ignored: one geography vintage ' +
          'is loaded.',
        params: Type.Object({
          zipcode: Type.String({
            pattern: '^[0-9]{1,5}$',
            description: '5-digit ZIP code or a 1–4 digit prefix',
          }),
        }),
        querystring: YearQuery,
        response: { 200: Type.Object({ counties: Type.Array(ZipCounty) }), ...errorResponses },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'counties by zip', {
        zipcode: 'zipcode: must be a 5-digit ZIP code or a 1-4 digit prefix',
      });
      usesData(request, ['zip-county', 'counties']);
      return { counties: await deps.geography.findCountiesByZip(request.params.zipcode, ZIP_PREFIX_LIMIT) };
    },
  );

  api.get(
    '/counties/:fips',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: 'A county by its 5-digit FIPS code',
        description: 'Census county names. 1001 when no county has the code.',
        params: Type.Object({ fips: CountyFips }),
        querystring: YearQuery,
        response: { 200: County, ...errorResponses },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'get county', { fips: 'FIPS: has invalid format' });
      usesData(request, ['counties']);
      const county = await deps.geography.findCounty(request.params.fips);
      if (!county) throw planError(1001, `no county with FIPS ${request.params.fips}`);
      return county;
    },
  );

  api.get(
    '/rate-areas',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: 'The rating area of a place in a market year',
        description:
          'Rating areas of 45 CFR 147.102(b): the 3-digit ZIP decides inside a county split by ZIP (Los ' +
          'Angeles) and in states rated by ZIP, the county elsewhere. Uses the latest rating-area table of ' +
          'the year or before, and the QHP Landscape of the year when loaded. The same areas serve every ' +
          'market. A state without plans of the year in our data, when plans of that year are loaded, is ' +
          'not a marketplace state (1003); 1017 when no area can be determined.',
        querystring: Type.Object({
          state: StateCode,
          fips: CountyFips,
          zipcode: ZipCode,
          year: Year,
          market: Type.Optional(
            Type.Union([Type.Literal('Individual'), Type.Literal('SHOP'), Type.Literal('Any')], {
              default: 'Individual',
            }),
          ),
        }),
        response: { 200: RateArea, ...errorResponses },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'rate area', {
        state: 'state: must be a 2-letter USPS abbreviation',
        fips: 'fips: must be a 5-digit county FIPS code',
        zipcode: 'zipcode: must be a 5-digit ZIP code',
        market: 'market: must be Individual, SHOP or Any',
      });
      const { state, fips, zipcode, year } = request.query;
      const known = findState(state);
      if (!known) throw invalidInput('rate area', `state: ${state} is not a state`);
      if (!fips.startsWith(known.fips))
        throw invalidInput('rate area', `fips: county ${fips} is not in ${state}`);
      usesData(request, ['rating-areas', ...PLAN_KINDS]);
      const planStates = await deps.marketplace.findPlanStates(year);
      if (planStates.size > 0 && !planStates.has(state)) {
        throw planError(
          1003,
          `${state} has no marketplace plans for ${year}`,
          'state is not a valid marketplace state',
        );
      }
      const area = await deps.ratingAreas.findRatingArea({ year, state, fips, zipcode });
      if (area === undefined) throw planError(1017, 'No rate area could be determined');
      return { state, area };
    },
  );
}
