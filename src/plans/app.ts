import type { App } from '../shared/http.js';
import { planErrors } from './errors.js';
import type { ApiKeyScheme } from '../shared/openapi.js';
import type { PlansDeps } from './deps.js';
import { apiKeyGate } from './gateway/api-key.js';
import { registerJsonBodyParsers } from './gateway/json-body.js';
import { sampleLabel } from './gateway/sample-data.js';
import { registerBulkDataRoutes } from './routes/bulk-data.js';
import { registerCrosswalkRoutes } from './routes/crosswalk.js';
import { registerEnrollmentRoutes } from './routes/enrollment.js';
import { registerDrugRoutes } from './routes/drugs.js';
import { registerProviderRoutes } from './routes/providers.js';
import { registerCoverageRoutes } from './routes/coverage.js';
import { registerGeographyRoutes } from './routes/geography.js';
import { registerHouseholdRoutes } from './routes/households.js';
import { registerIssuerRoutes } from './routes/issuers.js';
import { registerHouseholdPlanRoutes } from './routes/household-plans.js';
import { registerPlanSearchRoutes } from './routes/plan-search.js';
import { registerPricedPlanRoutes } from './routes/priced-plans.js';
import { registerPlanRoutes } from './routes/plans.js';
import { registerQualityRoutes } from './routes/quality.js';
import { registerStateRoutes } from './routes/states.js';
import { registerVersionRoutes } from './routes/versions.js';

export const PLAN_API_PREFIX = '/api/v1';

/** How the OpenAPI document describes the key (so Swagger UI's "Authorize" can send it). */
export const PLAN_API_SECURITY_SCHEMES: Record<string, ApiKeyScheme> = {
  apikey: {
    type: 'apiKey',
    in: 'query',
    name: 'apikey',
    description: 'Plan-API key (`openenroll keys create`); also accepted as an `apikey` header.',
  },
};

/** The plan API (`/api/v1`): the key gateway in front, then its routes — its table of contents. */
export async function registerPlansService(app: App, deps: PlansDeps): Promise<void> {
  await app.register(
    async (api) => {
      api.addHook('onRoute', (route) => {
        route.config = { ...route.config, errors: route.config?.errors ?? planErrors };
        if (route.schema) route.schema = { ...route.schema, security: [{ apikey: [] }] };
      });
      api.addHook('onRequest', apiKeyGate(deps));
      api.addHook('onSend', sampleLabel(deps.samples));
      // The server's own time for the answer (W3C Server-Timing), so clients and benchmarks can tell it
      // from the network's.
      api.addHook('onSend', (_request, reply, payload, done) => {
        const route = reply.getHeader('server-timing');
        const app = `app;dur=${reply.elapsedTime.toFixed(3)}`;
        reply.header('server-timing', route ? `${String(route)}, ${app}` : app);
        done(null, payload);
      });
      // JSON bodies whatever the content type says (text/plain, curl -d's form type): gateway/json-body.ts.
      registerJsonBodyParsers(api);
      // Kong's answer for a path no route serves: the CMS service sits behind Kong
      // (docs/decisions.md#plan-unknown-path).
      api.setNotFoundHandler((_request, reply) => {
        void reply.code(404).send({ message: 'no Route matched with those values' });
      });
      registerVersionRoutes(api, deps);
      registerGeographyRoutes(api, deps);
      registerStateRoutes(api, deps);
      registerIssuerRoutes(api, deps);
      registerPlanRoutes(api, deps);
      registerPlanSearchRoutes(api, deps);
      registerPricedPlanRoutes(api, deps);
      registerHouseholdPlanRoutes(api, deps);
      registerEnrollmentRoutes(api, deps);
      registerQualityRoutes(api, deps);
      registerCrosswalkRoutes(api, deps);
      registerHouseholdRoutes(api, deps);
      registerDrugRoutes(api, deps);
      registerProviderRoutes(api, deps);
      registerCoverageRoutes(api, deps);
      registerBulkDataRoutes(api, deps);
    },
    { prefix: PLAN_API_PREFIX },
  );
}
