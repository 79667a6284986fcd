import * as oidc from 'openid-client';
import type { AuthDeps } from '../deps.js';
import type { Language } from '../oauth/language.js';
import type { IdpRequest } from '../store/idp-requests.js';
import { auditIdpFailure, classifyIdpError, failurePage } from './failures.js';
import type { IdentityProvider } from './identity-provider.js';

/** Who the IdP says signed in, after verification. */
export interface VerifiedMember {
  /** The ID token's `iss` (equal to the configured issuer) and `sub`: the identity's key. */
  issuer: string;
  subject: string;
  /** The ID token's claims, with the userinfo claims it lacked. */
  claims: Record<string, unknown>;
}

/**
 * Step 4 — the code for tokens at the IdP's token endpoint with our client authentication and the PKCE
 * verifier (OIDC Core §3.1.3.1; RFC 7636 §4.5), then the ID token checked as OIDC Core §3.1.3.7 asks:
 * signed by a key of the IdP's JWKS (cached; a `kid` the cached set lacks makes openid-client fetch it
 * again, at most once a minute), `iss` the issuer, `aud` our client id, `exp`/`iat` in range, and `nonce`
 * equal to this sign-in's (§3.1.2.1). When the linking claim is not in the ID token, it is read from
 * userinfo, whose `sub` must be the ID token's (§5.3.2). Any failure: its page, nothing written.
 */
export async function exchangeCode(
  deps: AuthDeps,
  idp: IdentityProvider,
  pending: IdpRequest,
  callback: { state: string; query: string },
  lang: Language,
): Promise<VerifiedMember> {
  let step = 'token';
  try {
    const config = await idp.configuration();
    const tokens = await oidc.authorizationCodeGrant(
      config,
      new URL(`${idp.redirectUri}?${callback.query}`),
      {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: callback.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      },
    );
    const idToken = tokens.claims()!;
    let claims: Record<string, unknown> = { ...idToken };
    if (claims[idp.settings.memberLink.claim] === undefined && config.serverMetadata().userinfo_endpoint) {
      step = 'userinfo';
      const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
      claims = { ...userinfo, ...idToken };
    }
    return { issuer: idToken.iss, subject: idToken.sub, claims };
  } catch (error) {
    const failure = classifyIdpError(error);
    auditIdpFailure(deps, step, failure, error);
    throw failurePage(failure, lang, pending.next);
  }
}
