import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../shared/http.js';
import type { Language } from '../../shared/language.js';
import { AppRuleError, type AccessCategory, type AppForm, type PortalApp, type PortalDeps } from '../deps.js';
import { createApp, deleteApp, editApp, ownApp, rotateSecret } from '../developer/apps.js';
import { createKey, listKeys, revokeKey } from '../developer/keys.js';
import { portalErrors } from '../errors.js';
import { translator, type MessageKey } from '../pages/i18n.js';
import {
  formIsForged,
  pageLanguage,
  portalForm,
  sendMessage,
  sendPage,
  signedIn,
  toSignIn,
  type SignedIn,
} from './browser.js';

const config = { errors: portalErrors };
const schema = { tags: ['developer portal'], hide: true };
const ACCESS: readonly AccessCategory[] = ['THIRTEEN_MONTH', 'ONE_TIME', 'RESEARCH_STUDY'];

type Fields = Record<string, string | undefined>;

/** The state an app is in, as its developer reads it, and what it means. */
function appState(app: PortalApp): { state: MessageKey; help?: MessageKey } {
  if (app.review === 'pending') return { state: 'statePending', help: 'pendingHelp' };
  if (app.review === 'rejected') return { state: 'stateRejected', help: 'rejectedHelp' };
  if (!app.active) return { state: 'stateDisabled', help: 'disabledHelp' };
  return { state: 'stateActive' };
}

const optional = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

/** The form's fields as a registration (the rules themselves are the registration's, run by the port). */
function appForm(fields: Fields): AppForm | MessageKey {
  const access = fields.access as AccessCategory;
  if (!ACCESS.includes(access) || !['yes', 'no'].includes(fields.demographic ?? '')) return 'fieldRequired';
  return {
    name: fields.name ?? '',
    redirectUris: (fields.redirect_uris ?? '').split(/\s+/).filter(Boolean),
    dataAccessType: access,
    requireDemographicScopes: fields.demographic === 'yes',
    logoUri: optional(fields.logoUri),
    websiteUri: optional(fields.websiteUri),
    policyUri: optional(fields.policyUri),
    tosUri: optional(fields.tosUri),
  };
}

/** An app's fields as the form shows them. */
function formValues(app: PortalApp | undefined, fields?: Fields) {
  if (fields) {
    return { ...fields, redirectUris: fields.redirect_uris ?? '' } as Record<string, string | undefined>;
  }
  return {
    name: app?.name ?? '',
    redirectUris: app?.redirectUris.join('\n') ?? '',
    access: app?.dataAccessType ?? 'THIRTEEN_MONTH',
    demographic: app ? (app.requireDemographicScopes ? 'yes' : 'no') : '',
    logoUri: app?.logoUri ?? '',
    websiteUri: app?.websiteUri ?? '',
    tosUri: app?.tosUri ?? '',
    policyUri: app?.policyUri ?? '',
  };
}

