import { randomUUID } from 'node:crypto';
import { logHandle, randomToken, sha256 } from '../../shared/crypto.js';
import type { PortalDeps } from '../deps.js';
import { DuplicateEmailError, emailKey, type Developer, type LinkPurpose } from '../store/developers.js';
import { hashPassword, passwordMatches } from './passwords.js';

export interface SignUp {
  name: string;
  email: string;
  organization: string;
  password: string;
}

/** The link a mail carries, for the page to show when mail only goes to the log (sandbox). */
export type SentLink = string | undefined;

const SUBJECTS: Record<LinkPurpose, string> = {
  verify: 'Confirm your e-mail address for the openenroll developer portal',
  reset: 'Reset your openenroll developer portal password',
};

/** Mails a single-use link of `purpose` to the developer; returns it when the page must show it. */
async function mailLink(deps: PortalDeps, developer: Developer, purpose: LinkPurpose): Promise<SentLink> {
  const secret = randomToken();
  const now = deps.now();
  await deps.developers.insertLink(
    sha256(secret),
    developer.id,
    purpose,
    now,
    now + deps.settings.linkTtlSeconds * 1000,
  );
  const link = `${deps.settings.publicUrl}/developers/${purpose}?token=${secret}`;
  const hours = Math.round(deps.settings.linkTtlSeconds / 3600);
  await deps.mailer.send({
    to: developer.email,
    subject: SUBJECTS[purpose],
    text:
      `Hello ${developer.name},\n\nOpen this link within ${hours} hours to ` +
      `${purpose === 'verify' ? 'confirm your e-mail address' : 'choose a new password'}:\n\n${link}\n\n` +
      'If you did not ask for this, ignore this message.\n',
  });
  return deps.mailer.delivers ? undefined : link;
}

/**
 * Opens an account and mails its verification link. An address already registered gets no second
 * account and the same answer, so the form does not tell who has an account.
 */
export async function signUp(deps: PortalDeps, form: SignUp): Promise<SentLink> {
  const developer: Developer = {
    id: randomUUID(),
    email: form.email.trim(),
    name: form.name.trim(),
    organization: form.organization.trim(),
    passwordHash: await hashPassword(form.password),
    verifiedAt: null,
    createdAt: deps.now(),
  };
  try {
    await deps.developers.insertDeveloper(developer);
  } catch (error) {
    if (!(error instanceof DuplicateEmailError)) throw error;
    deps.audit('developer_sign_up_repeated', { email: logHandle(sha256(emailKey(form.email))) });
    return undefined;
  }
  deps.audit('developer_signed_up', { developer: developer.id });
  return mailLink(deps, developer, 'verify');
}

/** Uses a verification link; the developer it confirmed, if it was good. */
export async function verifyEmail(deps: PortalDeps, secret: string): Promise<string | undefined> {
  const id = await deps.developers.consumeLink(sha256(secret), 'verify', deps.now());
  if (!id) return undefined;
  await deps.developers.markVerified(id, deps.now());
  deps.audit('developer_verified', { developer: id });
  return id;
}

export type SignInResult =
  | { ok: true; developer: Developer }
  | { ok: false; reason: 'invalid' | 'unverified' | 'locked'; retryAfterSeconds?: number };

const lockKey = (email: string) => `developer-sign-in:${emailKey(email)}`;

/**
 * Checks an e-mail address and password. As for enrollees, every attempt is counted before the password
 * is looked at, and past `loginMaxFailures` in the window the account is locked on every instance.
 */
export async function signIn(deps: PortalDeps, email: string, password: string): Promise<SignInResult> {
  const now = deps.now();
  const { loginMaxFailures, loginLockoutSeconds } = deps.settings;
  const who = logHandle(sha256(emailKey(email)));
  const attempts = await deps.counters.hit(lockKey(email), loginLockoutSeconds, now);
  if (attempts > loginMaxFailures) {
    deps.audit('developer_locked', { email: who });
    return { ok: false, reason: 'locked', retryAfterSeconds: loginLockoutSeconds };
  }
  const developer = await deps.developers.findByEmail(email);
  if (!(await passwordMatches(developer?.passwordHash, password)) || !developer) {
    deps.audit('developer_sign_in_failed', { email: who, attempts });
    return { ok: false, reason: 'invalid' };
  }
  await deps.counters.reset(lockKey(email));
  if (developer.verifiedAt === null) return { ok: false, reason: 'unverified' };
  deps.audit('developer_signed_in', { developer: developer.id });
  return { ok: true, developer };
}

/** Mails a reset link when the address has an account; the same answer either way. */
export async function requestReset(deps: PortalDeps, email: string): Promise<SentLink> {
  const developer = await deps.developers.findByEmail(email);
  if (!developer) return undefined;
  deps.audit('developer_reset_requested', { developer: developer.id });
  return mailLink(deps, developer, 'reset');
}

/** Sets a new password through a reset link; every session of the account ends. False: a bad link. */
export async function resetPassword(deps: PortalDeps, secret: string, password: string): Promise<boolean> {
  const id = await deps.developers.consumeLink(sha256(secret), 'reset', deps.now());
  if (!id) return false;
  await deps.developers.replacePassword(id, await hashPassword(password));
  // The link proved the mailbox: an account reset this way is verified too.
  await deps.developers.markVerified(id, deps.now());
  deps.audit('developer_password_reset', { developer: id });
  return true;
}

/** Opens a browser session; the browser's previous one, if any, ends (no session fixation). */
export async function openSession(deps: PortalDeps, developerId: string, previous?: string): Promise<string> {
  if (previous) await deps.developers.deleteSession(sha256(previous));
  const secret = randomToken();
  const now = deps.now();
  await deps.developers.insertSession(
    sha256(secret),
    developerId,
    now,
    now + deps.settings.sessionTtlSeconds * 1000,
  );
  return secret;
}

/** The developer signed in with this session secret, if the session is live. */
export async function developerOfSession(deps: PortalDeps, secret: string | undefined) {
  if (!secret) return undefined;
  const id = await deps.developers.findSession(sha256(secret), deps.now());
  return id === undefined ? undefined : deps.developers.findById(id);
}

export async function closeSession(deps: PortalDeps, secret: string, developerId: string): Promise<void> {
  await deps.developers.deleteSession(sha256(secret));
  deps.audit('developer_signed_out', { developer: developerId });
}
