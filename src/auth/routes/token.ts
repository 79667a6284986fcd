import type { App } from '../../shared/http.js';
import { oauthErrors } from '../errors.js';
import type { AuthDeps } from '../deps.js';
import { oauthError } from '../oauth/errors.js';
import { tokenGrants } from '../oauth/grants/index.js';
import { TokenResponseSchema, OAuthErrorSchema, ServiceErrorSchema } from './schemas.js';
import { authenticatedClient, formParams } from './client-request.js';

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
      const client = await authenticatedClient(deps, request, params);
      if (!params.grant_type) throw oauthError(400, 'invalid_request', 'Missing grant_type parameter.');
      const grant = tokenGrants.get(params.grant_type);
      if (!grant) throw oauthError(400, 'unsupported_grant_type');
      const body = await grant.handle(deps, { app: client, params });
      // RFC 6749 §5.1: token responses are never cached.
      return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(body);
    },
  );
}
