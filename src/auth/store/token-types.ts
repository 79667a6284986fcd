/** Shapes of codes, grants and tokens as the token stores hand them to the domain. */

export interface AuthCode {
  codeHash: string;
  clientId: string;
  enrolleeId: string;
  redirectUri: string;
  redirectUriGiven: boolean;
  scope: string;
  codeChallenge: string;
  familyId: string;
  expiresAt: number;
  usedAt: number | null;
  /** When the enrollee logged in (epoch ms), for the ID token's `auth_time`. */
  authTime: number | null;
  /** The authorize request's `nonce`, for the ID token. */
  nonce: string | null;
}

export interface Grant {
  id: string;
  clientId: string;
  enrolleeId: string;
  createdAt: number;
  expiresAt: number | null;
}

export interface NewAccessToken {
  tokenHash: string;
  clientId: string;
  enrolleeId: string;
  familyId: string;
  scope: string;
  expiresAt: number;
}

export interface NewRefreshToken {
  tokenHash: string;
  clientId: string;
  enrolleeId: string;
  familyId: string;
  accessTokenHash: string;
  scope: string;
  /** The login the family stems from (OIDC Core §12.2: a refreshed ID token keeps its `auth_time`). */
  authTime: number | null;
}

export interface RefreshTokenRecord extends NewRefreshToken {
  usedAt: number | null;
  revokedAt: number | null;
}

/** A refresh token with the grant of its pair (if any) and its enrollee's patient id, read in one query. */
export interface RefreshTokenContext extends RefreshTokenRecord {
  patientId: string;
  hasGrant: boolean;
  grantExpiresAt: number | null;
}

/** An access token with what a data request needs to judge it: its app, its enrollee and their grant. */
export interface AccessTokenContext {
  tokenHash: string;
  clientId: string;
  enrolleeId: string;
  familyId: string;
  scope: string;
  expiresAt: number;
  revokedAt: number | null;
  appName: string;
  appActive: boolean;
  patientId: string;
  givenName: string;
  familyName: string;
  email: string | null;
  grantExpiresAt: number | null;
  hasGrant: boolean;
}