/** The developer's apps and keys, and the forms to add and manage them. */
export function registerWorkspaceRoutes(app: App, deps: PortalDeps): void {
  /** Runs `work` for the signed-in developer (a POST's CSRF token checked first); else to sign-in. */
  function forDeveloper(
    post: boolean,
    work: (
      me: SignedIn,
      request: FastifyRequest,
      reply: FastifyReply,
      lang: Language,
      form: Fields,
    ) => unknown,
  ) {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const lang = pageLanguage(request);
      const me = await signedIn(deps, request);
      if (!me) return toSignIn(reply, lang);
      const form = post ? portalForm(request) : {};
      if (post && formIsForged(me, form)) {
        return sendMessage(request, reply, 403, lang, 'errorTitle', translator(lang)('formTampered'));
      }
      return work(me, request, reply, lang, form);
    };
  }

  const dashboard = async (
    me: SignedIn,
    request: FastifyRequest,
    reply: FastifyReply,
    lang: Language,
    notice?: string,
  ) => {
    const t = translator(lang);
    const apps = await deps.apps.listOf(me.developer.id);
    return sendPage(request, reply, 200, 'dashboard', lang, {
      title: t('dashboardTitle'),
      developer: me.developer,
      notice,
      apps: apps.map((a) => ({ name: a.name, clientId: a.clientId, state: t(appState(a).state) })),
      keys: await listKeys(deps, me.developer.id),
      csrf: me.csrf,
      signOutCsrf: me.csrf,
    });
  };

  const formPage = (
    me: SignedIn,
    request: FastifyRequest,
    reply: FastifyReply,
    lang: Language,
    status: number,
    existing: PortalApp | undefined,
    extra: { fields?: Fields; error?: string; notice?: string } = {},
  ) => {
    const t = translator(lang);
    const state = existing && appState(existing);
    return sendPage(request, reply, status, 'app-form', lang, {
      title: existing ? existing.name : t('newApp'),
      app: existing,
      state: state && t(state.state),
      stateHelp: state?.help && t(state.help),
      action: existing
        ? `/developers/apps/${existing.clientId}?lang=${lang}`
        : `/developers/apps?lang=${lang}`,
      form: formValues(existing, extra.fields),
      error: extra.error,
      notice: extra.notice,
      csrf: me.csrf,
      signOutCsrf: me.csrf,
    });
  };

  const notFound = (request: FastifyRequest, reply: FastifyReply, lang: Language) =>
    sendMessage(request, reply, 404, lang, 'errorTitle', translator(lang)('notFound'));

  /** Runs a registration-shaped write; a rule it breaks is shown on the form (400). */
  async function withRules(
    write: () => Promise<unknown>,
    refused: (message: string) => unknown,
  ): Promise<{ refused: unknown } | undefined> {
    try {
      await write();
      return undefined;
    } catch (error) {
      if (error instanceof AppRuleError) return { refused: refused(error.message) };
      throw error;
    }
  }

  app.get(
    '/developers',
    { config, schema },
    forDeveloper(false, (me, request, reply, lang) => dashboard(me, request, reply, lang)),
  );

  app.get(
    '/developers/apps/new',
    { config, schema },
    forDeveloper(false, (me, request, reply, lang) => formPage(me, request, reply, lang, 200, undefined)),
  );

  app.post(
    '/developers/apps',
    { config, schema },
    forDeveloper(true, async (me, request, reply, lang, fields) => {
      const t = translator(lang);
      const form = appForm(fields);
      if (typeof form === 'string')
        return formPage(me, request, reply, lang, 400, undefined, { fields, error: t(form) });
      let created: Awaited<ReturnType<typeof createApp>> | undefined;
      const outcome = await withRules(
        async () => (created = await createApp(deps, me.developer.id, form)),
        (error) => formPage(me, request, reply, lang, 400, undefined, { fields, error }),
      );
      if (outcome) return outcome.refused;
      const help = appState(created!.app).help;
      return sendPage(request, reply, 201, 'secret', lang, {
        title: t('appCreatedTitle'),
        once: t('secretOnce'),
        rows: [
          { id: 'client-id', label: t('clientId'), value: created!.app.clientId },
          { id: 'client-secret', label: t('clientSecret'), value: created!.clientSecret },
        ],
        stateHelp: help && t(help),
        signOutCsrf: me.csrf,
      });
    }),
  );

  app.get(
    '/developers/apps/:clientId',
    { config, schema },
    forDeveloper(false, async (me, request, reply, lang) => {
      const own = await ownApp(deps, me.developer.id, (request.params as { clientId: string }).clientId);
      return own ? formPage(me, request, reply, lang, 200, own) : notFound(request, reply, lang);
    }),
  );

  app.post(
    '/developers/apps/:clientId',
    { config, schema },
    forDeveloper(true, async (me, request, reply, lang, fields) => {
      const t = translator(lang);
      const own = await ownApp(deps, me.developer.id, (request.params as { clientId: string }).clientId);
      if (!own) return notFound(request, reply, lang);
      const form = appForm(fields);
      if (typeof form === 'string')
        return formPage(me, request, reply, lang, 400, own, { fields, error: t(form) });
      const outcome = await withRules(
        () => editApp(deps, me.developer.id, own, form),
        (error) => formPage(me, request, reply, lang, 400, own, { fields, error }),
      );
      if (outcome) return outcome.refused;
      const saved = (await ownApp(deps, me.developer.id, own.clientId))!;
      return formPage(me, request, reply, lang, 200, saved, { notice: t('appSaved') });
    }),
  );

  app.post(
    '/developers/apps/:clientId/rotate',
    { config, schema },
    forDeveloper(true, async (me, request, reply, lang) => {
      const t = translator(lang);
      const own = await ownApp(deps, me.developer.id, (request.params as { clientId: string }).clientId);
      const secret = own && (await rotateSecret(deps, me.developer.id, own));
      if (!own || !secret) return notFound(request, reply, lang);
      return sendPage(request, reply, 200, 'secret', lang, {
        title: t('secretRotatedTitle'),
        once: t('secretOnce'),
        rows: [
          { id: 'client-id', label: t('clientId'), value: own.clientId },
          { id: 'client-secret', label: t('clientSecret'), value: secret },
        ],
        signOutCsrf: me.csrf,
      });
    }),
  );

  app.post(
    '/developers/apps/:clientId/delete',
    { config, schema },
    forDeveloper(true, async (me, request, reply, lang) => {
      const own = await ownApp(deps, me.developer.id, (request.params as { clientId: string }).clientId);
      if (!own) return notFound(request, reply, lang);
      await deleteApp(deps, me.developer.id, own);
      return dashboard(me, request, reply, lang, translator(lang)('appDeleted'));
    }),
  );

  app.post(
    '/developers/keys',
    { config, schema },
    forDeveloper(true, async (me, request, reply, lang, fields) => {
      const t = translator(lang);
      const name = (fields.name ?? '').trim();
      if (name === '' || name.length > 100 || /[\p{Cc}\p{Cf}]/u.test(name)) {
        return sendMessage(request, reply, 400, lang, 'errorTitle', t('fieldRequired'));
      }
      const { key } = await createKey(deps, me.developer.id, name);
      return sendPage(request, reply, 201, 'secret', lang, {
        title: t('keyCreatedTitle'),
        once: t('keyOnce'),
        rows: [{ id: 'api-key', label: t('apiKey'), value: key }],
        signOutCsrf: me.csrf,
      });
    }),
  );

  app.post(
    '/developers/keys/:id/revoke',
    { config, schema },
    forDeveloper(true, async (me, request, reply, lang) => {
      const id = (request.params as { id: string }).id;
      if (!(await revokeKey(deps, me.developer.id, id))) return notFound(request, reply, lang);
      return dashboard(me, request, reply, lang, translator(lang)('keyRevokedNotice'));
    }),
  );
}
