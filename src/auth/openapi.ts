import type { SecurityScheme } from '../shared/openapi.js';

/**
 * The access tokens of the authorization service (RFC 6750 §2.1, header only), declared for every document
 * so Swagger UI's "Authorize" can send one to the data routes that name it (`security: [{ bearer: [] }]`).
 */
export const BEARER_SECURITY_SCHEME: Record<string, SecurityScheme> = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description:
      'An access token from `POST /v2/o/token/`, sent as `Authorization: Bearer <token>` (never in the query).',
  },
};

/** The tag of the OAuth endpoints, declared first so it leads the whole-service document. */
export const AUTHORIZATION_TAG = {
  name: 'authorization',
  description: 'OAuth 2.0 endpoints of the enrollee data authorization service',
};

/** What the whole-service document says of the authorization service. */
export const AUTHORIZATION_DESCRIPTION =
  'Enrollee data authorization (OAuth 2.0 authorization code + PKCE S256, confidential clients)';
