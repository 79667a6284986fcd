import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { constantTimeEqual, randomToken, sha256 } from '../../shared/crypto.js';
import type { AuthDeps } from '../oauth/deps.js';
import { pickLanguage, type Language } from '../oauth/language.js';

export const SESSION_COOKIE = 'oe_session';
export const LOGIN_CSRF_COOKIE = 'oe_login_csrf';

/** The enrollee logged in on this browser, looked up in the database (any instance can answer). */
export async function currentEnrollee(deps: AuthDeps, request: FastifyRequest) {
  const raw = request.cookies[SESSION_COOKIE];
  if (!raw) return undefined;
  const enrolleeId = await deps.sessions.findSessionEnrolleeId(sha256(raw), deps.now());
  return enrolleeId ? { enrolleeId, sessionToken: raw } : undefined;
}

/** A new session id at every login (no fixation); the browser's previous session, if any, ends. */
export async function startSession(
  deps: AuthDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  enrolleeId: string,
): Promise<void> {
  const previous = request.cookies[SESSION_COOKIE];
  if (previous) await deps.sessions.deleteSession(sha256(previous));
  const token = randomToken();
  const now = deps.now();
  const ttl = deps.settings.sessionTtlSeconds;
  await deps.sessions.insertSession(sha256(token), enrolleeId, now, now + ttl * 1000);
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(deps, ttl));
}

export function cookieOptions(deps: AuthDeps, maxAgeSeconds: number) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: deps.settings.secureCookies,
    maxAge: maxAgeSeconds,
  };
}

/**
 * CSRF token of a consent form: derived from the session secret and the approval, so it needs no storage
 * and cannot be produced without the enrollee's session cookie (OWASP synchronizer-token pattern).
 */
export function consentCsrf(sessionToken: string, approvalId: string): string {
  return createHash('sha256').update(`consent:${sessionToken}:${approvalId}`).digest('base64url');
}

export function csrfMatches(expected: string, given: string | undefined): boolean {
  return given !== undefined && constantTimeEqual(expected, given);
}

/** Page language: `lang` in the query or the pending request, else Accept-Language, else English. */
export function pageLanguage(request: FastifyRequest, stored?: Language | null): Language {
  const query = request.query as Record<string, unknown> | undefined;
  const lang = typeof query?.lang === 'string' ? query.lang : (stored ?? undefined);
  return pickLanguage(lang, request.headers['accept-language']);
}

/** The same URL with `lang` switched to the other language. */
export function switchLanguageUrl(request: FastifyRequest, current: Language): string {
  const url = new URL(request.url, 'http://local');
  url.searchParams.set('lang', current === 'en' ? 'es' : 'en');
  return `${url.pathname}${url.search}`;
}
