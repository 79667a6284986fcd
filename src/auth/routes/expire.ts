import { Type } from 'typebox';
import { textErrors } from '../errors.js';
import { HttpError, textError } from '../../shared/errors.js';
import type { App } from '../../shared/http.js';
import type { AuthDeps } from '../deps.js';
import { expireAuthenticatedUser } from '../oauth/expire.js';
import { authenticatedClient, formParams } from './client-request.js';

/** POST /v2/o/expire_authenticated_user/<patient_id>/ — sandbox only (docs/decisions.md#sandbox-expire). */
export function registerExpireRoute(app: App, deps: AuthDeps): void {
  app.post(
    '/v2/o/expire_authenticated_user/:patientId',
    {
      config: { errors: textErrors },
      schema: {
        tags: ['authorization'],
        summary: "Sandbox only: expire this app's data access grant for a patient",
        params: Type.Object({ patientId: Type.String({ pattern: '^[-0-9]+$', maxLength: 64 }) }),
      },
    },
    async (request, reply) => {
      // Any problem with the client's credentials is 403 `FORBIDDEN` here (docs/decisions.md#sandbox-expire).
      const client = await authenticatedClient(deps, request, formParams(request)).catch((error: unknown) => {
        throw error instanceof HttpError ? textError(403, 'FORBIDDEN') : error;
      });
      await expireAuthenticatedUser(deps, client, request.params.patientId);
      return reply.type('text/plain; charset=utf-8').send('success');
    },
  );
}
