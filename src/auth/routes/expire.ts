import { Type } from 'typebox';
import { textError } from '../../shared/errors.js';
import type { App } from '../../shared/http.js';
import { readClientCredentials, secretMatches } from '../oauth/client-auth.js';
import type { AuthDeps } from '../oauth/deps.js';
import { expireAuthenticatedUser } from '../oauth/expire.js';
import { formParams } from './client-request.js';

/** POST /v2/o/expire_authenticated_user/<patient_id>/ — sandbox only (seed "Expire authenticated user"). */
export function registerExpireRoute(app: App, deps: AuthDeps): void {
  app.post(
    '/v2/o/expire_authenticated_user/:patientId',
    {
      config: { errorShape: 'text' },
      schema: {
        tags: ['authorization'],
        summary: "Sandbox only: expire this app's data access grant for a patient",
        params: Type.Object({ patientId: Type.String({ pattern: '^[-0-9]+$', maxLength: 64 }) }),
      },
    },
    async (request, reply) => {
      let client;
      try {
        const credentials = readClientCredentials(request.headers.authorization, formParams(request));
        client = credentials.clientId ? await deps.apps.findApp(credentials.clientId) : undefined;
        if (!client || !client.active || !secretMatches(client, credentials.clientSecret)) client = undefined;
      } catch {
        client = undefined;
      }
      if (!client) {
        deps.audit('client_auth_failed', { path: request.routeOptions.url });
        throw textError(403, 'FORBIDDEN');
      }
      await expireAuthenticatedUser(deps, client, request.params.patientId);
      return reply.type('text/plain; charset=utf-8').send('success');
    },
  );
}
