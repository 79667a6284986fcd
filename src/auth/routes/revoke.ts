import type { App } from '../../shared/http.js';
import { oauthErrors } from '../errors.js';
import type { AuthDeps } from '../deps.js';
import { revokeSingleToken, revokeTokenAndGrant } from '../oauth/revocation.js';
import { authenticatedClient, formParams } from './client-request.js';

export function registerRevokeRoutes(app: App, deps: AuthDeps): void {
  const config = { errors: oauthErrors };

  /**
   * POST /v2/o/revoke/ — revokes the token and its data access grant; always 200 for a valid client
   * (docs/decisions.md#revoke).
   */
  const revokeSchema = {
    tags: ['authorization'],
    summary: 'Revoke a token and its data access grant (always 200)',
  };
  app.post('/v2/o/revoke', { config, schema: revokeSchema }, async (request, reply) => {
    const params = formParams(request);
    const client = await authenticatedClient(deps, request, params);
    await revokeTokenAndGrant(deps, client, params.token);
    return reply.status(200).send('');
  });

  /** POST /v2/o/revoke_token/ — RFC 7009 revocation of one token; the grant stays. */
  const rfc7009 = { tags: ['authorization'], summary: 'RFC 7009 revocation of one token' };
  app.post('/v2/o/revoke_token', { config, schema: rfc7009 }, async (request, reply) => {
    const params = formParams(request);
    const client = await authenticatedClient(deps, request, params);
    await revokeSingleToken(deps, client, params.token);
    return reply.status(200).send('');
  });
}
