import type { ApiKeyScheme, PartialDocs } from '../shared/openapi.js';
import { PRICE_LOOKUP_PREFIX } from './app.js';

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

/** The price lookup's own OpenAPI document, served under its prefix. */
export const PRICE_LOOKUP_DOCS: PartialDocs = {
  prefix: PRICE_LOOKUP_PREFIX,
  title: 'openenroll procedure price lookup',
  description:
    'National Medicare costs and copayments of procedures in hospital outpatient departments (OPPS ' +
    'Addendum B) and ambulatory surgical centers (ASC Addendum AA), as the CMS Procedure Price Lookup ' +
    'API (v1.1.1) serves them. Every request carries the `apiKey` header (a plan-API key) and the ' +
    '`amaLicense` header.',
};
