import { logHandle, sha256 } from '../../../shared/crypto.js';
import type { RefreshTokenContext } from '../../store/tokens.js';
import type { AuthDeps } from '../deps.js';
import { oauthError, serviceError, TEXT } from '../errors.js';
import { isSubScope, parseScope } from '../scopes.js';
import { idTokenFor } from '../id-token.js';
import { secondsUntil, tokenResponse } from '../token-response.js';
import type { GrantRequest, TokenGrant } from './types.js';
import { mintTokens } from './mint.js';

/** Seed "Token request: refresh" and "States and transitions"; research §1.5 for the order of checks. */
async function findRefreshToken(deps: AuthDeps, { app, params }: GrantRequest): Promise<RefreshTokenContext> {
  if (!params.refresh_token) throw serviceError(400, 'invalid_request', 'Missing refresh token parameter');
  if (app.dataAccessType === 'ONE_TIME') throw serviceError(403, 'invalid_client', TEXT.noRefreshForApp);
  const token = await deps.tokens.findRefreshTokenContext(sha256(params.refresh_token));
  if (!token) throw oauthError(400, 'invalid_grant', 'Refresh token not found.');
  if (token.clientId !== app.clientId)
    throw oauthError(400, 'invalid_grant', 'Token does not match client_id');
  return token;
}

/** The data access grant must still exist and, for `13 months` apps, not have expired. */
function checkGrant(token: RefreshTokenContext, now: number): void {
  if (!token.hasGrant) throw serviceError(400, 'invalid_grant', TEXT.grantMissing);
  if (token.grantExpiresAt !== null && token.grantExpiresAt <= now) {
    throw serviceError(400, 'invalid_grant', TEXT.grantTimedOut);
  }
}

/** RFC 6749 §6: a narrower scope may be asked for, never a wider one. */
function narrowedScope(token: RefreshTokenContext, requested: string | undefined): string {
  if (requested === undefined || requested.trim() === '') return token.scope;
  const held = parseScope(token.scope);
  const wanted = parseScope(requested);
  if (!wanted.every((s) => isSubScope(s, held))) throw oauthError(400, 'invalid_scope');
  return wanted.join(' ');
}

export const refreshTokenGrant: TokenGrant = {
  grantType: 'refresh_token',
  parameters: ['refresh_token', 'scope'],
  async handle(deps, request) {
    const { app, params } = request;
    const now = deps.now();
    const token = await findRefreshToken(deps, request);
    checkGrant(token, now);
    const scope = narrowedScope(token, params.scope);
    // Single use: a spent or revoked refresh token answers exactly {"error":"invalid_grant"} (decisions file).
    if (token.usedAt !== null || token.revokedAt !== null) throw oauthError(400, 'invalid_grant');

    const minted = mintTokens(deps, app, { ...token, scope }, now);
    // OIDC Core §12.2: a refresh may return a new ID token; ours does whenever the scope holds `openid`,
    // with the original `auth_time` and no `nonce`.
    const idToken = await idTokenFor(deps, scope, {
      clientId: app.clientId,
      patientId: token.patientId,
      authTime: token.authTime,
      nonce: null,
      accessToken: minted.accessToken,
    });
    if (!(await deps.tokens.rotateRefreshToken(token, minted.access, minted.refresh!, now))) {
      throw oauthError(400, 'invalid_grant');
    }
    deps.audit('token_refreshed', {
      client_id: app.clientId,
      patient: token.patientId,
      token: logHandle(minted.access.tokenHash),
      previous: logHandle(token.tokenHash),
    });
    return tokenResponse(app, {
      accessToken: minted.accessToken,
      accessExpiresAt: minted.access.expiresAt,
      expiresIn: secondsUntil(minted.access.expiresAt, now),
      scope,
      refreshToken: minted.refreshToken,
      patientId: token.patientId,
      grantExpiresAt: token.grantExpiresAt,
      idToken,
    });
  },
};
