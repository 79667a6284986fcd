import { Type } from 'typebox';
import type { App } from '../../shared/http.js';
import type { PlansDeps } from '../deps.js';
import { invalidInput, planError } from '../errors.js';
import { usesData } from '../gateway/sample-data.js';
import { PLAN_KINDS } from '../tables/plan-kinds.js';
import { findState } from '../tables/states.js';
import { refuseInvalidInput } from './invalid-input.js';
import { MARKETPLACE_RULE, refuseOwnExchange } from '../market/marketplace.js';
import { CountyFips, StateCode, YearQuery, ZipCode } from '../input-schemas.js';
import { yearOrCurrent } from './market-year.js';
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
          'Angeles) and in states rated by ZIP, the county elsewhere. Each place takes the latest row of ' +
          'the loaded rating-area tables for the year or before (a newer table that lists only some places ' +
          'leaves the others to older tables; a statewide ZIP3 row gives way to a newer county row). A ' +
          'table of the year itself wins; else the QHP Landscape of the year, when loaded, gives the ' +
          "county's area, and where it lists the county in several areas the 3-digit-ZIP tables decide " +
          'between them. The same areas serve every market. 1003 "state is not a valid marketplace state" ' +
          'for a state known to run its own exchange in the year. `year` defaults to the current market ' +
          'year. ' +
          MARKETPLACE_RULE +
          ' 1017 when no area can be determined (no table row, or a split county the ZIP cannot settle).',
        querystring: Type.Object({
          state: StateCode,
          fips: CountyFips,
          zipcode: ZipCode,
          year: YearQuery.properties.year,
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
      const { state, fips, zipcode } = request.query;
      const known = findState(state);
      if (!known) throw invalidInput('rate area', `state: ${state} is not a state`);
      if (!fips.startsWith(known.fips))
        throw invalidInput('rate area', `fips: county ${fips} is not in ${state}`);
      const year = await yearOrCurrent(deps, request.query.year);
      usesData(request, ['rating-areas', ...PLAN_KINDS], year);
      await refuseOwnExchange(deps, state, year);
      const found = await deps.ratingAreas.findRatingArea({ year, state, fips, zipcode });
      if (found === undefined) throw planError(1017, 'No rate area could be determined');
      // Labelled by the tables that gave the area (a 2026 answer from the real 2025 table is not sample).
      usesData(request, found.kinds, found.year);
      return { state, area: found.area };
    },
  );
}
