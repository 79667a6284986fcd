import { sha256 } from '../../shared/crypto.js';
import type { AccessTokenContext } from '../store/tokens.js';
import type { AuthDeps } from './deps.js';
import { detailError, TEXT } from './errors.js';

const CHALLENGE = 'Bearer realm="api"';

/**
 * Authenticates a data request by its bearer token (RFC 6750 §2.1 only: a token in the query string is
 * refused) and applies the service's permission checks in the anchor's order (research §4.1, §4.5):
 * token → app active → grant present → grant not expired.
 */
export async function authenticateBearer(
  deps: AuthDeps,
  authorization: string | undefined,
  queryHasToken: boolean,
): Promise<AccessTokenContext> {
  if (queryHasToken) {
    throw detailError(
      400,
      'Using the access token in the query parameters is not supported. Use the Authorization header instead',
    );
  }
  const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  if (!match) throw detailError(401, TEXT.notAuthenticated, { 'www-authenticate': CHALLENGE });
  const context = await deps.tokens.findAccessTokenContext(sha256(match[1]!));
  const now = deps.now();
  if (!context || context.revokedAt !== null) {
    throw detailError(401, TEXT.notAuthenticated, {
      'www-authenticate': `${CHALLENGE}, error="invalid_token", error_description="The access token is invalid."`,
    });
  }
  if (context.expiresAt <= now) {
    throw detailError(401, TEXT.notAuthenticated, {
      'www-authenticate': `${CHALLENGE}, error="invalid_token", error_description="The access token has expired."`,
    });
  }
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
