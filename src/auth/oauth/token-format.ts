import type { TokenStore } from '../store/tokens.js';

/**
 * Access and refresh tokens are `<family id>.<secret>`, the secret 256 random bits: the family's row is
 * found by its key, and only the SHA-256 of the whole token is kept there to compare against. A token the
 * family has replaced still names it, so a spent refresh token is told apart from one never issued.
 */
const TOKEN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.[A-Za-z0-9_-]{43}$/;

/** The shape of a token issued before tokens named their family (migration 0012). */
const LEGACY_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** True when `token` has the shape of one of our access or refresh tokens, old or new. */
export function looksLikeOurToken(token: string): boolean {
  return TOKEN.test(token) || LEGACY_TOKEN.test(token);
}

/**
 * The family a presented token belongs to, if it could be one of ours: the one it names, or for a token
 * from before families were named, the one the upgrade recorded for its hash.
 */
export async function familyOfToken(
  tokens: Pick<TokenStore, 'findLegacyFamily'>,
  token: string,
  tokenHash: string,
): Promise<string | undefined> {
  const named = TOKEN.exec(token)?.[1];
  if (named !== undefined) return named;
  return LEGACY_TOKEN.test(token) ? tokens.findLegacyFamily(tokenHash) : undefined;
}

/** The family a token names, without asking the store (undefined for a legacy token or no token). */
export function namedFamily(token: string): string | undefined {
  return TOKEN.exec(token)?.[1];
}
