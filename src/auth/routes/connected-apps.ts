import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageErrors } from '../errors.js';
import { Type } from 'typebox';
import { formBody } from '../../shared/form.js';
import type { App } from '../../shared/http.js';
import { connectedApps, revokeConnectedApp } from '../consent/connected-apps.js';
import { closeSession } from '../consent/sessions.js';
import type { AuthDeps } from '../deps.js';
import { pageError } from '../oauth/errors.js';
import type { Language } from '../oauth/language.js';
import { formatDate, translator } from '../pages/i18n.js';
import { renderPage } from '../pages/render.js';
import type { ConnectedApp } from '../store/connected-apps.js';
import {
  cookieOptions,
  csrfMatches,
  currentEnrollee,
  pageLanguage,
  sessionCookie,
  sessionCsrf,
  switchLanguageUrl,
} from './browser-session.js';

const PATH = '/v2/accounts/connected-apps';
const SIGN_OUT_PATH = '/v2/accounts/sign-out';
const CSRF_PURPOSE = 'connected-apps';
const SIGN_OUT_PURPOSE = 'sign-out';

function duration(lang: Language, app: ConnectedApp, ttlSeconds: number): string {
  const t = translator(lang);
  if (app.dataAccessType === 'THIRTEEN_MONTH') return t('durationThirteenMonths');
  if (app.dataAccessType === 'ONE_TIME')
    return t('durationHours', { hours: String(Math.round(ttlSeconds / 3600)) });
  return t('durationResearch');
}

async function showPage(deps: AuthDeps, request: FastifyRequest, reply: FastifyReply, notice?: string) {
  const lang = pageLanguage(request);
  const session = await currentEnrollee(deps, request);
  if (!session) {
    return reply.redirect(
      `/v2/accounts/login?next=${encodeURIComponent(`${PATH}?lang=${lang}`)}&lang=${lang}`,
      302,
    );
  }
  const t = translator(lang);
  const apps = (await connectedApps(deps, session.enrolleeId)).map((app) => ({
    grantId: app.grantId,
    name: app.appName,
    duration: duration(lang, app, deps.settings.accessTokenTtlSeconds),
    expires: app.expiresAt === null ? t('never') : formatDate(lang, app.expiresAt),
  }));
  const html = renderPage('connected-apps', lang, {
    title: t('connectedAppsTitle'),
    switchUrl: switchLanguageUrl(request, lang),
    apps,
    notice,
    csrf: sessionCsrf(session.sessionToken, CSRF_PURPOSE),
    signOutCsrf: sessionCsrf(session.sessionToken, SIGN_OUT_PURPOSE),
  });
  return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}

/**
 * Sign-out from the connected-apps page: the session row is deleted (the cookie alone would leave a copied
 * secret working) and its cookie cleared. Without a session there is nothing to end, so the answer is the
 * same page; with one, the form's CSRF token must match, as for every form of a logged-in enrollee.
 */
async function signOut(deps: AuthDeps, request: FastifyRequest, reply: FastifyReply) {
  const lang = pageLanguage(request);
  const form = formBody(request, (status, m) => pageError(status, 'invalid_request', m, lang));
  const session = await currentEnrollee(deps, request);
  if (session) {
    if (!csrfMatches(sessionCsrf(session.sessionToken, SIGN_OUT_PURPOSE), form.csrf)) {
      throw pageError(403, 'invalid_request', 'formTampered', lang);
    }
    await closeSession(deps, session.sessionToken);
  }
  reply.clearCookie(sessionCookie(deps), { ...cookieOptions(deps, 0), maxAge: undefined });
  const html = renderPage('signed-out', lang, { title: translator(lang)('signedOutTitle') });
  return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}

/**
 * The enrollee's connected apps (docs/decisions.md#connected-apps: revocable in the enrollee's own account).
 */
export function registerConnectedAppsRoutes(app: App, deps: AuthDeps): void {
  const config = { errors: pageErrors };
  app.get(
    PATH,
    { config, schema: { tags: ['pages'], summary: 'The enrollee’s connected apps' } },
    (request, reply) => showPage(deps, request, reply),
  );
  app.post(
    `${PATH}/:grantId/revoke`,
    {
      config,
      schema: {
        tags: ['pages'],
        summary: 'Revoke one connected app',
        params: Type.Object({ grantId: Type.String({ maxLength: 64 }) }),
      },
    },
    async (request, reply) => {
      const lang = pageLanguage(request);
      const session = await currentEnrollee(deps, request);
      const form = formBody(request, (status, m) => pageError(status, 'invalid_request', m, lang));
      if (!session || !csrfMatches(sessionCsrf(session.sessionToken, CSRF_PURPOSE), form.csrf)) {
        throw pageError(403, 'invalid_request', 'formTampered', lang);
      }
      const revoked = await revokeConnectedApp(deps, session.enrolleeId, request.params.grantId);
      const notice = revoked ? translator(lang)('revoked', { app: revoked.appName }) : undefined;
      return showPage(deps, request, reply, notice);
    },
  );
  app.post(
    SIGN_OUT_PATH,
    { config, schema: { tags: ['pages'], summary: 'Sign the enrollee out (ends the session)' } },
    (request, reply) => signOut(deps, request, reply),
  );
}
