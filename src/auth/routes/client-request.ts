import type { FastifyRequest } from 'fastify';
import { singleParams } from '../../shared/http.js';
import { authenticateClient, readClientCredentials } from '../oauth/client-auth.js';
import type { AuthDeps } from '../oauth/deps.js';
import { oauthError } from '../oauth/errors.js';
import type { App as ClientApp } from '../store/apps.js';

const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

/**
 * The form parameters of a token-side request: form-urlencoded or multipart (the Python SDK sends
 * multipart), each parameter once, text only (RFC 6749 §3.2).
 */
export function formParams(request: FastifyRequest): Record<string, string | undefined> {
  const type = request.headers['content-type'];
  if (type !== undefined && !FORM_TYPES.test(type)) {
    throw oauthError(
      400,
      'invalid_request',
      'The body must be application/x-www-form-urlencoded or multipart/form-data.',
    );
  }
  return singleParams(request.body, (m) => oauthError(400, 'invalid_request', m));
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
