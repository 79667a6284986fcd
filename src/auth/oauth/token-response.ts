import type { ClientApp } from '../store/apps.js';

/** What the response rules need of an app: its access category. */
export type AccessCategory = Pick<ClientApp, 'dataAccessType'>;
import { formatGrantExpiration } from './expiry.js';

/** The JSON body of a successful token request (docs/decisions.md#token-response). */
export interface TokenResponse {
  access_token: string;
  expires_in: number;
  token_type: 'Bearer';
  scope: string;
  refresh_token?: string;
  patient: string;
  access_grant_expiration?: string;
  /** OIDC Core §3.1.3.3: when the granted scope includes `openid`. */
  id_token?: string;
}

export interface IssuedTokens {
  accessToken: string;
  accessExpiresAt: number;
  expiresIn: number;
  scope: string;
  refreshToken: string | undefined;
  patientId: string;
  grantExpiresAt: number | null;
  idToken?: string;
}

/**
 * Category rules (docs/decisions.md#token-response): `10 hours` apps get no refresh token and a grant
 * expiration equal to the token's; `13 months` apps get the grant's expiration; `Research` apps get none.
 */
export function tokenResponse(app: AccessCategory, issued: IssuedTokens): TokenResponse {
  const body: TokenResponse = {
    access_token: issued.accessToken,
    expires_in: issued.expiresIn,
    token_type: 'Bearer',
    scope: issued.scope,
    patient: issued.patientId,
  };
  if (issuesRefreshTokens(app) && issued.refreshToken) body.refresh_token = issued.refreshToken;
  if (app.dataAccessType === 'ONE_TIME') {
    body.access_grant_expiration = formatGrantExpiration(issued.accessExpiresAt);
  } else if (app.dataAccessType === 'THIRTEEN_MONTH' && issued.grantExpiresAt !== null) {
    body.access_grant_expiration = formatGrantExpiration(issued.grantExpiresAt);
  }
  if (issued.idToken !== undefined) body.id_token = issued.idToken;
  return body;
}

/**
 * RFC 6749 §5.1: `expires_in` is an integer number of seconds (typed clients — Java, Go, C# — refuse a
 * fraction); the remaining lifetime is rounded to whole seconds, never below zero.
 */
export function secondsUntil(expiresAt: number, now: number): number {
  return Math.max(0, Math.round((expiresAt - now) / 1000));
}

/** Whether tokens issued to this app come with a refresh token (docs/decisions.md#refresh-tokens). */
export function issuesRefreshTokens(app: AccessCategory): boolean {
  return app.dataAccessType !== 'ONE_TIME';
}
