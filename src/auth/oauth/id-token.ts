import { createHash, sign } from 'node:crypto';
import type { AuthDeps } from '../deps.js';
import { parseScope } from './scopes.js';
import { currentSigningKey, type SigningKey } from './signing-keys.js';

/** What an ID token says about one authentication (OIDC Core §2; SMART App Launch 2.0 §fhirUser). */
export interface IdTokenFacts {
  clientId: string;
  patientId: string;
  /** Epoch ms of the enrollee's login; null for tokens from before it was recorded (then omitted). */
  authTime: number | null;
  /** The authorize request's nonce (code exchange only: OIDC Core §12.2 leaves it out of refreshes). */
  nonce: string | null;
  accessToken: string;
}

/** RFC 7515 compact serialization, RS256 (RSASSA-PKCS1-v1_5 with SHA-256, RFC 7518 §3.3). */
export function signJwt(key: SigningKey, claims: Record<string, unknown>): string {
  const header = { alg: key.alg, typ: 'JWT', kid: key.kid };
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  const input = `${encode(header)}.${encode(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), key.privateKey).toString('base64url')}`;
}

/** OIDC Core §3.1.3.6: the left half of the SHA-256 of the access token, base64url. */
export function accessTokenHash(accessToken: string): string {
  return createHash('sha256').update(accessToken).digest().subarray(0, 16).toString('base64url');
}

/**
 * A signed ID token (OIDC Core §2, §3.1.3.6): `iss` is the discovery issuer, `sub` the enrollee's patient
 * id (the userinfo `sub`), `aud` the client; `fhirUser` the absolute URL of the enrollee's Patient resource
 * (SMART App Launch 2.0, "Scopes for requesting identity data").
 */
export async function issueIdToken(deps: AuthDeps, facts: IdTokenFacts): Promise<string> {
  const now = deps.now();
  const { publicUrl, idTokenTtlSeconds } = deps.settings;
  const key = await currentSigningKey(deps.signingKeys, idTokenTtlSeconds, now);
  const iat = Math.floor(now / 1000);
  const claims: Record<string, unknown> = {
    iss: publicUrl,
    sub: facts.patientId,
    aud: facts.clientId,
    exp: iat + idTokenTtlSeconds,
    iat,
  };
  if (facts.authTime !== null) claims.auth_time = Math.floor(facts.authTime / 1000);
  if (facts.nonce !== null) claims.nonce = facts.nonce;
  claims.at_hash = accessTokenHash(facts.accessToken);
  claims.fhirUser = `${publicUrl}/v2/fhir/Patient/${facts.patientId}`;
  return signJwt(key, claims);
}

/** OIDC Core §3.1.3.3: an ID token accompanies the tokens exactly when the granted scope holds `openid`. */
export async function idTokenFor(
  deps: AuthDeps,
  scope: string,
  facts: IdTokenFacts,
): Promise<string | undefined> {
  return parseScope(scope).includes('openid') ? issueIdToken(deps, facts) : undefined;
}
