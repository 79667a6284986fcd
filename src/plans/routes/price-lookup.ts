import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { jsonError } from '../../shared/errors.js';
import type { App } from '../../shared/http.js';
import type { PlansDeps } from '../deps.js';
import { usesData } from '../gateway/sample-data.js';
import type { ProcedureCost } from '../store/prices.js';
import { GatewayMessage } from './schemas.js';
import { PRICE_KINDS, priceScope, type PriceScope } from '../prices/scope.js';

const errors = {
  400: GatewayMessage,
  401: GatewayMessage,
  403: GatewayMessage,
  404: GatewayMessage,
  429: GatewayMessage,
};

const Code = Type.Object({
  code: Type.String({ description: 'HCPCS Level II or CPT code' }),
  description: Type.String(),
  frequency: Type.Integer({
    description:
      "how often the procedure is performed (the operator's procedure list); 0 when none is loaded",
  }),
});

const Cost = Type.Object({
  code: Type.String({
    description: 'the procedure (added: the CMS document omits it, so bulk items could not be told apart)',
  }),
  facilityType: Type.String({
    description: '`HOPD` (hospital outpatient department, OPPS) or `ASC` (ambulatory surgical center)',
  }),
  cost: Type.Number({ description: 'what Medicare pays: `total − copay`, dollars' }),
  copay: Type.Number({ description: "the beneficiary's national copayment, dollars" }),
  total: Type.Number({ description: 'the national payment rate, dollars' }),
});

const CodeParam = Type.Object({
  code: Type.String({ description: 'a 5-character HCPCS Level II or CPT code' }),
});
const Limit = Type.Optional(
  Type.Integer({ minimum: 1, maximum: 100_000, description: 'at most this many items' }),
);

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

const dollars = (cents: number) => cents / 100;

function costShape(cost: ProcedureCost) {
  return {
    code: cost.code,
    facilityType: cost.facilityType,
    cost: dollars(cost.totalCents - cost.copayCents),
    copay: dollars(cost.copayCents),
    total: dollars(cost.totalCents),
  };
}

/** What the answer reads, from the loaded datasets; labelled as sample when it is the generated sample. */
async function scopeOf(request: FastifyRequest, deps: PlansDeps): Promise<PriceScope> {
  const scope = priceScope(await deps.samples.datasets());
  usesData(request, scope.sample ? PRICE_KINDS : []);
  return scope;
}

/** The price lookup's four routes (its OpenAPI document, v1.1.1). */
export function registerPriceLookupRoutes(api: App, deps: PlansDeps): void {
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
