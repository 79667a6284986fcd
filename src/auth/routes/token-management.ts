import type { FastifyRequest } from 'fastify';
import { detailErrors } from '../errors.js';
import { HttpError } from '../../shared/errors.js';
import type { App } from '../../shared/http.js';
import { authenticateClient, readClientCredentials } from '../oauth/client-auth.js';
import { connectedApps, revokeConnectedApp } from '../consent/connected-apps.js';
import type { AuthDeps } from '../deps.js';
import { detailError } from '../../shared/detail-error.js';
import { TEXT } from '../oauth/errors.js';
import type { ConnectedApp } from '../store/connected-apps.js';

/** The calling portal; credentials that do not parse get the same `{detail}` answer as wrong ones. */
async function authenticatePortal(deps: AuthDeps, request: FastifyRequest) {
  try {
    const credentials = readClientCredentials(request.headers.authorization, {});
    return await authenticateClient(deps.apps, credentials, (clientId, reason) =>
      deps.audit('client_auth_failed', { client_id: clientId, reason, path: request.routeOptions.url }),
    );
  } catch (error) {
    throw error instanceof HttpError ? detailError(401, 'Invalid client credentials.') : error;
  }
}

/**
 * docs/decisions.md#token-management-api: a plan's own member portal (an app holding the token-management
 * permission) lists and revokes an enrollee's connected apps. The portal names the enrollee in
 * `X-Authentication: SLS <base64 username>`; third-party apps are refused.
 */
async function portalAndEnrollee(deps: AuthDeps, request: FastifyRequest) {
  const portal = await authenticatePortal(deps, request);
  if (!portal.tokenManagement) throw detailError(403, TEXT.noPermission);
  const header = request.headers['x-authentication'];
  const match = typeof header === 'string' ? /^SLS\s+([A-Za-z0-9+/=]+)$/.exec(header) : null;
  const username = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  const enrollee = username ? await deps.enrollees.findEnrolleeByUsername(username) : undefined;
  if (!enrollee) throw detailError(404, 'Not found.');
  return enrollee;
}

function describe(grant: ConnectedApp) {
  return {
    id: grant.grantId,
    user: grant.enrolleeId,
    application: {
      id: grant.clientId,
      name: grant.appName,
      logo_uri: grant.logoUri ?? '',
      tos_uri: grant.tosUri ?? '',
      policy_uri: grant.policyUri ?? '',
      contacts: grant.supportEmail ?? '',
    },
    access_grant_expiration: grant.expiresAt === null ? null : new Date(grant.expiresAt).toISOString(),
  };
}

/** The list and one grant; other methods are 405 with `Allow` from the HTTP kernel, before any body is read. */
export function registerTokenManagementRoutes(app: App, deps: AuthDeps): void {
  const config = { errors: detailErrors };
  const schema = { tags: ['authorization'], summary: "Member portal: an enrollee's connected apps" };

  app.route({
    method: 'GET',
    url: '/v2/o/tokens',
    config,
    schema,
    handler: async (request) => {
      const enrollee = await portalAndEnrollee(deps, request);
      return (await connectedApps(deps, enrollee.id)).map(describe);
    },
  });

  app.route({
    method: ['GET', 'DELETE'],
    url: '/v2/o/tokens/:id',
    config,
    schema,
    handler: async (request, reply) => {
      const enrollee = await portalAndEnrollee(deps, request);
      const id = (request.params as { id: string }).id;
      if (request.method === 'DELETE') {
        if (!(await revokeConnectedApp(deps, enrollee.id, id))) throw detailError(404, 'Not found.');
        return reply.status(204).send();
      }
      const grant = (await connectedApps(deps, enrollee.id)).find((g) => g.grantId === id);
      if (!grant) throw detailError(404, 'Not found.');
      return describe(grant);
    },
  });
}
