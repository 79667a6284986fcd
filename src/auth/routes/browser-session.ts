import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { constantTimeEqual } from '../../shared/crypto.js';
import { pageCookieOptions } from '../../shared/pages.js';
import type { AuthDeps } from '../deps.js';
import { pickLanguage, type Language } from '../oauth/language.js';
import { enrolleeOfSession, openSession } from '../consent/sessions.js';

/**
 * Cookie names. Under an https `PUBLIC_URL` they carry the `__Host-` prefix (RFC 6265bis §4.1.3.2): the
 * browser then accepts them only Secure, with `Path=/` and no `Domain`, so no sibling host or plain-http
 * page can plant or overwrite them. Over http (a local sandbox) the prefix would make browsers drop them.
 */
export function sessionCookie(deps: AuthDeps): string {
  return deps.settings.secureCookies ? '__Host-oe_session' : 'oe_session';
}

export function loginCsrfCookie(deps: AuthDeps): string {
  return deps.settings.secureCookies ? '__Host-oe_login_csrf' : 'oe_login_csrf';
}

/** Binds a sign-in at the identity provider to the browser that started it (RFC 9700 §4.7.1). */
export function idpBindingCookie(deps: AuthDeps): string {
  return deps.settings.secureCookies ? '__Host-oe_idp' : 'oe_idp';
}

/** Only our own authorize and connected-apps pages may follow a login: no open redirect. */
export function safeNext(next: string | undefined): string | undefined {
  // Printable ASCII but the backslash: anything else cannot go into a Location header as it is.
  if (!next || !/^\/v2\/(o\/authorize|accounts\/connected-apps)[\x21-\x5b\x5d-\x7e]*$/.test(next))
    return undefined;
  return next;
}

/** The enrollee logged in on this browser, with the session secret its CSRF tokens derive from. */
export async function currentEnrollee(deps: AuthDeps, request: FastifyRequest) {
  const secret = request.cookies[sessionCookie(deps)];
  const session = await enrolleeOfSession(deps, secret);
  return session && secret ? { ...session, sessionToken: secret } : undefined;
}

/** Logs the enrollee in on this browser: a new session and its cookie. */
export async function startSession(
  deps: AuthDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  enrolleeId: string,
): Promise<void> {
  const secret = await openSession(deps, enrolleeId, request.cookies[sessionCookie(deps)]);
  reply.setCookie(sessionCookie(deps), secret, cookieOptions(deps, deps.settings.sessionTtlSeconds));
}

/** Path=/ and no Domain: what the `__Host-` prefix demands, and right for the plain names too. */
export function cookieOptions(deps: AuthDeps, maxAgeSeconds: number) {
  return pageCookieOptions(deps.settings.secureCookies, maxAgeSeconds);
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
