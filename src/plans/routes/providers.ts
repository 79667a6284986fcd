import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../shared/http.js';
import type { PlansDeps } from '../deps.js';
import { invalidInput, planError } from '../errors.js';
import { usesData } from '../gateway/sample-data.js';
import type { Origin } from '../providers/provider-service.js';
import { parseIdList, PLAN_IDS, type IdList } from './id-lists.js';
import { refuseInvalidInput } from './invalid-input.js';
import { YearQuery, ZipCode } from '../input-schemas.js';
import { yearOrCurrent } from './market-year.js';
import { nextAndPrev, PAGE, Paging, PagingLinks } from './paging.js';
import { NearbyProvider, Provider, ProviderCoverage } from './provider-shapes.js';
import { errorResponses } from './schemas.js';

const tags = ['providers'];
export const PROVIDER_KINDS = ['nppes', 'nucc-taxonomy', 'zip-locations', 'mr-puf'];
/** Providers a typeahead offers at a time. */
const AUTOCOMPLETE_SIZE = 10;
const NPIS: IdList = { name: 'providerids', pattern: /^[0-9]{10}$/, form: 'NPIs (10 digits)', max: 50 };
/** Header saying where distances were measured from when the ZIP has no point of its own. */
export const ORIGIN_HEADER = 'x-openenroll-distance-origin';

const TypeList = Type.Optional(
  Type.String({
    description:
      'Individual, Facility (NPPES organisations; Group is taken as Facility), comma-joined; default both',
    maxLength: 100,
  }),
);
const NearbyQuery = {
  q: Type.String({ minLength: 3, maxLength: 200, description: 'name, or its start (at least 3 characters)' }),
  zipcode: ZipCode,
  type: TypeList,
};
const FIXES = {
  q: 'q: at least 3 characters of a name are required',
  zipcode: 'zipcode: a 5-digit ZIP code is required',
};

/** The provider types asked (`type=Individual,Facility`), as the directory stores them. */
export function providerTypes(what: string, value: string | undefined): string[] {
  if (value === undefined || value.trim() === '') return ['Individual', 'Facility'];
  const types = new Set<string>();
  for (const part of value.split(',').map((t) => t.trim())) {
    if (part === 'Individual') types.add('Individual');
    else if (part === 'Facility' || part === 'Group') types.add('Facility');
    else throw invalidInput(what, `type: "${part.slice(0, 40)}" is not Individual, Facility or Group`);
  }
  return [...types];
}

/** Where distances from `zip` are measured; 1003 when nothing locates it. Says so when it is a fallback. */
export async function originOf(
  deps: PlansDeps,
  what: string,
  zip: string,
  reply: FastifyReply,
): Promise<Origin> {
  const origin = await deps.providers.origin(zip);
  if (!origin) throw invalidInput(what, `zipcode: no location is known for ZIP ${zip}`);
  if (origin.fallback) void reply.header(ORIGIN_HEADER, origin.fallback);
  return origin;
}

/** Providers near a ZIP, and whether plans' networks have them. */
export function registerProviderRoutes(api: App, deps: PlansDeps): void {
  const radius = deps.settings.providerRadiusMiles;
  api.get(
    '/providers/autocomplete',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: 'Providers near a ZIP whose name starts like q (typeahead)',
        description: `Up to ${AUTOCOMPLETE_SIZE} providers within ${radius} miles, nearest first.`,
        querystring: Type.Object(NearbyQuery),
        response: { 200: Type.Object({ providers: Type.Array(Provider) }), ...errorResponses },
      },
    },
    async (request, reply) => {
      refuseInvalidInput(request, 'providers autocomplete', FIXES);
      const types = providerTypes('providers autocomplete', request.query.type);
      const origin = await originOf(deps, 'providers autocomplete', request.query.zipcode, reply);
      const year = await yearOrCurrent(deps, undefined);
      usesData(request, PROVIDER_KINDS, year);
      const { providers } = await deps.providers.nearby(
        { q: request.query.q, zip: request.query.zipcode, types, year, limit: AUTOCOMPLETE_SIZE, offset: 0 },
        origin,
      );
      return { providers: providers.map((p) => p.provider) };
    },
  );

  api.get(
    '/providers/search',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: 'Providers near a ZIP by name, nearest first, a page at a time',
        description:
          `Providers within ${radius} miles of the ZIP (Census ZCTA points; distance to the provider's ` +
          'practice ZIP) whose name has a word starting with each word of `q`, nearest first; with ' +
          '`specialty`, only those with a specialty containing it. `next` / `prev` link the pages.',
        querystring: Type.Object({
          ...NearbyQuery,
          specialty: Type.Optional(Type.String({ maxLength: 200 })),
          year: YearQuery.properties.year,
          ...Paging.properties,
        }),
        response: {
          200: Type.Object({ providers: Type.Array(NearbyProvider), ...PagingLinks.properties }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      refuseInvalidInput(request, 'providers search', FIXES);
      // The defaults are filled in by validation (paging.ts).
      const { q, zipcode, specialty, limit = PAGE.default, offset = 0 } = request.query;
      const types = providerTypes('providers search', request.query.type);
      const origin = await originOf(deps, 'providers search', zipcode, reply);
      const year = await yearOrCurrent(deps, request.query.year);
      usesData(request, PROVIDER_KINDS, year);
      const { providers, more } = await deps.providers.nearby(
        { q, zip: zipcode, types, specialty, year, limit, offset },
        origin,
      );
      return { providers, ...nextAndPrev(request, { limit, offset }, more) };
    },
  );

  api.get(
    '/providers/covered',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: "Whether plans' networks have providers",
        description:
          'For each NPI of `providerids` and each plan of `planids` (comma-joined): Covered, with the ' +
          "addresses where the plan's issuer lists the provider and whether it accepts new patients; " +
          'NotCovered; or DataNotProvided when the issuer published no network for the plan. 1013 when ' +
          "an NPI is neither in the directory nor in any issuer's file of the year.",
        querystring: Type.Object({
          providerids: Type.String({ description: 'NPIs, comma-joined', maxLength: 1000 }),
          planids: Type.String({ description: 'plan ids, comma-joined', maxLength: 8000 }),
          year: YearQuery.properties.year,
        }),
        response: { 200: Type.Object({ coverage: Type.Array(ProviderCoverage) }), ...errorResponses },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'providers covered', {
        providerids: 'providerids: comma-joined NPIs are required',
        planids: 'planids: comma-joined plan ids are required',
      });
      const npis = parseIdList('providers covered', NPIS, request.query.providerids);
      const planIds = parseIdList('providers covered', PLAN_IDS, request.query.planids);
      const year = await yearOrCurrent(deps, request.query.year);
      usesData(request, PROVIDER_KINDS, year);
      const answer = await deps.providers.covered(year, npis, planIds);
      if ('unknown' in answer) {
        throw planError(
          1013,
          `no provider with NPI ${answer.unknown.join(', ')} (directory or ${year} networks)`,
        );
      }
      return answer;
    },
  );
}
