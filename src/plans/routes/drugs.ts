import { Type } from 'typebox';
import type { App } from '../../shared/http.js';
import type { PlansDeps } from '../deps.js';
import { planError } from '../errors.js';
import { usesData } from '../gateway/sample-data.js';
import { Drug, DrugCoverage } from './drug-shapes.js';
import { parseIdList, PLAN_IDS, type IdList } from './id-lists.js';
import { refuseInvalidInput } from './invalid-input.js';
import { YearQuery } from '../input-schemas.js';
import { yearOrCurrent } from './market-year.js';
import { nextAndPrev, PAGE, Paging, PagingLinks } from './paging.js';
import { errorResponses } from './schemas.js';
import { drugCoverageJson } from '../drugs/coverage.js';
import { coverageVersion } from '../search/coverage-version.js';

const tags = ['drugs'];
/** Drugs a typeahead offers at a time. */
export const AUTOCOMPLETE_SIZE = 10;
const RXCUIS: IdList = { name: 'drugs', pattern: /^[0-9]{1,10}$/, form: 'RxCUIs (1 to 10 digits)', max: 50 };

const Query = (minLength: number) =>
  Type.String({
    minLength,
    maxLength: 200,
    description: `drug name or its start (at least ${minLength} characters)`,
  });

/** Drug names, typeahead and coverage by plan formularies. */
export function registerDrugRoutes(api: App, deps: PlansDeps): void {
  api.get(
    '/drugs/autocomplete',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: 'Drugs whose name starts like q (typeahead)',
        description:
          `Up to ${AUTOCOMPLETE_SIZE} RxNorm clinical and branded drugs whose name has a word starting with ` +
          'each word of `q`, shortest names first. A bare array, as the deployed service answers.',
        querystring: Type.Object({ q: Query(3), year: YearQuery.properties.year }),
        response: { 200: Type.Array(Drug), ...errorResponses },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'drugs autocomplete', { q: 'q: at least 3 characters are required' });
      usesData(request, ['rxnorm']);
      return deps.drugs.search(request.query.q, AUTOCOMPLETE_SIZE);
    },
  );

  api.get(
    '/drugs/search',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: 'Drugs by name, a page at a time',
        description:
          'RxNorm drugs whose name has a word starting with each word of `q`, shortest names first; ' +
          '`next` / `prev` are the URLs of the neighbouring pages (add your `apikey`).',
        querystring: Type.Object({ q: Query(1), year: YearQuery.properties.year, ...Paging.properties }),
        response: {
          200: Type.Object({ drugs: Type.Array(Drug), ...PagingLinks.properties }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'drugs search', { q: 'q: a drug name is required' });
      // The defaults are filled in by validation (paging.ts).
      const { q, limit = PAGE.default, offset = 0 } = request.query;
      usesData(request, ['rxnorm']);
      const found = await deps.drugs.search(q, limit + 1, offset);
      return {
        drugs: found.slice(0, limit),
        ...nextAndPrev(request, { limit, offset }, found.length > limit),
      };
    },
  );

  api.get(
    '/drugs/covered',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: 'Whether plans cover drugs',
        description:
          'For each drug of `drugs` (comma-joined RxCUIs, at most 50) and each plan of `planids` ' +
          `(comma-joined, at most ${PLAN_IDS.max}): Covered when the plan's formulary lists it, ` +
          "GenericCovered (with `generic_rxcui`) when it lists the brand's generic instead, NotCovered, " +
          'or DataNotProvided when the issuer published no formulary for the plan. 1014 when an RxCUI ' +
          'is neither an RxNorm drug nor on any formulary of the year.',
        querystring: Type.Object({
          drugs: Type.String({ description: 'RxCUIs, comma-joined', maxLength: 1000 }),
          planids: Type.String({ description: 'plan ids, comma-joined', maxLength: 8000 }),
          year: YearQuery.properties.year,
        }),
        response: { 200: Type.Object({ coverage: Type.Array(DrugCoverage) }), ...errorResponses },
      },
    },
    async (request, reply) => {
      refuseInvalidInput(request, 'drugs covered', {
        drugs: 'drugs: comma-joined RxCUIs are required',
        planids: 'planids: comma-joined plan ids are required',
      });
      const rxcuis = parseIdList('drugs covered', RXCUIS, request.query.drugs);
      const planIds = parseIdList('drugs covered', PLAN_IDS, request.query.planids);
      const year = await yearOrCurrent(deps, request.query.year);
      usesData(request, ['rxnorm', 'mr-puf'], year);
      const version = await coverageVersion(deps);
      const answer = await deps.drugs.coverageFacts(year, rxcuis, planIds, version);
      if ('unknown' in answer) {
        throw planError(
          1014,
          `no drug with RxCUI ${answer.unknown.join(', ')} (RxNorm or ${year} formularies)`,
        );
      }
      // A thousand small objects: written out directly (ids are digits and HIOS ids, nothing to escape).
      return reply
        .type('application/json; charset=utf-8')
        .send(drugCoverageJson(rxcuis, planIds, answer) as unknown as { coverage: [] });
    },
  );
}
