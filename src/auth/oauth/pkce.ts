import { createHash } from 'node:crypto';
import { constantTimeEqual } from '../../shared/crypto.js';

/** RFC 7636 §4.1 bounds; any characters are accepted (the Python SDK's verifiers contain `=`). */
export const VERIFIER_MIN = 43;
export const VERIFIER_MAX = 128;

/** Stored challenges drop base64 `=` padding so a padded and an unpadded challenge compare equal. */
export function normalizeChallenge(challenge: string): string {
  return challenge.replace(/=+$/, '');
}

/** RFC 7636 §4.6: BASE64URL(SHA256(ASCII(code_verifier))) must equal the stored challenge. */
export function verifierMatches(verifier: string, storedChallenge: string): boolean {
  const computed = createHash('sha256').update(verifier, 'utf8').digest('base64url');
  return constantTimeEqual(computed, normalizeChallenge(storedChallenge));
}
