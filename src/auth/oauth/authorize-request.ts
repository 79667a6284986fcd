import { textError } from '../../shared/errors.js';
import type { ClientApp, AppStore } from '../store/apps.js';
import type { PendingAuthorization } from '../store/sessions.js';
import { ClientRedirect, messageError, pageError, serviceError, TEXT } from './errors.js';
import { asLanguage } from './language.js';
import { normalizeChallenge } from './pkce.js';
import { redirectUriMatches, withQuery } from './redirect-uri.js';
import {
  ALL_SCOPES,
  isDemographic,
  OFFLINE_ACCESS,
  parseScope,
  scopesToOffer,
  TOKEN_SCOPES,
} from './scopes.js';
import { issuesRefreshTokens } from './token-response.js';

export type Params = Record<string, string | undefined>;

export interface ValidAuthorization {
  app: ClientApp;
  request: PendingAuthorization;
}

/** `state` shorter than this is refused (docs/decisions.md#authorize-checks). */
export const MIN_STATE_LENGTH = 16;

/**
 * Step 1 — the client and its redirect URI, before anything else (docs/decisions.md#authorize-checks): a
 * failure here is shown to the enrollee as a page and never redirected, since the redirect target itself is
 * not trusted (RFC 6749 §4.1.2.1).
 */
async function identifyClient(apps: AppStore, params: Params): Promise<ClientApp> {
  if (!params.client_id) throw pageError(401, 'invalid_client', 'App id failed');
  const app = await apps.findApp(params.client_id);
  // An app not (or not yet) approved by an operator is answered as unknown (docs/portal.md#review).
  if (!app || app.review !== 'approved') {
    throw pageError(400, 'invalid_client', 'Application does not exist (client_id)');
  }
  if (!app.active) throw pageError(403, 'invalid_client', TEXT.appInactive(app.name));
  return app;
}

function resolveRedirectUri(app: ClientApp, given: string | undefined): string {
  if (given === undefined || given === '') {
    if (app.redirectUris.length === 1) return app.redirectUris[0]!;
    throw pageError(400, 'invalid_request', 'Missing redirect URI.');
  }
  if (!redirectUriMatches(app.redirectUris, given))
    throw pageError(400, 'invalid_request', 'Mismatching redirect URI.');
  return given;
}

/**
 * Step 2 — a confidential client's secret never travels through the browser (RFC 6749 §2.3.1;
 * docs/decisions.md#authorize-checks).
 */
function refuseClientSecret(params: Params): void {
  if (params.client_secret !== undefined)
    throw textError(400, 'Illegal query parameter [client_secret] detected');
}

/** Step 3 — PKCE S256 and `state` are mandatory (RFC 7636; docs/decisions.md#authorize-checks). */
function checkPkceAndState(params: Params): void {
  if (params.code_challenge_method !== undefined && params.code_challenge_method !== 'S256') {
    throw serviceError(400, 'invalid_request', 'code_challenge_method must be S256');
  }
  if (params.state !== undefined && params.state.length < MIN_STATE_LENGTH) {
    throw messageError(400, `State parameter should have a minimum of ${MIN_STATE_LENGTH} characters`);
  }
  const required = ['code_challenge', 'code_challenge_method', 'state', 'response_type'] as const;
  const missing = required.filter((name) => !params[name]);
  if (missing.length > 0) throw messageError(400, `Missing Required Parameter(s): ${missing.join(', ')}`);
  if (!/^[A-Za-z0-9_-]{43}=?$/.test(params.code_challenge!)) {
    throw serviceError(
      400,
      'invalid_request',
      'code_challenge must be the base64url SHA-256 of the code_verifier',
    );
  }
}

/** Step 4 — only the authorization code flow (no implicit grant: docs/decisions.md#auth-flow). */
function checkResponseType(params: Params): void {
  if (params.response_type !== 'code') {
    throw serviceError(400, 'unsupported_response_type', 'response_type must be code');
  }
}

/**
 * Step 5 — scopes: unknown ones are refused; personal-information scopes are dropped silently for an app
 * that does not collect personal information; no scope means the app's defaults (the Blue Button SDKs
 * never send one).
 * `fhirUser` is open to every app; `offline_access` (SMART `permission-offline`) to apps that may refresh,
 * and dropped for `10 hours` apps (RFC 6749 §3.3: the granted scope may be narrower). Naming only these
 * counts as naming no data scope: the defaults are offered with them. When what is left grants nothing
 * (`scope=profile` for an app that collects no personal information), the app is answered `invalid_scope`
 * at its redirect URI (RFC 6749 §4.1.2.1): the enrollee is never asked to approve an empty grant.
 */
function resolveScopes(
  app: ClientApp,
  raw: string | undefined,
  redirectUri: string,
  state: string,
): string[] {
  const all = parseScope(raw);
  const requested = all.filter((s) => !TOKEN_SCOPES.has(s));
  const extra = all.filter((s) => TOKEN_SCOPES.has(s) && (s !== OFFLINE_ACCESS || issuesRefreshTokens(app)));
  const refused = requested.filter(
    (s) =>
      !ALL_SCOPES.includes(s) ||
      (!app.scopes.includes(s) && !(isDemographic(s) && !app.requireDemographicScopes)),
  );
  if (refused.length > 0) throw messageError(400, 'Invalid scopes.');
  const offered = scopesToOffer(requested, app.scopes);
  if (offered.length === 0) {
    throw new ClientRedirect(
      withQuery(redirectUri, {
        error: 'invalid_scope',
        error_description: 'The requested scopes leave nothing this application may be granted.',
        state,
      }),
    );
  }
  return [...offered, ...extra];
}

/** OIDC Core §3.1.2.1: `nonce` is opaque; bounded so a request cannot make us store a novel. */
const MAX_NONCE_LENGTH = 512;

function readNonce(params: Params): string | null {
  const nonce = params.nonce;
  if (nonce === undefined || nonce === '') return null;
  if (nonce.length > MAX_NONCE_LENGTH) {
    throw serviceError(400, 'invalid_request', `nonce must be at most ${MAX_NONCE_LENGTH} characters`);
  }
  return nonce;
}

/** Validates an authorize request (GET or POST) in the order docs/decisions.md#authorize-checks sets. */
export async function validateAuthorizeRequest(apps: AppStore, params: Params): Promise<ValidAuthorization> {
  const app = await identifyClient(apps, params);
  const redirectUri = resolveRedirectUri(app, params.redirect_uri);
  refuseClientSecret(params);
  checkPkceAndState(params);
  checkResponseType(params);
  const scopes = resolveScopes(app, params.scope, redirectUri, params.state!);
  const lang = asLanguage(params.lang);
  return {
    app,
    request: {
      redirectUri,
      redirectUriGiven: params.redirect_uri !== undefined && params.redirect_uri !== '',
      scopes,
      state: params.state!,
      codeChallenge: normalizeChallenge(params.code_challenge!),
      lang,
      nonce: readNonce(params),
    },
  };
}
