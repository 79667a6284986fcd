import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../shared/http.js';
import type { Language } from '../../shared/language.js';
import {
  closeSession,
  openSession,
  requestReset,
  resetPassword,
  signIn,
  signUp,
  verifyEmail,
} from '../accounts/accounts.js';
import { passwordProblem } from '../accounts/passwords.js';
import type { PortalDeps } from '../deps.js';
import { portalErrors } from '../errors.js';
import { translator, type MessageKey } from '../pages/i18n.js';
import {
  anonymousCsrf,
  anonymousCsrfMatches,
  cookieOptions,
  formIsForged,
  pageLanguage,
  portalForm,
  sendMessage,
  sendPage,
  sessionCookie,
  signedIn,
  toSignIn,
} from './browser.js';

const config = { errors: portalErrors };
const schema = { tags: ['developer portal'], hide: true };

/** A plain address: one @, no spaces or angle brackets; RFC 5321 §4.5.3.1.3 caps a path at 254. */
const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

type Fields = Record<string, string | undefined>;

/** What is wrong with a sign-up form, as a catalogue key. */
function signUpProblem(form: Fields): MessageKey | undefined {
  const { name = '', email = '', organization = '', password = '' } = form;
  if (!name.trim() || !email.trim() || !organization.trim() || !password) return 'fieldRequired';
  if (name.trim().length > 100 || organization.trim().length > 100 || email.trim().length > 254)
    return 'fieldTooLong';
  if (/[\p{Cc}\p{Cf}<>]/u.test(name + organization)) return 'fieldRequired';
  if (!EMAIL.test(email.trim())) return 'emailInvalid';
  return passwordProblem(password);
}

/** Counts the request against its address's limit; the sentence of a 429 when over it. */
async function sourceLimited(
  deps: PortalDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  action: 'developer-sign-in' | 'developer-mail',
  lang: Language,
): Promise<string | undefined> {
  const retryAfter = await deps.limitSource(action, request.ip);
  if (retryAfter === undefined) return undefined;
  reply.header('retry-after', String(retryAfter));
  return translator(lang)('sourceLimited', { seconds: String(retryAfter) });
}

function checkMailPage(
  deps: PortalDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  lang: Language,
  email: string,
  link: string | undefined,
) {
  const hours = String(Math.round(deps.settings.linkTtlSeconds / 3600));
  return sendMessage(
    request,
    reply,
    200,
    lang,
    'checkMailTitle',
    translator(lang)('checkMail', { email, hours }),
    {
      link,
    },
  );
}

