import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageErrors } from '../errors.js';
import type { App } from '../../shared/http.js';
import { formBody, singleParams } from '../../shared/form.js';
import { randomToken } from '../../shared/crypto.js';
import type { AuthDeps } from '../deps.js';
import { pageError } from '../oauth/errors.js';
import { logIn } from '../consent/login.js';
import { asLanguage, type Language } from '../oauth/language.js';
import { translator } from '../pages/i18n.js';
import { renderPage } from '../pages/render.js';
import { startUrl } from '../federation/idp-settings.js';
import { limitSource } from './source-limit.js';
import {
  cookieOptions,
  csrfMatches,
  loginCsrfCookie,
  pageLanguage,
  safeNext,
  startSession,
  switchLanguageUrl,
} from './browser-session.js';

interface LoginView {
  next: string;
  username: string;
  error?: string;
  status: number;
}

/**
 * The login page: "Sign in with <plan>" when an identity provider is configured, and in sandbox mode the
 * test-account form; production without an identity provider says sign-in is not available (503). The
 * form carries a double-submit CSRF token: a random value in an HttpOnly SameSite cookie that the posted
 * form must repeat (there is no session yet to derive one from).
 */
function showLogin(
  deps: AuthDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  lang: Language,
  view: LoginView,
) {
  const { sandbox } = deps.settings;
  const idp = deps.identityProvider;
  const csrf = request.cookies[loginCsrfCookie(deps)] ?? randomToken();
  if (sandbox) reply.setCookie(loginCsrfCookie(deps), csrf, cookieOptions(deps, 3600));
  const html = renderPage('login', lang, {
    title: translator(lang)('loginTitle'),
    switchUrl: switchLanguageUrl(request, lang),
    csrf,
    next: view.next,
    username: view.username,
    error: view.error,
    sandbox,
    idp: idp && { label: idp.settings.label[lang], startUrl: startUrl(view.next, lang) },
  });
  return reply
    .status(!sandbox && !idp ? 503 : view.status)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}

export function registerLoginRoutes(app: App, deps: AuthDeps): void {
  const config = { errors: pageErrors };

  const schema = { tags: ['pages'], summary: 'Enrollee login page' };
  app.get('/v2/accounts/login', { config, schema }, (request, reply) => {
    const query = singleParams(request.query, (m) => pageError(400, 'invalid_request', m));
    const lang = pageLanguage(request);
    return showLogin(deps, request, reply, lang, {
      next: safeNext(query.next) ?? '',
      username: '',
      status: 200,
    });
  });

  // Password accounts are the sandbox's test enrollees; in production members sign in at the plan's IdP.
  if (!deps.settings.sandbox) return;
  app.post('/v2/accounts/login', { config, schema }, async (request, reply) => {
    const form = formBody(request, (status, m) => pageError(status, 'invalid_request', m));
    const lang = pageLanguage(request, asLanguage(form.lang));
    const t = translator(lang);
    const next = safeNext(form.next) ?? '';
    const username = (form.username ?? '').slice(0, 100);
    // Per client address, before anything is looked up or counted per username.
    const limited = await limitSource(deps, request, 'login', lang);
    if (limited) {
      reply.header('retry-after', String(limited.retryAfterSeconds));
      return showLogin(deps, request, reply, lang, { next, username, error: limited.message, status: 429 });
    }
    const cookieCsrf = request.cookies[loginCsrfCookie(deps)];
    if (!cookieCsrf || !csrfMatches(cookieCsrf, form.csrf)) {
      throw pageError(403, 'invalid_request', 'formTampered', lang);
    }
    const result = await logIn(deps, username, (form.password ?? '').slice(0, 200));
    if (!result.ok) {
      const error =
        result.reason === 'locked'
          ? t('loginLocked', { minutes: String(Math.ceil((result.retryAfterSeconds ?? 60) / 60)) })
          : t('loginInvalid');
      if (result.reason === 'locked') reply.header('retry-after', String(result.retryAfterSeconds ?? 60));
      return showLogin(deps, request, reply, lang, {
        next,
        username,
        error,
        status: result.reason === 'locked' ? 429 : 401,
      });
    }
    await startSession(deps, request, reply, result.enrollee.id);
    if (next) return reply.redirect(next, 302);
    const html = renderPage('message', lang, { title: t('loginTitle'), message: t('loggedIn') });
    return reply.type('text/html; charset=utf-8').send(html);
  });
}
