import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { constantTimeEqual, randomToken } from '../../shared/crypto.js';
import { formBody } from '../../shared/form.js';
import { pickLanguage, type Language } from '../../shared/language.js';
import { developerOfSession } from '../accounts/accounts.js';
import type { PortalDeps } from '../deps.js';
import { translator, type MessageKey } from '../pages/i18n.js';
import { renderPage } from '../pages/render.js';
import { pageCookieOptions, type PageData } from '../../shared/pages.js';
import { portalErrors } from '../errors.js';

/**
 * Cookies of the portal, apart from the enrollee's: `__Host-` prefixed under an https `PUBLIC_URL`
 * (RFC 6265bis §4.1.3.2), so no sibling host or plain-http page can plant them.
 */
export const sessionCookie = (deps: PortalDeps) =>
  deps.settings.secureCookies ? '__Host-oe_dev_session' : 'oe_dev_session';
const formCookie = (deps: PortalDeps) => (deps.settings.secureCookies ? '__Host-oe_dev_csrf' : 'oe_dev_csrf');

export function cookieOptions(deps: PortalDeps, maxAgeSeconds: number) {
  return pageCookieOptions(deps.settings.secureCookies, maxAgeSeconds);
}

/** Page language: `lang` in the query, else Accept-Language, else English. */
export function pageLanguage(request: FastifyRequest): Language {
  const query = request.query as Record<string, unknown> | undefined;
  return pickLanguage(
    typeof query?.lang === 'string' ? query.lang : undefined,
    request.headers['accept-language'],
  );
}

function switchUrl(request: FastifyRequest, lang: Language): string | undefined {
  if (request.method !== 'GET') return undefined;
  const url = new URL(request.url, 'http://local');
  url.searchParams.set('lang', lang === 'en' ? 'es' : 'en');
  return `${url.pathname}${url.search}`;
}

/** Sends a page: HTML, never cached. */
export function sendPage(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  template: string,
  lang: Language,
  data: PageData,
) {
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(renderPage(template, lang, { switchUrl: switchUrl(request, lang), ...data }));
}

/** A one-paragraph page: an error (`error: true`) or a notice, with an optional link onward. */
export function sendMessage(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  lang: Language,
  title: MessageKey,
  message: string,
  more: Record<string, unknown> = {},
) {
  const t = translator(lang);
  return sendPage(request, reply, status, 'message', lang, {
    title: t(title),
    message,
    error: status >= 400,
    ...more,
  });
}

/** The form's fields, refusing bodies that are not forms (415) or repeat a field (400). */
export function portalForm(request: FastifyRequest): Record<string, string | undefined> {
  return formBody(request, (status, message) => portalErrors.invalid(status, message));
}

/**
 * The CSRF token of a form shown before sign-in: a double-submit value, random in an HttpOnly SameSite
 * cookie that the posted form must repeat (OWASP double-submit cookie pattern).
 */
export function anonymousCsrf(deps: PortalDeps, request: FastifyRequest, reply: FastifyReply): string {
  const value = request.cookies[formCookie(deps)] ?? randomToken();
  reply.setCookie(formCookie(deps), value, cookieOptions(deps, 3600));
  return value;
}

export function anonymousCsrfMatches(deps: PortalDeps, request: FastifyRequest, given: string | undefined) {
  const cookie = request.cookies[formCookie(deps)];
  return cookie !== undefined && given !== undefined && constantTimeEqual(cookie, given);
}

/** A signed-in developer's CSRF token: derived from the session secret (OWASP synchronizer token). */
export function sessionCsrf(sessionSecret: string): string {
  return createHash('sha256').update(`developer-portal:${sessionSecret}`).digest('base64url');
}

export interface SignedIn {
  developer: NonNullable<Awaited<ReturnType<typeof developerOfSession>>>;
  secret: string;
  csrf: string;
}

/** The developer signed in on this browser, or undefined. */
export async function signedIn(deps: PortalDeps, request: FastifyRequest): Promise<SignedIn | undefined> {
  const secret = request.cookies[sessionCookie(deps)];
  const developer = await developerOfSession(deps, secret);
  return developer && secret ? { developer, secret, csrf: sessionCsrf(secret) } : undefined;
}

/** Sends the browser to the sign-in page (303 after a POST, so the form is not sent again). */
export function toSignIn(reply: FastifyReply, lang: Language) {
  return reply.redirect(`/developers/sign-in?lang=${lang}`, 303);
}

/** Refuses a signed-in form whose CSRF token does not match the session: 403 page. */
export function formIsForged(me: SignedIn, form: Record<string, string | undefined>): boolean {
  return form.csrf === undefined || !constantTimeEqual(me.csrf, form.csrf);
}
