import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageErrors } from '../errors.js';
import { Type } from 'typebox';
import type { App } from '../../shared/http.js';
import { formBody } from '../../shared/form.js';
import type { ClientApp } from '../store/apps.js';
import type { Approval } from '../store/sessions.js';
import type { AuthDeps } from '../deps.js';
import { consentContents, decide, grantExpiry } from '../consent/consent.js';
import { pageError } from '../oauth/errors.js';
import { claimApproval, loadApproval } from '../consent/sessions.js';
import type { Language } from '../oauth/language.js';
import { formatDate, translator } from '../pages/i18n.js';
import { renderPage } from '../pages/render.js';
import {
  sessionCsrf,
  csrfMatches,
  currentEnrollee,
  pageLanguage,
  switchLanguageUrl,
} from './browser-session.js';

interface Pending {
  approval: Approval;
  app: ClientApp;
  sessionToken: string;
}

async function loadPending(deps: AuthDeps, request: FastifyRequest, id: string): Promise<Pending> {
  const session = await currentEnrollee(deps, request);
  const { approval, app } = await loadApproval(deps, id, session?.enrolleeId);
  return { approval, app, sessionToken: session!.sessionToken };
}

/**
 * The access-duration sentence of the consent page (docs/decisions.md#consent-page), in the page's language.
 */
function durationSentence(deps: AuthDeps, app: ClientApp, lang: Language): string | undefined {
  const t = translator(lang);
  const ttl = deps.settings.accessTokenTtlSeconds;
  if (app.dataAccessType === 'THIRTEEN_MONTH') {
    const until = grantExpiry(app, deps.now(), ttl)!;
    return t('accessThirteenMonths', { app: app.name, date: formatDate(lang, until) });
  }
  if (app.dataAccessType === 'ONE_TIME') {
    const hours = Math.round(ttl / 3600);
    return hours === 1
      ? t('accessHour', { app: app.name })
      : t('accessHours', { app: app.name, hours: String(hours) });
  }
  return undefined;
}

async function showConsent(deps: AuthDeps, request: FastifyRequest, reply: FastifyReply, id: string) {
  const { approval, app, sessionToken } = await loadPending(deps, request, id);
  const lang = pageLanguage(request, approval.request.lang);
  const t = translator(lang);
  const { items, askPersonal } = consentContents(app, approval.request.scopes);
  const html = renderPage('consent', lang, {
    title: t('consentTitle', { app: app.name }),
    switchUrl: switchLanguageUrl(request, lang),
    appName: app.name,
    action: `/v2/o/authorize/${approval.id}/?lang=${lang}`,
    csrf: sessionCsrf(sessionToken, `consent:${approval.id}`),
    items,
    askPersonal,
    duration: durationSentence(deps, app, lang),
    policyUri: app.policyUri,
    tosUri: app.tosUri,
  });
  return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}

async function submitConsent(deps: AuthDeps, request: FastifyRequest, reply: FastifyReply, id: string) {
  const { approval, app, sessionToken } = await loadPending(deps, request, id);
  const form = formBody(request, (status, m) => pageError(status, 'invalid_request', m), [
    'share_demographic_scopes',
  ]);
  if (!csrfMatches(sessionCsrf(sessionToken, `consent:${approval.id}`), form.csrf)) {
    throw pageError(403, 'invalid_request', 'formTampered', pageLanguage(request, approval.request.lang));
  }
  // One decision per approval, even when two instances receive a double-submitted form.
  await claimApproval(deps, approval);
  const location = await decide(deps, app, approval, {
    allow: form.allow !== undefined,
    shareDemographic: form.share_demographic_scopes === 'True',
  });
  return reply.redirect(location, 302);
}

export function registerConsentRoutes(app: App, deps: AuthDeps): void {
  const schema = {
    tags: ['pages'],
    summary: 'Consent page of a pending authorization (Connect / Cancel)',
    params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
  };
  const config = { errors: pageErrors };
  app.get('/v2/o/authorize/:id', { schema, config }, (request, reply) =>
    showConsent(deps, request, reply, request.params.id),
  );
  app.post('/v2/o/authorize/:id', { schema, config }, (request, reply) =>
    submitConsent(deps, request, reply, request.params.id),
  );
}
