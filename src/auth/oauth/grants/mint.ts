import { randomToken, sha256 } from '../../../shared/crypto.js';
import type { TokenHashes } from '../../store/tokens.js';
import type { AuthDeps } from '../../deps.js';
import { issuesRefreshTokens, type AccessCategory } from '../token-response.js';

export interface MintedTokens {
  accessToken: string;
  refreshToken: string | undefined;
  /** What the store keeps of them: hashes and the access token's expiry. */
  issued: TokenHashes;
}

/**
 * New random tokens for family `familyId`, in the shape auth/oauth/token-format.ts describes; only their
 * hashes are ever stored.
 */
export function mintTokens(deps: AuthDeps, app: AccessCategory, familyId: string, now: number): MintedTokens {
  const accessToken = `${familyId}.${randomToken()}`;
  const refreshToken = issuesRefreshTokens(app) ? `${familyId}.${randomToken()}` : undefined;
  return {
    accessToken,
    refreshToken,
    issued: {
      accessHash: sha256(accessToken),
      accessExpiresAt: now + deps.settings.accessTokenTtlSeconds * 1000,
      refreshHash: refreshToken === undefined ? null : sha256(refreshToken),
    },
  };
}
