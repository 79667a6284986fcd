import type { FastifyRequest } from 'fastify';
import { formBody } from '../../shared/form.js';
import { authenticateClient, readClientCredentials } from '../oauth/client-auth.js';
import type { AuthDeps } from '../deps.js';
import { oauthError } from '../oauth/errors.js';
import type { ClientApp } from '../store/apps.js';

/** The form parameters of a token-side request, each once, text only (RFC 6749 §3.2). */
export function formParams(request: FastifyRequest): Record<string, string | undefined> {
  return formBody(request, (_status, message) => oauthError(400, 'invalid_request', message));
}

/** Authenticates the calling client by HTTP Basic or body credentials; failures are audited. */
export function authenticatedClient(
  deps: AuthDeps,
  request: FastifyRequest,
  params: Record<string, string | undefined>,
): Promise<ClientApp> {
  const credentials = readClientCredentials(request.headers.authorization, params);
  return authenticateClient(deps.apps, credentials, (clientId, reason) =>
    deps.audit('client_auth_failed', { client_id: clientId, reason, path: request.routeOptions.url }),
  );
}
