import { Type } from 'typebox';
import type { App } from '../../shared/http.js';
import type { PlansDeps } from '../deps.js';
import { invalidInput, planError } from '../errors.js';
import { usesData } from '../gateway/sample-data.js';
import { findState } from '../tables/states.js';
import { refuseInvalidInput } from './invalid-input.js';
import { IssuerId, StateCode, YearQuery } from '../input-schemas.js';
import { yearOrCurrent } from './market-year.js';
import { MARKETPLACE_RULE, refuseOwnExchange } from '../market/marketplace.js';
import { errorResponses } from './schemas.js';
import { Issuer } from './shapes.js';

const tags = ['plan-api'];

/**
 * Default and largest page of `GET /issuers` (CMS document: limit defaults to 25), and the largest
 * offset: HIOS issuer ids have five digits, so a year has fewer than 100,000 issuers; a larger offset
 * (1e20) would overflow the databases' integers.
 */
export const ISSUER_PAGE = { default: 25, max: 100, maxOffset: 100_000 } as const;

/** Kinds an issuer answer is built from. */
const ISSUER_KINDS = ['plan-attributes', 'landscape', 'business-rules'];

/** Issuers of a market year: a page of them, or one by HIOS id. */
export function registerIssuerRoutes(api: App, deps: PlansDeps): void {
  api.get(
    '/issuers',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: 'Issuers of a market year, by HIOS id',
        description:
          `Pages of \`limit\` issuers (default ${ISSUER_PAGE.default}, at most ${ISSUER_PAGE.max}) from ` +
          `\`offset\` (at most ${ISSUER_PAGE.maxOffset}); \`total\` counts every issuer that matches. ` +
          '`year` defaults to the current market year. With `state`: 1003 "state is not a valid ' +
          'marketplace state" for a state known to run its own exchange in the year. ' +
          MARKETPLACE_RULE,
        querystring: Type.Object({
          year: YearQuery.properties.year,
          state: Type.Optional(StateCode),
          limit: Type.Optional(
            Type.Integer({ minimum: 1, maximum: ISSUER_PAGE.max, default: ISSUER_PAGE.default }),
          ),
          offset: Type.Optional(Type.Integer({ minimum: 0, maximum: ISSUER_PAGE.maxOffset, default: 0 })),
        }),
        response: {
          200: Type.Object({
            issuers: Type.Array(Issuer),
            total: Type.Integer({ description: 'issuers matching, before paging' }),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'issuers', {
        state: 'state: must be a 2-letter USPS abbreviation',
        limit: `limit: must be an integer from 1 to ${ISSUER_PAGE.max}`,
        offset: `offset: must be an integer from 0 to ${ISSUER_PAGE.maxOffset}`,
      });
      // The defaults are filled in by validation.
      const { state, limit = ISSUER_PAGE.default, offset = 0 } = request.query;
      if (state !== undefined && !findState(state))
        throw invalidInput('issuers', `state: ${state} is not a state`);
      const year = await yearOrCurrent(deps, request.query.year);
      usesData(request, ISSUER_KINDS, year);
      if (state !== undefined) await refuseOwnExchange(deps, state, year);
      return deps.issuers.listIssuers({ year, state, limit, offset });
    },
  );

  api.get(
    '/issuers/:issuer_id',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: 'An issuer by its 5-digit HIOS id',
        description: '`year` defaults to the current market year. 1004 when the year has no such issuer.',
        params: Type.Object({ issuer_id: IssuerId }),
        querystring: YearQuery,
        response: { 200: Type.Object({ issuer: Issuer }), ...errorResponses },
      },
    },
    async (request) => {
      refuseInvalidInput(request, 'issuers', { issuer_id: 'invalid issuer ID format' });
      const year = await yearOrCurrent(deps, request.query.year);
      usesData(request, ISSUER_KINDS, year);
      const issuer = await deps.issuers.findIssuer(year, request.params.issuer_id);
      if (!issuer) throw planError(1004, `no issuer ${request.params.issuer_id} in ${year}`);
      return { issuer };
    },
  );
}
