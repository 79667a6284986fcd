import type { App } from '../shared/http.js';
import { priceLookupErrors } from './errors.js';
import { amaLicenseGate } from './ama-license.js';
import type { PricesDeps } from './deps.js';
import { registerPriceLookupRoutes } from './routes/price-lookup.js';

/** The price lookup's prefix: its own document, beside the plan API (CMS: `/api/procedure-price-lookup/api/v1/core`). */
export const PRICE_LOOKUP_PREFIX = '/ppl/api/v1';

/** The procedure price lookup (`/ppl/api/v1`): key gateway, AMA license header, then its four routes. */
export async function registerPriceLookupService(app: App, deps: PricesDeps): Promise<void> {
  await app.register(
    async (api) => {
      api.addHook('onRoute', (route) => {
        route.config = { ...route.config, errors: priceLookupErrors };
        if (route.schema) route.schema = { ...route.schema, security: [{ apiKey: [], amaLicense: [] }] };
      });
      api.addHook('onRequest', deps.checkKey);
      api.addHook('onRequest', amaLicenseGate(deps.settings.amaLicense));
      api.addHook(
        'onSend',
        deps.samples.label('generated sample prices; not CMS payment rates or copayments'),
      );
      api.setNotFoundHandler((_request, reply) => {
        void reply.code(404).send({ message: 'Not found.' });
      });
      registerPriceLookupRoutes(api, deps);
    },
    { prefix: PRICE_LOOKUP_PREFIX },
  );
}
