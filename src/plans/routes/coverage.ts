import { Type } from 'typebox';
import type { App } from '../../shared/http.js';
import type { PlansDeps } from '../deps.js';
import { usesData } from '../gateway/sample-data.js';
import { Drug } from './drug-shapes.js';
import { refuseInvalidInput } from './invalid-input.js';
import { YearQuery, ZipCode } from '../input-schemas.js';
import { yearOrCurrent } from './market-year.js';
import { NearbyProvider } from './provider-shapes.js';
import { originOf, PROVIDER_KINDS } from './providers.js';
import { errorResponses } from './schemas.js';

const tags = ['providers', 'drugs'];
const SIZE = 10;

/** Providers and drugs in one search, and what the issuers' coverage files hold. */
export function registerCoverageRoutes(api: App, deps: PlansDeps): void {
  api.get(
    '/coverage/search',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: 'Providers near a ZIP and drugs, by name, in one answer',
        description: `Up to ${SIZE} of each: providers as /providers/search, drugs as /drugs/search.`,
        querystring: Type.Object({
          q: Type.String({ minLength: 3, maxLength: 200, description: 'at least 3 characters' }),
          zipcode: ZipCode,
        }),
        response: {
          200: Type.Object({ providers: Type.Array(NearbyProvider), drugs: Type.Array(Drug) }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      refuseInvalidInput(request, 'coverage search', {
        q: 'q: at least 3 characters are required',
        zipcode: 'zipcode: a 5-digit ZIP code is required',
      });
      const { q, zipcode } = request.query;
      const origin = await originOf(deps, 'coverage search', zipcode, reply);
      const year = await yearOrCurrent(deps, undefined);
      usesData(request, [...PROVIDER_KINDS, 'rxnorm'], year);
      const [nearby, drugs] = await Promise.all([
        deps.providers.nearby(
          { q, zip: zipcode, types: ['Individual', 'Facility'], year, limit: SIZE, offset: 0 },
          origin,
        ),
        deps.drugs.search(q, SIZE),
      ]);
      return { providers: nearby.providers, drugs };
    },
  );

  api.get(
    '/coverage/stats',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: "What the issuers' coverage files of the current market year hold",
        description:
          'Issuers, distinct drugs and providers, plan–provider and plan–drug pairs of the current ' +
          'market year (or of `year`), and when they were last loaded (ISO 8601; empty when never).',
        querystring: YearQuery,
        response: {
          200: Type.Object({
            issuers: Type.Integer(),
            drugs: Type.Integer(),
            providers: Type.Integer(),
            providers_plans: Type.Integer(),
            drugs_plans: Type.Integer(),
            last_refreshed_at: Type.String(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'coverage stats', {});
      const year = await yearOrCurrent(deps, request.query.year);
      usesData(request, ['mr-puf'], year);
      const stats = await deps.providers.stats(year);
      return {
        issuers: stats.issuers,
        drugs: stats.drugs,
        providers: stats.providers,
        providers_plans: stats.providersPlans,
        drugs_plans: stats.drugsPlans,
        last_refreshed_at: stats.loadedAt === undefined ? '' : new Date(stats.loadedAt).toISOString(),
      };
    },
  );
}
