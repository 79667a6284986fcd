import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageErrors } from '../errors.js';
import { randomToken } from '../../shared/crypto.js';
import { singleParams } from '../../shared/form.js';
import type { App } from '../../shared/http.js';
import { cancelledAuthorization } from '../federation/cancel.js';
import { failurePage, isFailureReason } from '../federation/failures.js';
import type { IdentityProvider } from '../federation/identity-provider.js';
import {
  IDP_CALLBACK_PATH,
  IDP_FAILED_PATH,
  IDP_RETURN_PATH,
  IDP_START_PATH,
} from '../federation/idp-settings.js';
import { finishSignIn } from '../federation/sign-in.js';
import { PENDING_SIGN_IN_SECONDS, startSignIn } from '../federation/start.js';
import type { AuthDeps } from '../deps.js';
import { pageError } from '../oauth/errors.js';
import type { Language } from '../oauth/language.js';
import { translator } from '../pages/i18n.js';
import { renderPage } from '../pages/render.js';
import { limitSource } from './source-limit.js';
import { cookieOptions, idpBindingCookie, pageLanguage, safeNext, startSession } from './browser-session.js';

function configuredIdp(deps: AuthDeps, lang: Language): IdentityProvider {
  if (!deps.identityProvider) throw pageError(404, 'invalid_request', 'signInNotConfigured', lang);
  return deps.identityProvider;
}

function messagePage(reply: FastifyReply, lang: Language, message: 'loggedIn' | 'idpCancelled') {
  const t = translator(lang);
  const html = renderPage('message', lang, { title: t('loginTitle'), message: t(message) });
  return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}

/**
 * GET /v2/accounts/idp/start?next=… — the login page's "Sign in with <plan>": a pending sign-in in the
 * database, this browser's binding cookie (kept if it has one, so two tabs can sign in at once), and the
 * redirect to the IdP.
 */
async function start(deps: AuthDeps, request: FastifyRequest, reply: FastifyReply) {
  const lang = pageLanguage(request);
  const idp = configuredIdp(deps, lang);
  const query = singleParams(request.query, (m) => pageError(400, 'invalid_request', m, lang));
  // Each start stores a pending sign-in for 10 minutes: a client address may start only so many.
  const limited = await limitSource(deps, request, 'idp-start', lang);
  if (limited) {
    throw pageError(429, 'too_many_requests', limited.message, lang, undefined, {
      headers: { 'retry-after': String(limited.retryAfterSeconds) },
    });
  }
  const binding = request.cookies[idpBindingCookie(deps)] ?? randomToken();
  const location = await startSignIn(deps, idp, {
    next: safeNext(query.next) ?? '',
    lang,
    browserBinding: binding,
  });
  reply.setCookie(idpBindingCookie(deps), binding, cookieOptions(deps, PENDING_SIGN_IN_SECONDS));
  return reply.header('cache-control', 'no-store').redirect(location, 302);
}

/**
 * GET /v2/accounts/idp/callback — the redirect URI registered at the IdP. Signed in: the session starts
 * exactly as after a password login, and the browser goes on to `next` (the authorize request, which
 * then shows the consent page). Cancelled: the app gets `access_denied`.
 */
async function callback(deps: AuthDeps, request: FastifyRequest, reply: FastifyReply) {
  const requestLang = pageLanguage(request);
  const idp = configuredIdp(deps, requestLang);
  const params = singleParams(request.query, (m) => pageError(400, 'invalid_request', m, requestLang));
  const outcome = await finishSignIn(deps, idp, {
    params,
    query: request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '',
    browserBinding: request.cookies[idpBindingCookie(deps)],
    lang: requestLang,
  });
  if (outcome.kind === 'cancelled') {
    if (outcome.location) return reply.header('cache-control', 'no-store').redirect(outcome.location, 302);
    return messagePage(reply, outcome.lang, 'idpCancelled');
  }
  await startSession(deps, request, reply, outcome.enrolleeId);
  if (outcome.next) return reply.header('cache-control', 'no-store').redirect(outcome.next, 302);
  return messagePage(reply, outcome.lang, 'loggedIn');
}

/**
 * GET /v2/accounts/idp/failed?reason=…&next=…&lang=… — a failure page of the callback shown again, its
 * language switch: the same message, status and links, without asking the spent callback again. `next`
 * passes the open-redirect rule as at the start; the page writes and audits nothing.
 */
function failed(deps: AuthDeps, request: FastifyRequest) {
  const lang = pageLanguage(request);
  configuredIdp(deps, lang);
  const query = singleParams(request.query, (m) => pageError(400, 'invalid_request', m, lang));
  if (!isFailureReason(query.reason)) throw pageError(404, 'invalid_request', 'notFound', lang);
  throw failurePage(query.reason, lang, safeNext(query.next) ?? '');
}

/**
 * GET /v2/accounts/idp/return?next=…&lang=… — the 403 page's "Return to the app": the authorize request of
 * `next` is validated again and its app gets `access_denied` with its `state` at its registered redirect
 * URI (RFC 6749 §4.1.2.1), as a cancel at the IdP does. It works after the callback is spent, and names
 * nothing but an authorize request an app could send itself, so it reveals and grants nothing.
 */
async function returnToApp(deps: AuthDeps, request: FastifyRequest, reply: FastifyReply) {
  const lang = pageLanguage(request);
  configuredIdp(deps, lang);
  const query = singleParams(request.query, (m) => pageError(400, 'invalid_request', m, lang));
  const location = await cancelledAuthorization(deps, safeNext(query.next) ?? '', 'return-link');
  if (location) return reply.header('cache-control', 'no-store').redirect(location, 302);
  return messagePage(reply, lang, 'idpCancelled');
}

/** Sign-in through the health plan's OpenID Connect identity provider (openenroll as relying party). */
export function registerFederationRoutes(app: App, deps: AuthDeps): void {
  const config = { errors: pageErrors };
  app.get(
    IDP_START_PATH,
    {
      config,
      schema: {
        tags: ['pages'],
        summary: "Sign in at the health plan's identity provider (redirects there; `next`, `lang`)",
      },
    },
    (request, reply) => start(deps, request, reply),
  );
  app.get(
    IDP_CALLBACK_PATH,
    {
      config,
      schema: {
        tags: ['pages'],
        summary: "The identity provider's answer (the redirect URI registered there)",
      },
    },
    (request, reply) => callback(deps, request, reply),
  );
  app.get(
    IDP_FAILED_PATH,
    {
      config,
      schema: {
        tags: ['pages'],
        summary: 'A sign-in failure page shown again, e.g. in the other language (`reason`, `next`, `lang`)',
      },
    },
    (request) => failed(deps, request),
  );
  app.get(
    IDP_RETURN_PATH,
    {
      config,
      schema: {
        tags: ['pages'],
        summary: 'Back to the app with `access_denied` after a sign-in that cannot go on (`next`, `lang`)',
      },
    },
    (request, reply) => returnToApp(deps, request, reply),
  );
}
