import { authorizationCodeGrant } from './authorization-code.js';
import { refreshTokenGrant } from './refresh-token.js';
import type { TokenGrant } from './types.js';

/**
 * The grant types the token endpoint accepts: authorization code and refresh token only
 * (docs/decisions.md#auth-flow).
 */
export const tokenGrants: ReadonlyMap<string, TokenGrant> = new Map(
  [authorizationCodeGrant, refreshTokenGrant].map((g) => [g.grantType, g]),
);

export type { TokenGrant, GrantRequest } from './types.js';
