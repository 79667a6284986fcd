import { createHash, createPrivateKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { NewSigningKey, SigningKeyRecord, SigningKeyStore } from '../store/signing-keys.js';

/** An ID token is meant to be read when it arrives; an hour covers clock skew and slow clients. */
export const ID_TOKEN_TTL_SECONDS = 3600;

/** RS256: the algorithm every OpenID Provider must support (OIDC Core §15.1) and every client verifies. */
export const ID_TOKEN_ALG = 'RS256';

/**
 * How long a retired key stays published after it stopped signing: the ID token lifetime plus a margin for
 * an instance that read the key set just before the rotation and signed with it a moment after.
 */
export function publicationGraceMs(idTokenTtlSeconds: number): number {
  return (idTokenTtlSeconds + 300) * 1000;
}

/** A public JWK (RFC 7517) as published at `jwks_uri`. */
export interface PublicJwk {
  kty: string;
  kid: string;
  use: 'sig';
  alg: string;
  n?: string;
  e?: string;
}

export interface SigningKey {
  kid: string;
  alg: string;
  privateKey: KeyObject;
}

/** RFC 7638 JWK thumbprint of an RSA public key: the key's `kid`, the same wherever it is computed. */
function thumbprint(jwk: { e: string; n: string }): string {
  return createHash('sha256')
    .update(JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n }))
    .digest('base64url');
}

/** A new 2048-bit RSA key pair for RS256 (node:crypto; generated off the event loop). */
export async function generateSigningKey(now: number): Promise<NewSigningKey> {
  const { publicKey, privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  const { n, e } = publicKey.export({ format: 'jwk' }) as { n: string; e: string };
  const kid = thumbprint({ n, e });
  const jwk: PublicJwk = { kty: 'RSA', kid, use: 'sig', alg: ID_TOKEN_ALG, n, e };
  return {
    kid,
    alg: ID_TOKEN_ALG,
    publicJwk: JSON.stringify(jwk),
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    createdAt: now,
  };
}

// Parsed private keys by kid: a kid is the thumbprint of its key, so an entry can never go stale.
const parsed = new Map<string, KeyObject>();

function toSigningKey(record: SigningKeyRecord): SigningKey {
  let key = parsed.get(record.kid);
  if (!key) {
    key = createPrivateKey(record.privateKey);
    parsed.set(record.kid, key);
  }
  return { kid: record.kid, alg: record.alg, privateKey: key };
}

/**
 * How long a rotated-in key is published before it signs. Clients cache a key set (Cache-Control allows a
 * minute; `openid-client` keeps one up to 5 minutes and refetches on an unknown `kid` only once it is a
 * minute old): after this long every cache fetched since the rotation holds the new key.
 */
export const PREPUBLISH_SECONDS = 300;

/** The signing key among `live` (newest generation first) at `now`: the newest one whose time has come. */
function signingAt(live: SigningKeyRecord[], now: number): SigningKeyRecord | undefined {
  return live.find((k) => k.notBefore <= now);
}

/**
 * The key that signs now: the newest generation whose `notBefore` has come. The first time any instance
 * needs one it is generated; when two instances do so at once, the unique generation lets one insert win
 * and both use its key. Read from the database every time (one small query), so a rotation takes effect on
 * every instance at the same moment, without a restart.
 */
export async function currentSigningKey(
  store: SigningKeyStore,
  idTokenTtlSeconds: number,
  now: number,
): Promise<SigningKey> {
  const retiredAfter = now - publicationGraceMs(idTokenTtlSeconds);
  const signing = signingAt(await store.listLiveKeys(retiredAfter), now);
  if (signing) return toSigningKey(signing);
  const all = await store.listAllKeys();
  // The very first key signs "since always": an instance whose clock is behind the one that won the race
  // to create it must find it signing too, not a key from its future.
  const notBefore = all.length === 0 ? 0 : now;
  await store.addGeneration(await generateSigningKey(now), (all[0]?.generation ?? 0) + 1, notBefore);
  const after = signingAt(await store.listLiveKeys(retiredAfter), now);
  if (!after) throw new Error('no signing key after generating one');
  return toSigningKey(after);
}

/**
 * The JWK Set published at `jwks_uri` (RFC 7517 §5): the key about to sign (after a rotation), the one
 * signing, and every retired key whose ID tokens may still be unexpired. Public members only.
 */
export async function publishedJwks(
  store: SigningKeyStore,
  idTokenTtlSeconds: number,
  now: number,
): Promise<{ keys: PublicJwk[] }> {
  await currentSigningKey(store, idTokenTtlSeconds, now);
  const live = await store.listLiveKeys(now - publicationGraceMs(idTokenTtlSeconds));
  return {
    keys: live.map((k) => {
      const { kty, kid, use, alg, n, e } = JSON.parse(k.publicJwk) as PublicJwk;
      return { kty, kid, use, alg, n, e };
    }),
  };
}

export interface Rotation {
  kid: string;
  generation: number;
  /** When the new key starts signing (epoch ms). */
  notBefore: number;
  /** Keys that stop signing then and stay published until their ID tokens have expired. */
  retired: string[];
  /** Keys deleted because their publication had ended. */
  deleted: string[];
}

/**
 * Rotates: a new key is published now and signs from `PREPUBLISH_SECONDS` on (at once with `immediately`,
 * e.g. after a suspected compromise, or when no key signs yet); the key it replaces stays published for the
 * grace period after that; keys whose grace has ended are deleted with their private half.
 */
export async function rotateSigningKeys(
  store: SigningKeyStore,
  idTokenTtlSeconds: number,
  now: number,
  { immediately = false }: { immediately?: boolean } = {},
): Promise<Rotation> {
  const deleted = await store.deleteRetiredKeys(now - publicationGraceMs(idTokenTtlSeconds));
  for (;;) {
    const all = await store.listAllKeys();
    const signing = signingAt(all, now);
    const notBefore = immediately || !signing ? now : now + PREPUBLISH_SECONDS * 1000;
    const generation = (all[0]?.generation ?? 0) + 1;
    const key = await generateSigningKey(now);
    if (await store.addGeneration(key, generation, notBefore)) {
      const retired = all.filter((k) => k.retiredAt === null).map((k) => k.kid);
      return { kid: key.kid, generation, notBefore, retired, deleted };
    }
  }
}
