import { sha256 } from '../../shared/crypto.js';
import type { AccessTokenContext } from '../store/tokens.js';
import type { AuthDeps } from '../deps.js';
import { detailError } from '../../shared/detail-error.js';
import { TEXT } from './errors.js';
import { familyOfToken, looksLikeOurToken } from './token-format.js';

const CHALLENGE = 'Bearer realm="api"';

/**
 * A token was given but cannot be used (RFC 6750 §3.1 `invalid_token`, the reason in the challenge's
 * `error_description`). One of our tokens that no longer works (unknown, revoked, expired) keeps Blue
 * Button's body, "Authentication credentials were not provided." (docs/decisions.md#bearer-tokens), which
 * apps written against Blue Button match; a value that cannot be one of our tokens at all (`Bearer nope`, a
 * pasted fragment) says so in the body too, so a newcomer is not sent looking for a missing header.
 */
function invalidToken(token: string, description: string) {
  return detailError(401, looksLikeOurToken(token) ? TEXT.notAuthenticated : description, {
    'www-authenticate': `${CHALLENGE}, error="invalid_token", error_description="${description}"`,
  });
}

/**
 * Authenticates a data request by its bearer token (RFC 6750 §2.1 only: a token in the query string is
 * refused) and applies the service's permission checks in Blue Button's order
 * (docs/decisions.md#bearer-tokens): token → app active → grant present → grant not expired. No
 * `Authorization` header answers Blue Button's "Authentication credentials were not provided."; so does a
 * token of ours that no longer works, while a value that is no token of ours says it is invalid.
 * `fresh`: read the token's family now rather than from the rows kept for Bearer checks
 * (docs/decisions.md#kept-access-contexts), for an answer made of those rows alone.
 */
export async function authenticateBearer(
  deps: AuthDeps,
  authorization: string | undefined,
  queryHasToken: boolean,
  options: { fresh?: boolean } = {},
): Promise<AccessTokenContext> {
  if (queryHasToken) {
    throw detailError(
      400,
      'Using the access token in the query parameters is not supported. Use the Authorization header instead',
    );
  }
  const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  if (!match) throw detailError(401, TEXT.notAuthenticated, { 'www-authenticate': CHALLENGE });
  const token = match[1]!;
  const tokenHash = sha256(token);
  const familyId = await familyOfToken(deps.tokens, token, tokenHash);
  const context =
    familyId === undefined
      ? undefined
      : await deps.tokens.findAccessTokenContext(familyId, tokenHash, options.fresh);
  const now = deps.now();
  if (!context || context.revoked) throw invalidToken(token, TEXT.invalidToken);
  if (context.expiresAt <= now) throw invalidToken(token, TEXT.expiredToken);
  if (!context.appActive) throw detailError(401, TEXT.appInactive(context.appName));
  if (!context.hasGrant) throw detailError(403, TEXT.noPermission);
  if (context.grantExpiresAt !== null && context.grantExpiresAt <= now)
    throw detailError(401, TEXT.grantTimedOut);
  return context;
}

/** True when the token holds `scope`. */
export function hasScope(context: AccessTokenContext, scope: string): boolean {
  return context.scope.split(' ').includes(scope);
}
