import { logHandle, sha256 } from '../../shared/crypto.js';
import { jsonError } from '../../shared/errors.js';
import type { ClientApp } from '../store/apps.js';
import type { AuthDeps } from '../deps.js';
import { oauthError } from './errors.js';
import { familyOfToken } from './token-format.js';

/** The family whose current access or refresh token `token` is, if any. */
async function ownerOf(deps: AuthDeps, token: string) {
  const hash = sha256(token);
  const familyId = await familyOfToken(deps.tokens, token, hash);
  return familyId === undefined ? undefined : deps.tokens.findTokenOwner(familyId, hash);
}

/**
 * `/v2/o/revoke/` (docs/decisions.md#revoke): any token value answers 200; a token of this app — access or
 * refresh — ends the enrollee's data access grant for the app, and with it every token of the pair.
 */
export async function revokeTokenAndGrant(
  deps: AuthDeps,
  app: ClientApp,
  token: string | undefined,
): Promise<void> {
  if (!token) throw oauthError(400, 'invalid_request', 'Missing token parameter.');
  const owner = await ownerOf(deps, token);
  // A token that is no longer live (revoked, rotated, or of a replaced family) changes nothing: ending the
  // grant through it would cut off the enrollee's current consent (RFC 7009 §2.2: invalid tokens are ignored).
  if (!owner || !owner.live || owner.clientId !== app.clientId) return;
  const now = deps.now();
  const deleted = await deps.tokens.deleteGrant(app.clientId, owner.enrolleeId, 'revoked-by-app', now);
  deps.audit('revoke', { client_id: app.clientId, token: logHandle(sha256(token)), grant_deleted: deleted });
  if (deleted)
    deps.audit('grant_changed', { client_id: app.clientId, enrollee: owner.enrolleeId, action: 'revoked' });
}

/**
 * RFC 7009 §2.1: revokes one token (an access token takes its paired refresh token along, and the other way
 * round); the grant stays. A token of another app is refused (docs/decisions.md#revoke-token).
 * `token_type_hint` is not needed: both kinds are searched, as §2.2 allows.
 */
export async function revokeSingleToken(
  deps: AuthDeps,
  app: ClientApp,
  token: string | undefined,
): Promise<void> {
  if (!token) throw oauthError(400, 'invalid_request', 'Missing token parameter.');
  const owner = await ownerOf(deps, token);
  if (!owner) return;
  if (owner.clientId !== app.clientId) throw notYours();
  await deps.tokens.revokeFamily(owner.familyId, deps.now());
  deps.audit('revoke', { client_id: app.clientId, token: logHandle(sha256(token)), kind: owner.kind });
}

function notYours() {
  return jsonError(403, {
    status_code: 403,
    description: 'Application did not have access to the provided token.',
  });
}