/** Sign-up, e-mail verification, sign-in and out, and password reset. */
export function registerAccountRoutes(app: App, deps: PortalDeps): void {
  const signUpPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    lang: Language,
    status: number,
    form: Fields,
    error?: string,
  ) =>
    sendPage(request, reply, status, 'sign-up', lang, {
      title: translator(lang)('signUpTitle'),
      csrf: anonymousCsrf(deps, request, reply),
      form: { name: form.name ?? '', email: form.email ?? '', organization: form.organization ?? '' },
      error,
    });
  const signInPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    lang: Language,
    status: number,
    email: string,
    error?: string,
  ) =>
    sendPage(request, reply, status, 'sign-in', lang, {
      title: translator(lang)('signInTitle'),
      csrf: anonymousCsrf(deps, request, reply),
      email,
      error,
    });
  // Production without a mail server cannot confirm anyone's address: sign-up and reset are closed.
  const mailClosed = !deps.settings.sandbox && deps.mailer.delivers === false;

  app.get('/developers/sign-up', { config, schema }, (request, reply) =>
    signUpPage(request, reply, pageLanguage(request), 200, {}),
  );
  app.post('/developers/sign-up', { config, schema }, async (request, reply) => {
    const lang = pageLanguage(request);
    const form = portalForm(request);
    const limited = await sourceLimited(deps, request, reply, 'developer-mail', lang);
    if (limited) return signUpPage(request, reply, lang, 429, form, limited);
    if (!anonymousCsrfMatches(deps, request, form.csrf)) {
      return sendMessage(request, reply, 403, lang, 'errorTitle', translator(lang)('formTampered'));
    }
    if (mailClosed)
      return sendMessage(request, reply, 503, lang, 'errorTitle', translator(lang)('mailUnavailable'));
    const problem = signUpProblem(form);
    if (problem) return signUpPage(request, reply, lang, 400, form, translator(lang)(problem));
    const link = await signUp(deps, {
      name: form.name!,
      email: form.email!,
      organization: form.organization!,
      password: form.password!,
    });
    return checkMailPage(deps, request, reply, lang, form.email!.trim(), link);
  });

  app.get('/developers/verify', { config, schema }, async (request, reply) => {
    const lang = pageLanguage(request);
    const token = (request.query as Fields).token;
    const t = translator(lang);
    if (!token || !(await verifyEmail(deps, token))) {
      return sendMessage(request, reply, 400, lang, 'errorTitle', t('linkInvalid'));
    }
    return sendMessage(request, reply, 200, lang, 'verifiedTitle', t('verified'), {
      next: { href: `/developers/sign-in?lang=${lang}`, text: t('signIn') },
    });
  });

  app.get('/developers/sign-in', { config, schema }, async (request, reply) => {
    const lang = pageLanguage(request);
    if (await signedIn(deps, request)) return reply.redirect(`/developers?lang=${lang}`, 303);
    return signInPage(request, reply, lang, 200, '');
  });
  app.post('/developers/sign-in', { config, schema }, async (request, reply) => {
    const lang = pageLanguage(request);
    const t = translator(lang);
    const form = portalForm(request);
    const email = (form.email ?? '').slice(0, 254);
    const limited = await sourceLimited(deps, request, reply, 'developer-sign-in', lang);
    if (limited) return signInPage(request, reply, lang, 429, email, limited);
    if (!anonymousCsrfMatches(deps, request, form.csrf)) {
      return sendMessage(request, reply, 403, lang, 'errorTitle', t('formTampered'));
    }
    const result = await signIn(deps, email, (form.password ?? '').slice(0, 200));
    if (!result.ok) {
      if (result.reason === 'locked') {
        reply.header('retry-after', String(result.retryAfterSeconds));
        const minutes = String(Math.ceil((result.retryAfterSeconds ?? 60) / 60));
        return signInPage(request, reply, lang, 429, email, t('locked', { minutes }));
      }
      const status = result.reason === 'unverified' ? 403 : 401;
      return signInPage(
        request,
        reply,
        lang,
        status,
        email,
        t(result.reason === 'unverified' ? 'unverified' : 'invalidLogin'),
      );
    }
    const secret = await openSession(deps, result.developer.id, request.cookies[sessionCookie(deps)]);
    reply.setCookie(sessionCookie(deps), secret, cookieOptions(deps, deps.settings.sessionTtlSeconds));
    return reply.redirect(`/developers?lang=${lang}`, 303);
  });

  app.post('/developers/sign-out', { config, schema }, async (request, reply) => {
    const lang = pageLanguage(request);
    const me = await signedIn(deps, request);
    if (me && !formIsForged(me, portalForm(request))) {
      await closeSession(deps, me.secret, me.developer.id);
      reply.clearCookie(sessionCookie(deps), { path: '/' });
    }
    return toSignIn(reply, lang);
  });

  app.get('/developers/forgot', { config, schema }, (request, reply) => {
    const lang = pageLanguage(request);
    return sendPage(request, reply, 200, 'forgot', lang, {
      title: translator(lang)('forgotTitle'),
      csrf: anonymousCsrf(deps, request, reply),
    });
  });
  app.post('/developers/forgot', { config, schema }, async (request, reply) => {
    const lang = pageLanguage(request);
    const t = translator(lang);
    const form = portalForm(request);
    const limited = await sourceLimited(deps, request, reply, 'developer-mail', lang);
    if (limited) return sendMessage(request, reply, 429, lang, 'errorTitle', limited);
    if (!anonymousCsrfMatches(deps, request, form.csrf)) {
      return sendMessage(request, reply, 403, lang, 'errorTitle', t('formTampered'));
    }
    if (mailClosed) return sendMessage(request, reply, 503, lang, 'errorTitle', t('mailUnavailable'));
    const email = (form.email ?? '').trim().slice(0, 254);
    if (!EMAIL.test(email)) return sendMessage(request, reply, 400, lang, 'errorTitle', t('emailInvalid'));
    const link = await requestReset(deps, email);
    return checkMailPage(deps, request, reply, lang, email, link);
  });

  const resetPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    lang: Language,
    status: number,
    token: string,
    error?: string,
  ) =>
    sendPage(request, reply, status, 'reset', lang, {
      title: translator(lang)('resetTitle'),
      csrf: anonymousCsrf(deps, request, reply),
      token,
      error,
    });
  app.get('/developers/reset', { config, schema }, async (request, reply) => {
    const lang = pageLanguage(request);
    const token = (request.query as Fields).token ?? '';
    return resetPage(request, reply, lang, 200, token.slice(0, 100));
  });
  app.post('/developers/reset', { config, schema }, async (request, reply) => {
    const lang = pageLanguage(request);
    const t = translator(lang);
    const form = portalForm(request);
    const token = (form.token ?? '').slice(0, 100);
    const limited = await sourceLimited(deps, request, reply, 'developer-sign-in', lang);
    if (limited) return resetPage(request, reply, lang, 429, token, limited);
    if (!anonymousCsrfMatches(deps, request, form.csrf)) {
      return sendMessage(request, reply, 403, lang, 'errorTitle', t('formTampered'));
    }
    const problem = passwordProblem(form.password ?? '');
    if (problem) return resetPage(request, reply, lang, 400, token, t(problem));
    if (!(await resetPassword(deps, token, form.password!))) {
      return sendMessage(request, reply, 400, lang, 'errorTitle', t('linkInvalid'));
    }
    return sendMessage(request, reply, 200, lang, 'resetTitle', t('passwordReset'), {
      next: { href: `/developers/sign-in?lang=${lang}`, text: t('signIn') },
    });
  });
}
