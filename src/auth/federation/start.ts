import * as oidc from 'openid-client';
import { sha256 } from '../../shared/crypto.js';
import type { AuthDeps } from '../deps.js';
import type { Language } from '../oauth/language.js';
import { auditIdpFailure, failurePage } from './failures.js';
import type { IdentityProvider } from './identity-provider.js';

/** How long a sign-in at the IdP may take before its callback is refused (the pending row's life). */
export const PENDING_SIGN_IN_SECONDS = 600;

export interface SignInStart {
  /** Where to go once signed in (already checked against the open-redirect rule), or ''. */
  next: string;
  lang: Language;
  /** The random value of this browser's binding cookie (RFC 9700 §4.7.1). */
  browserBinding: string;
}

/**
 * Step 1 — sends the member to the IdP: an authorization request (OIDC Core §3.1.2.1) for the configured
 * scopes with PKCE S256 (RFC 7636 §4.1–4.3; RFC 9700 §2.1.1), a one-time `state` and a `nonce`, and the
 * member's language as `ui_locales`. What the callback needs to finish is stored in the database first
 * (only the hash of `state`, bound to this browser), so any instance can take the callback. Returns the
 * IdP's authorization URL; an IdP that cannot be discovered, or does not answer now, gives the 503 page and
 * stores nothing.
 */
export async function startSignIn(
  deps: AuthDeps,
  idp: IdentityProvider,
  start: SignInStart,
): Promise<string> {
  // The configuration is kept for a day, so an IdP that went down since would leave the member at a
  // browser connection error: a recent probe (one for a burst of sign-ins) says so first, and the member
  // gets the 503 page. A down IdP is then not asked for discovery by every sign-in either.
  if (!(await idp.reachable())) {
    auditIdpFailure(deps, 'probe', 'unavailable');
    throw failurePage('unavailable', start.lang, start.next);
  }
  let config: oidc.Configuration;
  try {
    config = await idp.configuration();
  } catch (error) {
    auditIdpFailure(deps, 'discovery', 'unavailable', error);
    throw failurePage('unavailable', start.lang, start.next);
  }
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const now = deps.now();
  await deps.idpRequests.insertIdpRequest({
    stateHash: sha256(state),
    browserHash: sha256(start.browserBinding),
    issuer: idp.settings.issuer,
    codeVerifier,
    nonce,
    next: start.next,
    lang: start.lang,
    createdAt: now,
    expiresAt: now + PENDING_SIGN_IN_SECONDS * 1000,
  });
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: idp.redirectUri,
    scope: idp.settings.scopes.join(' '),
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ui_locales: start.lang,
  });
  return url.href;
}
