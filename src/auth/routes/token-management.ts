import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../shared/errors.js';
import type { App } from '../../shared/http.js';
import { authenticateClient, readClientCredentials } from '../oauth/client-auth.js';
import { connectedApps, revokeConnectedApp } from '../oauth/connected-apps.js';
import type { AuthDeps } from '../oauth/deps.js';
import { detailError, TEXT } from '../oauth/errors.js';
import type { ConnectedApp } from '../store/connected-apps.js';

/**
 * Research §1.9: a plan's own member portal (an app holding the token-management permission) lists and
 * revokes an enrollee's connected apps. The portal names the enrollee in `X-Authentication: SLS <base64
 * username>`; third-party apps are refused.
 */
async function portalAndEnrollee(deps: AuthDeps, request: FastifyRequest) {
  const credentials = readClientCredentials(request.headers.authorization, {});
  const portal = await authenticateClient(deps.apps, credentials, (clientId, reason) =>
    deps.audit('client_auth_failed', { client_id: clientId, reason, path: request.routeOptions.url }),
  ).catch((error: unknown) => {
    throw error instanceof HttpError ? detailError(401, 'Invalid client credentials.') : error;
  });
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

export function registerTokenManagementRoutes(app: App, deps: AuthDeps): void {
  const config = { errorShape: 'detail' as const };
  const schema = { tags: ['authorization'], summary: "Member portal: an enrollee's connected apps" };
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

  app.route({
    method: methods,
    url: '/v2/o/tokens',
    config,
    schema,
    handler: async (request) => {
      if (request.method !== 'GET') throw detailError(405, `Method "${request.method}" not allowed.`);
      const enrollee = await portalAndEnrollee(deps, request);
      return (await connectedApps(deps, enrollee.id)).map(describe);
    },
  });

  app.route({
    method: methods,
    url: '/v2/o/tokens/:id',
    config,
    schema,
    handler: async (request, reply) => {
      if (request.method !== 'GET' && request.method !== 'DELETE') {
        throw detailError(405, `Method "${request.method}" not allowed.`);
      }
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
