import type { App } from '../shared/http.js';
import type { ApiKeyScheme } from '../shared/openapi.js';
import type { PlansDeps } from './deps.js';
import { amaLicenseGate } from './gateway/ama-license.js';
import { apiKeyGate } from './gateway/api-key.js';
import { sampleLabel } from './gateway/sample-data.js';
import { registerPriceLookupRoutes } from './routes/price-lookup.js';

/** The price lookup's prefix: its own document, beside the plan API (CMS: `/api/procedure-price-lookup/api/v1/core`). */
export const PRICE_LOOKUP_PREFIX = '/ppl/api/v1';

/** The two headers of the price lookup's document. */
export const PRICE_LOOKUP_SECURITY_SCHEMES: Record<string, ApiKeyScheme> = {
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'apiKey',
    description: 'A plan-API key (`openenroll keys create`): the same keys and limits serve both APIs.',
  },
  amaLicense: {
    type: 'apiKey',
    in: 'header',
    name: 'amaLicense',
    description: 'Your AMA CPT license; which values are accepted is the `PPL_AMA_LICENSE` setting.',
  },
};

/** The procedure price lookup (`/ppl/api/v1`): key gateway, AMA license header, then its four routes. */
export async function registerPriceLookupService(app: App, deps: PlansDeps): Promise<void> {
  await app.register(
    async (api) => {
      api.addHook('onRoute', (route) => {
        route.config = { ...route.config, errorShape: 'message' };
        if (route.schema) route.schema = { ...route.schema, security: [{ apiKey: [], amaLicense: [] }] };
      });
      api.addHook('onRequest', apiKeyGate(deps));
      api.addHook('onRequest', amaLicenseGate(deps.settings.amaLicense));
      api.addHook(
        'onSend',
        sampleLabel(deps.samples, 'generated sample prices; not CMS payment rates or copayments'),
      );
      api.setNotFoundHandler((_request, reply) => {
        void reply.code(404).send({ message: 'Not found.' });
      });
      registerPriceLookupRoutes(api, deps);
    },
    { prefix: PRICE_LOOKUP_PREFIX },
  );
}
