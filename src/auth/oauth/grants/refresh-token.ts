import { logHandle, sha256 } from '../../../shared/crypto.js';
import type { ClientApp } from '../../store/apps.js';
import type { RefreshFamily, RotatedFamily } from '../../store/tokens.js';
import type { AuthDeps } from '../../deps.js';
import { oauthError, serviceError, TEXT } from '../errors.js';
import { isSubScope, parseScope } from '../scopes.js';
import { idTokenFor } from '../id-token.js';
import { secondsUntil, tokenResponse, type TokenResponse } from '../token-response.js';
import type { ClientCredentials } from '../client-auth.js';
import type { TokenGrant } from './types.js';
import { familyOfToken, namedFamily } from '../token-format.js';
import { mintTokens, type MintedTokens } from './mint.js';

/** A refresh request: the app, the refresh token presented and its hash, the scope asked for, the time. */
interface Refresh {
  app: ClientApp;
  token: string;
  tokenHash: string;
  scope: string | undefined;
  now: number;
}

/**
 * Why a refresh was refused, in Blue Button's order of checks (docs/decisions.md#refresh-refusals): unknown
 * token, another app's token, grant gone, grant expired, a wider scope, then a spent or revoked token —
 * which answers exactly `{"error":"invalid_grant"}` (docs/decisions.md#refresh-tokens). Returns the family,
 * and the scope to narrow it to, when nothing is wrong.
 */
async function refusalOrFamily(
  deps: AuthDeps,
  r: Refresh,
): Promise<{ family: RefreshFamily; scope: string | null }> {
  const familyId = await familyOfToken(deps.tokens, r.token, r.tokenHash);
  const family =
    familyId === undefined ? undefined : await deps.tokens.findRefreshFamily(familyId, r.tokenHash);
  if (!family) throw oauthError(400, 'invalid_grant', 'Refresh token not found.');
  if (family.clientId !== r.app.clientId)
    throw oauthError(400, 'invalid_grant', 'Token does not match client_id');
  if (!family.hasGrant) throw serviceError(400, 'invalid_grant', TEXT.grantMissing);
  if (family.grantExpiresAt !== null && family.grantExpiresAt <= r.now) {
    throw serviceError(400, 'invalid_grant', TEXT.grantTimedOut);
  }
  const scope = narrowedScope(family.scope, r.scope);
  if (!family.current || family.revoked) throw oauthError(400, 'invalid_grant');
  return { family, scope };
}

/** RFC 6749 §6: a narrower scope may be asked for, never a wider one. Null: the family keeps its scope. */
function narrowedScope(held: string, requested: string | undefined): string | null {
  if (!asksForScope(requested)) return null;
  const heldScopes = parseScope(held);
  const wanted = parseScope(requested);
  if (!wanted.every((s) => isSubScope(s, heldScopes))) throw oauthError(400, 'invalid_scope');
  return wanted.join(' ');
}

function asksForScope(requested: string | undefined): requested is string {
  return requested !== undefined && requested.trim() !== '';
}

/** New tokens for the family, stored in place of the spent one's pair; undefined when the store refuses. */
async function rotateFamily(deps: AuthDeps, r: Refresh, familyId: string, scope: string | null) {
  const minted = mintTokens(deps, r.app, familyId, r.now);
  const rotated = await deps.tokens.rotateRefreshToken(
    familyId,
    r.tokenHash,
    r.app.clientId,
    minted.issued,
    scope,
    r.now,
  );
  return rotated && { rotated, minted };
}

/**
 * Single-use, rotated refresh tokens (docs/decisions.md#refresh-tokens). The common case — a refresh token
 * that names its family, no new scope — is one statement that spends the token and stores the next pair,
 * refused by the database when anything is wrong; only then (or for a scope change, or a token from before
 * families were named) is the family read, to find the refusal's answer (docs/decisions.md#refresh-refusals)
 * or the scope to narrow to.
 */
