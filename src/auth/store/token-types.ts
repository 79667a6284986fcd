/** Shapes of codes, grants and token families as the token stores hand them to the domain. */

import type { DataAccessType } from './apps.js';

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

/** The tokens a family holds from now on, as hashes (the tokens themselves are never stored). */
export interface TokenHashes {
  accessHash: string;
  accessExpiresAt: number;
  /** Null for apps that may not refresh (`10 hours`). */
  refreshHash: string | null;
}

/** A token family as a code exchange creates it. */
export interface NewTokenFamily extends TokenHashes {
  familyId: string;
  clientId: string;
  enrolleeId: string;
  scope: string;
  /** The login the family stems from (OIDC Core §12.2: a refreshed ID token keeps its `auth_time`). */
  authTime: number | null;
}

/** What a refresh hands on: whose family it is, its scope and its grant's end. */
export interface RotatedFamily {
  familyId: string;
  enrolleeId: string;
  patientId: string;
  scope: string;
  authTime: number | null;
  grantExpiresAt: number | null;
}

/** A code with what its exchange needs besides: its enrollee's patient id and the pair's grant, if any. */
export interface CodeContext extends AuthCode {
  patientId: string | null;
  hasGrant: boolean;
  grantExpiresAt: number | null;
}

/** A rotation that also authenticated the client: with its app's access category, for the response. */
export interface ClientRotation extends RotatedFamily {
  dataAccessType: DataAccessType;
}

/** A family found by a refresh token, read to explain why a refresh was refused (or to narrow its scope). */
export interface RefreshFamily extends RotatedFamily {
  clientId: string;
  /** The token presented is the family's current refresh token (not one it has replaced). */
  current: boolean;
  revoked: boolean;
  hasGrant: boolean;
}

/** Whose token a value is (RFC 7009 revocation), and whether it can still be used. */
export interface TokenOwner {
  familyId: string;
  clientId: string;
  enrolleeId: string;
  kind: 'access_token' | 'refresh_token';
  live: boolean;
}

/** An access token with what a data request needs to judge it: its app, its enrollee and their grant. */
export interface AccessTokenContext {
  clientId: string;
  enrolleeId: string;
  familyId: string;
  scope: string;
  expiresAt: number;
  revoked: boolean;
  appName: string;
  appActive: boolean;
  patientId: string;
  givenName: string;
  familyName: string;
  email: string | null;
  grantExpiresAt: number | null;
  hasGrant: boolean;
}
