import { logHandle, sha256 } from '../../../shared/crypto.js';
import type { AuthCode, CodeContext } from '../../store/tokens.js';
import type { AuthDeps } from '../../deps.js';
import { oauthError } from '../errors.js';
import { VERIFIER_MAX, VERIFIER_MIN, verifierMatches } from '../pkce.js';
import { idTokenFor } from '../id-token.js';
import { secondsUntil, tokenResponse } from '../token-response.js';
import type { GrantRequest, TokenGrant } from './types.js';
import { mintTokens } from './mint.js';

/**
 * RFC 6749 §4.1.3 steps, in order; each throws the error Blue Button answers with
 * (docs/decisions.md#code-exchange).
 */
async function findUsableCode(
  deps: AuthDeps,
  { app, params }: GrantRequest,
  now: number,
): Promise<CodeContext> {
  if (!params.code) throw oauthError(400, 'invalid_request', 'Missing code parameter.');
  const code = await deps.tokens.findCode(sha256(params.code));
  if (!code || code.clientId !== app.clientId) throw oauthError(400, 'invalid_grant');
  if (code.usedAt !== null) {
    // RFC 6749 §4.1.2: a code used twice revokes what was issued from it.
    await deps.tokens.revokeFamily(code.familyId, now);
    deps.audit('code_reuse', { client_id: app.clientId, family: logHandle(code.familyId) });
    throw oauthError(400, 'invalid_grant');
  }
  if (code.expiresAt <= now) throw oauthError(400, 'invalid_grant');
  return code;
}

/**
 * RFC 6749 §4.1.3: required, and identical, when the authorization request included it. Leaving it out is a
 * missing parameter (`invalid_request`); a different one does not match the grant (§5.2 `invalid_grant`).
 */
function checkRedirectUri(code: AuthCode, redirectUri: string | undefined): void {
  if (redirectUri === undefined && !code.redirectUriGiven) return;
  if (redirectUri === undefined) throw oauthError(400, 'invalid_request', 'Missing redirect URI.');
  if (redirectUri !== code.redirectUri) throw oauthError(400, 'invalid_grant', 'Mismatching redirect URI.');
}

/**
 * RFC 7636 §4.6. A well-formed verifier that does not match spends the code (RFC 9700 §2.1.1, §4.8: a code
 * must not stay usable after a failed proof — whoever presented it may hold a stolen code), so a later
 * exchange with the right verifier is `invalid_grant` too; no tokens exist yet for an unspent code. A
 * verifier of the wrong length is a malformed request, not a proof: it is refused and the code kept.
 */
async function checkVerifier(
  deps: AuthDeps,
  code: AuthCode,
  verifier: string | undefined,
  now: number,
): Promise<void> {
  if (!verifier) throw oauthError(400, 'invalid_request', 'Code verifier required.');
  if (verifier.length < VERIFIER_MIN)
    throw oauthError(400, 'invalid_grant', `code_verifier min length is ${VERIFIER_MIN}`);
  if (verifier.length > VERIFIER_MAX)
    throw oauthError(400, 'invalid_grant', `code_verifier max length is ${VERIFIER_MAX}`);
  if (verifierMatches(verifier, code.codeChallenge)) return;
  await deps.tokens.spendCode(code.codeHash, now);
  deps.audit('code_verifier_failed', { client_id: code.clientId, code: logHandle(code.codeHash) });
  throw oauthError(400, 'invalid_grant');
}

export const authorizationCodeGrant: TokenGrant = {
  grantType: 'authorization_code',
  parameters: ['code', 'redirect_uri', 'code_verifier'],
  async handle(deps, request) {
    const { app, params } = request;
    const now = deps.now();
    const code = await findUsableCode(deps, request, now);
    checkRedirectUri(code, params.redirect_uri);
    await checkVerifier(deps, code, params.code_verifier, now);

    // The code's enrollee and the pair's grant came with it (one read).
    const patientId = code.patientId;
    if (patientId === null || !code.hasGrant) throw oauthError(400, 'invalid_grant');

    const minted = mintTokens(deps, app, code.familyId, now);
    // Signed before the code is spent: a signing failure must not cost the client its code.
    const idToken = await idTokenFor(deps, code.scope, {
      clientId: app.clientId,
      patientId,
      authTime: code.authTime,
      nonce: code.nonce,
      accessToken: minted.accessToken,
    });
    // A `10 hours` grant lives exactly as long as its access token (docs/decisions.md#access-categories).
    const grantExpiresAt = app.dataAccessType === 'ONE_TIME' ? minted.issued.accessExpiresAt : 'keep';
    const family = {
      familyId: code.familyId,
      clientId: app.clientId,
      enrolleeId: code.enrolleeId,
      scope: code.scope,
      authTime: code.authTime,
      ...minted.issued,
    };
    if (!(await deps.tokens.redeemCode(code.codeHash, family, grantExpiresAt, now))) {
      // Lost a race for the code (or its grant went away meanwhile): whatever the winner got is revoked too.
      await deps.tokens.revokeFamily(code.familyId, now);
      throw oauthError(400, 'invalid_grant');
    }
    deps.audit('token_issued', {
      grant_type: 'authorization_code',
      client_id: app.clientId,
      patient: patientId,
      token: logHandle(minted.issued.accessHash),
      scope: code.scope,
    });
    return tokenResponse(app, {
      accessToken: minted.accessToken,
      accessExpiresAt: minted.issued.accessExpiresAt,
      // The remaining lifetime, in whole seconds (RFC 6749 §5.1): a fraction is allowed, not required
      // (docs/decisions.md#expires-in).
      expiresIn: secondsUntil(minted.issued.accessExpiresAt, deps.now()),
      scope: code.scope,
      refreshToken: minted.refreshToken,
      patientId,
      grantExpiresAt: grantExpiresAt === 'keep' ? code.grantExpiresAt : grantExpiresAt,
      idToken,
    });
  },
};
