import type { App } from '../../shared/http.js';
import { detailErrors } from '../errors.js';
import { authenticateBearer, hasScope } from '../oauth/bearer.js';
import type { AuthDeps } from '../deps.js';
import { detailError } from '../../shared/detail-error.js';
import { TEXT } from '../oauth/errors.js';

/**
 * GET /v2/connect/userinfo (docs/decisions.md#userinfo): who the token's enrollee is, for tokens holding
 * `profile`. The full FHIR-backed document comes with the data endpoints. Other methods are 405 with `Allow`
 * from the HTTP kernel (POST too, as BB2 answers it).
 */
export function registerUserinfoRoute(app: App, deps: AuthDeps): void {
  app.route({
    method: 'GET',
    url: '/v2/connect/userinfo',
    config: { errors: detailErrors },
    schema: {
      tags: ['data'],
      security: [{ bearer: [] }],
      summary: "The token's enrollee (needs the profile scope)",
    },
    handler: async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      // The answer is the family's rows alone (the enrollee's name and e-mail): read as they are now, so it
      // is never older than the database, and an outage answers 503 as everywhere else.
      const context = await authenticateBearer(deps, request.headers.authorization, 'access_token' in query, {
        fresh: true,
      });
      if (!hasScope(context, 'profile')) throw detailError(403, TEXT.noPermission);
      return reply.header('cache-control', 'no-store').send({
        sub: context.patientId,
        name: `${context.givenName} ${context.familyName}`,
        given_name: context.givenName,
        family_name: context.familyName,
        email: context.email ?? '',
        iat: new Date(deps.now()).toISOString(),
        patient: context.patientId,
      });
    },
  });
}
