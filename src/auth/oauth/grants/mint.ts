import { randomToken, sha256 } from '../../../shared/crypto.js';
import type { App } from '../../store/apps.js';
import type { NewAccessToken, NewRefreshToken } from '../../store/tokens.js';
import type { AuthDeps } from '../deps.js';
import { issuesRefreshTokens } from '../token-response.js';

export interface MintedTokens {
  accessToken: string;
  refreshToken: string | undefined;
  access: NewAccessToken;
  refresh: NewRefreshToken | undefined;
}

/** The token family new tokens belong to: whose, which family, what scope, and the login it stems from. */
export interface TokenFamily {
  enrolleeId: string;
  familyId: string;
  scope: string;
  authTime: number | null;
}

/** New random tokens for a family; only their SHA-256 hashes are ever stored. */
export function mintTokens(
  deps: AuthDeps,
  app: App,
  { enrolleeId, familyId, scope, authTime }: TokenFamily,
  now: number,
): MintedTokens {
  const accessToken = randomToken();
  const access: NewAccessToken = {
    tokenHash: sha256(accessToken),
    clientId: app.clientId,
    enrolleeId,
    familyId,
    scope,
    expiresAt: now + deps.settings.accessTokenTtlSeconds * 1000,
  };
  if (!issuesRefreshTokens(app)) return { accessToken, refreshToken: undefined, access, refresh: undefined };
  const refreshToken = randomToken();
  return {
    accessToken,
    refreshToken,
    access,
    refresh: {
      tokenHash: sha256(refreshToken),
      clientId: app.clientId,
      enrolleeId,
      familyId,
      accessTokenHash: access.tokenHash,
      scope,
      authTime,
    },
  };
}
