import { hash, randomBytes, randomFillSync, timingSafeEqual } from 'node:crypto';

/**
 * Bytes from the operating system's CSPRNG, drawn 4 KiB at a time: one call into OpenSSL costs about as much
 * whether it fills 32 bytes or 4,096, and a token request needs two tokens (Node's own `randomUUID` keeps a
 * cache the same way). Each byte is handed out once and wiped from the pool when it is.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

/** A random 256-bit value as base64url (43 characters): client secrets, tokens, codes, session ids. */
export function randomToken(bytes = 32): string {
  if (bytes > pool.length) return randomBytes(bytes).toString('base64url');
  if (poolOffset + bytes > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const token = pool.toString('base64url', poolOffset, poolOffset + bytes);
  pool.fill(0, poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return token;
}

/** Random alphanumeric text, for identifiers people copy (client ids). */
export function randomAlphanumeric(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length)) {
      // 248 = 4 × 62: drop the tail so every character is equally likely.
      if (byte < 248 && out.length < length) out += alphabet[byte % 62];
    }
  }
  return out;
}

/**
 * SHA-256 hex digest. High-entropy random secrets (tokens, codes, client secrets) are stored this way:
 * a slow password hash adds nothing when the input already has 256 bits of entropy.
 */
export function sha256(value: string): string {
  // The one-shot form: no Hash object per call (every plan-API request hashes its key).
  return hash('sha256', value, 'hex');
}

/** Compares two strings in time that depends only on their length. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) return false;
  return timingSafeEqual(left, right);
}

/** A short, non-reversible handle of a hash for log lines: enough to correlate events, useless as a secret. */
export function logHandle(hash: string): string {
  return hash.slice(0, 12);
}