async function rotate(deps: AuthDeps, r: Refresh): Promise<{ rotated: RotatedFamily; minted: MintedTokens }> {
  const named = namedFamily(r.token);
  if (named !== undefined && !asksForScope(r.scope)) {
    const done = await rotateFamily(deps, r, named, null);
    if (done) return done;
  }
  const { family, scope } = await refusalOrFamily(deps, r);
  const done = await rotateFamily(deps, r, family.familyId, scope);
  // Lost a race with another refresh, a revocation or the grant's end between the read and the update.
  if (!done) throw oauthError(400, 'invalid_grant');
  return done;
}

/** The answer to a refresh that went through: a new ID token when the scope asks for one, the audit. */
async function refreshed(
  deps: AuthDeps,
  app: Pick<ClientApp, 'clientId' | 'dataAccessType'>,
  done: { rotated: RotatedFamily; minted: MintedTokens },
  spentHash: string,
  now: number,
): Promise<TokenResponse> {
  const { rotated, minted } = done;
  // OIDC Core §12.2: a refresh may return a new ID token; ours does whenever the scope holds `openid`,
  // with the original `auth_time` and no `nonce`.
  const idToken = await idTokenFor(deps, rotated.scope, {
    clientId: app.clientId,
    patientId: rotated.patientId,
    authTime: rotated.authTime,
    nonce: null,
    accessToken: minted.accessToken,
  });
  deps.audit('token_refreshed', {
    client_id: app.clientId,
    patient: rotated.patientId,
    token: logHandle(minted.issued.accessHash),
    previous: logHandle(spentHash),
  });
  return tokenResponse(app, {
    accessToken: minted.accessToken,
    accessExpiresAt: minted.issued.accessExpiresAt,
    expiresIn: secondsUntil(minted.issued.accessExpiresAt, now),
    scope: rotated.scope,
    refreshToken: minted.refreshToken,
    patientId: rotated.patientId,
    grantExpiresAt: rotated.grantExpiresAt,
    idToken,
  });
}

/**
 * The common refresh — a token that names its family, no scope asked, client credentials given — as one
 * statement that authenticates the client against its app's current row and rotates the family
 * (auth/store/tokens.ts `rotateForClient`). Undefined when that statement refuses anything: the token
 * endpoint then authenticates the client and runs the grant as usual, which finds the refusal's answer; no
 * refusal is decided here, so every error is the one the full path gives.
 */
export async function quickRefresh(
  deps: AuthDeps,
  credentials: ClientCredentials,
  params: Record<string, string | undefined>,
): Promise<TokenResponse | undefined> {
  const { clientId, clientSecret } = credentials;
  const token = params.refresh_token;
  if (!clientId || !clientSecret || !token || asksForScope(params.scope)) return undefined;
  const familyId = namedFamily(token);
  if (familyId === undefined) return undefined;
  const now = deps.now();
  const spentHash = sha256(token);
  // Apps that take refresh tokens get a new one (the statement refuses the others).
  const minted = mintTokens(deps, { dataAccessType: 'THIRTEEN_MONTH' }, familyId, now);
  const rotated = await deps.tokens.rotateForClient(
    familyId,
    spentHash,
    clientId,
    sha256(clientSecret),
    minted.issued,
    now,
  );
  if (!rotated) return undefined;
  return refreshed(
    deps,
    { clientId, dataAccessType: rotated.dataAccessType },
    { rotated, minted },
    spentHash,
    now,
  );
}

export const refreshTokenGrant: TokenGrant = {
  grantType: 'refresh_token',
  parameters: ['refresh_token', 'scope'],
  async handle(deps, { app, params }) {
    if (!params.refresh_token) throw serviceError(400, 'invalid_request', 'Missing refresh token parameter');
    if (app.dataAccessType === 'ONE_TIME') throw serviceError(403, 'invalid_client', TEXT.noRefreshForApp);
    const now = deps.now();
    const spentHash = sha256(params.refresh_token);
    const done = await rotate(deps, {
      app,
      token: params.refresh_token,
      tokenHash: spentHash,
      scope: params.scope,
      now,
    });
    return refreshed(deps, app, done, spentHash, now);
  },
};
