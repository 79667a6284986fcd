import type { App } from '../../shared/http.js';
import type { AuthDeps } from '../deps.js';
import { SUPPORTED_SCOPES } from '../oauth/scopes.js';
import { ID_TOKEN_ALG, publishedJwks } from '../oauth/signing-keys.js';

/** Where the ID-token signing keys are published (OIDC Discovery §3 `jwks_uri`). */
export const JWKS_PATH = '/.well-known/jwks.json';

/**
 * Discovery documents (docs/decisions.md#discovery): Blue Button's fields, plus what a client library needs
 * that Blue Button leaves out: `issuer`, `token_endpoint_auth_methods_supported`,
 * `code_challenge_methods_supported`, and what OpenID Connect Discovery 1.0 §3 requires of a provider
 * issuing ID tokens (`jwks_uri`, `subject_types_supported`, `id_token_signing_alg_values_supported`). Only
 * `code` is listed as a response type: the implicit flow is not supported.
 */
export function openidConfiguration(base: string) {
  return {
    issuer: base,
    authorization_endpoint: `${base}/v2/o/authorize/`,
    token_endpoint: `${base}/v2/o/token/`,
    revocation_endpoint: `${base}/v2/o/revoke_token/`,
    userinfo_endpoint: `${base}/v2/connect/userinfo`,
    jwks_uri: `${base}${JWKS_PATH}`,
    ui_locales_supported: ['en-US', 'es-US'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [ID_TOKEN_ALG],
    scopes_supported: SUPPORTED_SCOPES,
    claims_supported: [
      'iss',
      'sub',
      'aud',
      'exp',
      'iat',
      'auth_time',
      'nonce',
      'at_hash',
      'fhirUser',
      'name',
      'given_name',
      'family_name',
      'email',
      'patient',
    ],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    fhir_metadata_uri: `${base}/v2/fhir/metadata`,
  };
}

/**
 * SMART App Launch 2.0 §"Metadata": each capability is one this service has — a client secret
 * (`client-confidential-symmetric`), a standalone launch with `launch/patient` answered by `patient` in the
 * token response, `patient/` scopes in v1 (`.read`) and v2 (`.rs`, `.r`, `.s`) syntax, `offline_access`,
 * an ID token with `fhirUser` (`sso-openid-connect`) and POST to the authorize endpoint.
 */
export function smartConfiguration(base: string) {
  return {
    issuer: base,
    jwks_uri: `${base}${JWKS_PATH}`,
    authorization_endpoint: `${base}/v2/o/authorize/`,
    token_endpoint: `${base}/v2/o/token/`,
    revocation_endpoint: `${base}/v2/o/revoke_token/`,
    grant_types_supported: ['authorization_code', 'refresh_token'],
    response_types_supported: ['code'],
    scopes_supported: SUPPORTED_SCOPES,
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    capabilities: [
      'client-confidential-symmetric',
      'context-standalone-patient',
      'launch-standalone',
      'permission-offline',
      'permission-patient',
      'permission-v1',
      'permission-v2',
      'sso-openid-connect',
      'authorize-post',
    ],
  };
}

export function registerDiscoveryRoutes(app: App, deps: AuthDeps): void {
  const base = deps.settings.publicUrl;
  const openid = openidConfiguration(base);
  const smart = smartConfiguration(base);
  for (const path of [
    '/.well-known/openid-configuration',
    '/.well-known/openid-configuration-v2',
    '/v2/connect/.well-known/openid-configuration',
  ]) {
    app.get(
      path,
      { schema: { tags: ['discovery'], summary: 'OpenID Connect discovery' } },
      async (_request, reply) => reply.header('cache-control', 'public, max-age=300').send(openid),
    );
  }
  // RFC 8414 §3: the authorization server's metadata for OAuth clients that do not speak OpenID Connect.
  app.get(
    '/.well-known/oauth-authorization-server',
    { schema: { tags: ['discovery'], summary: 'OAuth 2.0 authorization server metadata (RFC 8414)' } },
    async (_request, reply) => reply.header('cache-control', 'public, max-age=300').send(openid),
  );
  const smartSchema = { tags: ['discovery'], summary: 'SMART App Launch configuration' };
  app.get('/v2/fhir/.well-known/smart-configuration', { schema: smartSchema }, async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').send(smart),
  );
  // RFC 7517 §5: public keys only. Cached briefly: after a rotation, clients see the new key within a
  // minute, and an unknown `kid` makes a client fetch again anyway.
  const jwksSchema = { tags: ['discovery'], summary: 'ID-token signing keys (JWK Set)' };
  app.get(JWKS_PATH, { schema: jwksSchema }, async (_request, reply) => {
    const { idTokenTtlSeconds } = deps.settings;
    const jwks = await publishedJwks(deps.signingKeys, idTokenTtlSeconds, deps.now());
    return reply.header('cache-control', 'public, max-age=60').type('application/jwk-set+json').send(jwks);
  });
}
