import type { FastifyReply, FastifyRequest } from 'fastify';
import { jsonError } from '../../shared/errors.js';
import type { PlansDeps } from '../deps.js';
import { consumeRateLimit, rateLimitHeaders } from './rate-limit.js';
import { SANDBOX_KEY_ID } from '../sandbox-key.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The id (never the key itself) of the plan-API key the request was let in with. */
    apiKeyId?: string;
  }
}

/** The key a request presents: the `apikey` query parameter, or an `apikey` header. */
function presentedKey(request: FastifyRequest): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.apikey;
  if (typeof fromQuery === 'string' && fromQuery !== '') return fromQuery;
  if (Array.isArray(fromQuery) && typeof fromQuery[0] === 'string') return fromQuery[0];
  const header = request.headers.apikey;
  return typeof header === 'string' && header !== '' ? header : undefined;
}

/**
 * The gateway in front of every `/api/v1` route (Kong key-auth and rate-limiting behaviour:
 * docs/decisions.md#plan-api-keys, #plan-rate-limits): no key → 401, unknown/revoked/expired key → 401, over
 * a limit → 429, and the limits with what remains of them on every answer.
 */
export function apiKeyGate(deps: PlansDeps) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const presented = presentedKey(request);
    if (!presented) {
      throw jsonError(
        401,
        { message: 'No API key found in request' },
        { 'www-authenticate': 'Key realm="openenroll"' },
      );
    }
    const key = await deps.apiKeys.findKey(presented);
    const now = deps.now();
    // The sandbox's public key is refused outside sandbox mode even if a row survived somehow.
    const publicKeyOutsideSandbox = key?.id === SANDBOX_KEY_ID && !deps.settings.sandbox;
    if (
      !key ||
      publicKeyOutsideSandbox ||
      key.revokedAt !== null ||
      (key.expiresAt !== null && key.expiresAt <= now)
    ) {
      throw jsonError(
        401,
        { message: 'Invalid authentication credentials' },
        { 'www-authenticate': 'Key realm="openenroll"' },
      );
    }
    request.apiKeyId = key.id;
    const decision = await consumeRateLimit(deps.rateCounters, key, now);
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) {
      throw jsonError(
        429,
        { message: 'API rate limit exceeded' },
        {
          ...headers,
          'retry-after': String(decision.tightest.reset),
        },
      );
    }
    reply.headers(headers);
  };
}
