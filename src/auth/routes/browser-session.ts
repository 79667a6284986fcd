import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { constantTimeEqual } from '../../shared/crypto.js';
import type { AuthDeps } from '../oauth/deps.js';
import { pickLanguage, type Language } from '../oauth/language.js';
import { enrolleeOfSession, openSession } from '../oauth/sessions.js';

export const SESSION_COOKIE = 'oe_session';
export const LOGIN_CSRF_COOKIE = 'oe_login_csrf';

/** The enrollee logged in on this browser, with the session secret its CSRF tokens derive from. */
export async function currentEnrollee(deps: AuthDeps, request: FastifyRequest) {
  const secret = request.cookies[SESSION_COOKIE];
  const enrolleeId = await enrolleeOfSession(deps, secret);
  return enrolleeId && secret ? { enrolleeId, sessionToken: secret } : undefined;
}

/** Logs the enrollee in on this browser: a new session and its cookie. */
export async function startSession(
  deps: AuthDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  enrolleeId: string,
): Promise<void> {
  const secret = await openSession(deps, enrolleeId, request.cookies[SESSION_COOKIE]);
  reply.setCookie(SESSION_COOKIE, secret, cookieOptions(deps, deps.settings.sessionTtlSeconds));
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
 * CSRF token of a form shown to a logged-in enrollee (consent, connected apps): derived from the session
 * secret and the form's purpose, so it needs no storage and cannot be produced without the session cookie
 * (OWASP synchronizer-token pattern).
 */
export function sessionCsrf(sessionToken: string, purpose: string): string {
  return createHash('sha256').update(`${purpose}:${sessionToken}`).digest('base64url');
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
