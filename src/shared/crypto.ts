import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random 256-bit value as base64url (43 characters): client secrets, tokens, codes, session ids. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
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
