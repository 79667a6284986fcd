import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { jsonError } from '../../shared/errors.js';
import type { App } from '../../shared/http.js';
import type { PricesDeps } from '../deps.js';
import { PRICE_KINDS, priceScope, type PriceScope } from '../scope.js';
import { Code, CodeParam, Cost, costShape, errors, Limit } from './shapes.js';

/** A 5-character code, upper-cased; 400 otherwise. */
function codeOf(param: string): string {
  const code = param.trim().toUpperCase();
  if (!/^[A-Z0-9]{5}$/.test(code)) {
    throw jsonError(400, {
      message: `Invalid request or code format: "${param}" is not a 5-character HCPCS or CPT code`,
    });
  }
  return code;
}

/** 400 for a query the schema refused (`limit` not a whole number from 1 to 100,000). */
function refuseInvalidQuery(request: FastifyRequest): void {
  if (!request.validationError) return;
  throw jsonError(400, {
    message: `Invalid request parameter(s): ${request.validationError.message.replace(/^querystring\//, '')}`,
  });
}

/** What the answer reads, from the loaded datasets; labelled as sample when it is the generated sample. */
async function scopeOf(request: FastifyRequest, deps: PricesDeps): Promise<PriceScope> {
  const scope = priceScope(await deps.samples.datasets());
  deps.samples.uses(request, scope.sample ? PRICE_KINDS : []);
  return scope;
}

/** The price lookup's four routes (its OpenAPI document, v1.1.1). */
export function registerPriceLookupRoutes(api: App, deps: PricesDeps): void {
  const tags = ['price-lookup'];
  api.get(
    '/codes',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: 'Codes matching a term (all codes without one)',
        description:
          'The term is case-insensitive and matches the start of a code or any part of a description. By ' +
          'frequency (most performed first), then code.',
        querystring: Type.Object({
          term: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          limit: Limit,
        }),
        response: { 200: Type.Array(Code), ...errors },
      },
    },
    async (request) => {
      refuseInvalidQuery(request);
      const scope = await scopeOf(request, deps);
      return deps.prices.findCodes(scope, { term: request.query.term?.trim(), limit: request.query.limit });
    },
  );

  api.get(
    '/codes/:code',
    {
      schema: {
        tags,
        summary: 'A code, its description and frequency',
        params: CodeParam,
        response: { 200: Code, ...errors },
      },
    },
    async (request) => {
      const code = codeOf(request.params.code);
      const found = await deps.prices.findCode(await scopeOf(request, deps), code);
      if (!found) throw jsonError(404, { message: `Code information not found: ${code}` });
      return found;
    },
  );

  api.get(
    '/costs',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: 'Costs of every code (the bulk cost endpoint), by code then facility type',
        querystring: Type.Object({ limit: Limit }),
        response: { 200: Type.Array(Cost), ...errors },
      },
    },
    async (request) => {
      refuseInvalidQuery(request);
      const scope = await scopeOf(request, deps);
      return (await deps.prices.findCosts(scope, { limit: request.query.limit })).map(costShape);
    },
  );

  api.get(
    '/costs/:code',
    {
      schema: {
        tags,
        summary: "A code's costs, one per facility type",
        params: CodeParam,
        response: { 200: Type.Array(Cost), ...errors },
      },
    },
    async (request) => {
      const code = codeOf(request.params.code);
      const costs = await deps.prices.findCosts(await scopeOf(request, deps), { code });
      if (costs.length === 0)
        throw jsonError(404, { message: `Cost information for the given code not found: ${code}` });
      return costs.map(costShape);
    },
  );
}
