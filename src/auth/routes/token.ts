import type { FastifyRequest } from 'fastify';
import type { App } from '../../shared/http.js';
import { oauthErrors } from '../errors.js';
import type { AuthDeps } from '../deps.js';
import { oauthError } from '../oauth/errors.js';
import { tokenGrants } from '../oauth/grants/index.js';
import { quickRefresh } from '../oauth/grants/refresh-token.js';
import { readClientCredentials } from '../oauth/client-auth.js';
import { TokenResponseSchema, OAuthErrorSchema, ServiceErrorSchema } from './schemas.js';
import { authenticatedClient, formParams } from './client-request.js';

/** Client authentication, then the request's grant type (RFC 6749 §3.2, §4). */
async function fullGrant(
  deps: AuthDeps,
  request: FastifyRequest,
  params: Record<string, string | undefined>,
) {
  const client = await authenticatedClient(deps, request, params);
  if (!params.grant_type) throw oauthError(400, 'invalid_request', 'Missing grant_type parameter.');
  const grant = tokenGrants.get(params.grant_type);
  if (!grant) throw oauthError(400, 'unsupported_grant_type');
  return grant.handle(deps, { app: client, params });
}

/** POST /v2/o/token/ — RFC 6749 §3.2: authenticate the client, then hand the request to its grant type. */
export function registerTokenRoute(app: App, deps: AuthDeps): void {
  app.post(
    '/v2/o/token',
    {
      config: { errors: oauthErrors },
      schema: {
        description: 'Exchange an authorization code or a refresh token for tokens.',
        tags: ['authorization'],
        response: {
          200: TokenResponseSchema,
          400: OAuthErrorSchema,
          401: OAuthErrorSchema,
          403: ServiceErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const params = formParams(request);
      // The common refresh in one round trip; anything it refuses takes the full path below.
      const quick =
        params.grant_type === 'refresh_token'
          ? await quickRefresh(deps, readClientCredentials(request.headers.authorization, params), params)
          : undefined;
      const body = quick ?? (await fullGrant(deps, request, params));
      // RFC 6749 §5.1: token responses are never cached.
      return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(body);
    },
  );
}
