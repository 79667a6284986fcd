import { hash, verify } from '@node-rs/argon2';
import type { Enrollee } from '../store/enrollees.js';
import type { AuthDeps } from './deps.js';

export type LoginResult =
  { ok: true; enrollee: Enrollee } | { ok: false; reason: 'invalid' | 'locked'; retryAfterSeconds?: number };

// A hash of a random password, verified when the username is unknown so both paths cost the same.
const decoy = hash('decoy-password-that-matches-nothing', { memoryCost: 19456, timeCost: 2 });

function lockKey(username: string): string {
  return `login-failures:${username.trim().toLowerCase()}`;
}

/**
 * Checks an enrollee's username and password. Repeated failures for one username lock it for a while
 * (counters shared by every instance), whether or not the password was right during the lock.
 */
export async function logIn(deps: AuthDeps, username: string, password: string): Promise<LoginResult> {
  const now = deps.now();
  const { loginMaxFailures, loginLockoutSeconds } = deps.settings;
  if ((await deps.counters.peek(lockKey(username), now)) >= loginMaxFailures) {
    deps.audit('login_locked', { username });
    return { ok: false, reason: 'locked', retryAfterSeconds: loginLockoutSeconds };
  }
  const enrollee = await deps.enrollees.findEnrolleeByUsername(username.trim());
  const valid = enrollee
    ? await verify(enrollee.passwordHash, password).catch(() => false)
    : await verify(await decoy, password).then(() => false);
  if (!enrollee || !valid) {
    const failures = await deps.counters.hit(lockKey(username), loginLockoutSeconds, now);
    deps.audit('login_failed', { username, failures });
    return failures >= loginMaxFailures
      ? { ok: false, reason: 'locked', retryAfterSeconds: loginLockoutSeconds }
      : { ok: false, reason: 'invalid' };
  }
  await deps.counters.reset(lockKey(username));
  deps.audit('login', { enrollee: enrollee.id });
  return { ok: true, enrollee };
}

/** argon2id with OWASP's minimum parameters: enrollee passwords are low-entropy secrets. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { memoryCost: 19456, timeCost: 2 });
}
