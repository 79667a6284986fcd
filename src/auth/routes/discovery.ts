import type { App } from '../../shared/http.js';
import type { AuthDeps } from '../oauth/deps.js';
import { ALL_SCOPES } from '../oauth/scopes.js';

/**
 * Discovery documents (research §1.10), plus what a client library needs that the anchor leaves out:
 * `issuer`, `token_endpoint_auth_methods_supported`, `code_challenge_methods_supported` (decisions file).
 * Only `code` is listed as a response type: the implicit flow is not supported.
 */
export function openidConfiguration(base: string) {
  return {
    issuer: base,
    authorization_endpoint: `${base}/v2/o/authorize/`,
    token_endpoint: `${base}/v2/o/token/`,
    revocation_endpoint: `${base}/v2/o/revoke_token/`,
    userinfo_endpoint: `${base}/v2/connect/userinfo`,
    ui_locales_supported: ['en-US', 'es-US'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    response_types_supported: ['code'],
    scopes_supported: ALL_SCOPES,
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    fhir_metadata_uri: `${base}/v2/fhir/metadata`,
  };
}

export function smartConfiguration(base: string) {
  return {
    issuer: base,
    authorization_endpoint: `${base}/v2/o/authorize/`,
    token_endpoint: `${base}/v2/o/token/`,
    revocation_endpoint: `${base}/v2/o/revoke_token/`,
    grant_types_supported: ['authorization_code', 'refresh_token'],
    response_types_supported: ['code'],
    scopes_supported: ALL_SCOPES,
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
}
