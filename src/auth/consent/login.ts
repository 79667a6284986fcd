import { hash, verify } from '@node-rs/argon2';
import type { Enrollee } from '../store/enrollees.js';
import { logHandle, sha256 } from '../../shared/crypto.js';
import type { AuthDeps } from '../deps.js';

export type LoginResult =
  { ok: true; enrollee: Enrollee } | { ok: false; reason: 'invalid' | 'locked'; retryAfterSeconds?: number };

// A hash of a random password, verified when the username is unknown so both paths cost the same.
const decoy = hash('decoy-password-that-matches-nothing', { memoryCost: 19456, timeCost: 2 });

function lockKey(username: string): string {
  return `login-failures:${username.trim().toLowerCase()}`;
}

/**
 * Checks an enrollee's username and password. Every attempt is counted before the password is looked at,
 * so parallel guesses cannot slip past the limit; after `loginMaxFailures` attempts in the window the
 * username is locked (counters shared by every instance) whether or not the password is right, and a
 * successful login clears the count.
 */
export async function logIn(deps: AuthDeps, username: string, password: string): Promise<LoginResult> {
  const now = deps.now();
  const { loginMaxFailures, loginLockoutSeconds } = deps.settings;
  const who = logHandle(sha256(username.trim().toLowerCase()));
  const attempts = await deps.counters.hit(lockKey(username), loginLockoutSeconds, now);
  if (attempts > loginMaxFailures) {
    deps.audit('login_locked', { user: who });
    return { ok: false, reason: 'locked', retryAfterSeconds: loginLockoutSeconds };
  }
  const enrollee = await deps.enrollees.findEnrolleeByUsername(username.trim());
  const valid = enrollee
    ? await verify(enrollee.passwordHash, password).catch(() => false)
    : await verify(await decoy, password).then(() => false);
  if (!enrollee || !valid) {
    deps.audit('login_failed', { user: who, attempts });
    return { ok: false, reason: 'invalid' };
  }
  await deps.counters.reset(lockKey(username));
  deps.audit('login', { enrollee: enrollee.id });
  return { ok: true, enrollee };
}

/** argon2id with OWASP's minimum parameters: enrollee passwords are low-entropy secrets. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { memoryCost: 19456, timeCost: 2 });
}
