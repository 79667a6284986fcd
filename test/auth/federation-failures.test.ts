import assert from 'node:assert/strict';
import { after, before, describe, mock, test } from 'node:test';
import { PROBE_TTL_MS } from '../../src/auth/federation/identity-provider.js';
import {
  alertText,
  buttonLink,
  CALLBACK_PATH,
  returnFromIdp,
  signInLink,
  startAtLoginPage,
  switchLink,
  type IdpFlow,
} from '../helpers/federation-flow.js';
import { Browser } from '../helpers/flow.js';
import { authorizeRequest, type TestApp } from '../helpers/pages.js';
import { freePort } from '../helpers/processes.js';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';
import { startTestIdp, type TestIdp } from '../helpers/test-idp.js';

/**
 * The sign-in's failure pages after the callback that showed them is spent: their language link shows the
 * same failure in the other language; the 403 page (no claims data) takes the member back to the app with
 * `access_denied`; the 503 page's sentence says what its `Retry-After` says; and an IdP that went down
 * after start-up gets the 503 page at "Sign in with …" instead of a browser connection error.
 */

const MEMBERS = { jane: { patient_id: '-19990000000002' }, nobody: { patient_id: '-42' } };

const TEXT = {
  noClaimsData: {
    en: 'You signed in, but no health plan claims data is linked to your account, so no app can be given access to it. Please contact your health plan.',
    es: 'Inició sesión, pero no hay datos de reclamos del plan de salud vinculados a su cuenta, por lo que no se puede dar acceso a ninguna aplicación. Comuníquese con su plan de salud.',
  },
  signInFailed: {
    en: "Your health plan's sign-in service did not complete the sign-in. Please try again.",
    es: 'El servicio de inicio de sesión de su plan de salud no completó el inicio de sesión. Inténtelo de nuevo.',
  },
  unavailable: {
    en: "Your health plan's sign-in service cannot be reached right now. Please try again in about 30 seconds.",
    es: 'No es posible comunicarse en este momento con el servicio de inicio de sesión de su plan de salud. Inténtelo de nuevo en unos 30 segundos.',
  },
  tryAgain: { en: 'Try again', es: 'Intentar de nuevo' },
  returnToApp: { en: 'Return to the app', es: 'Regresar a la aplicación' },
  cancelled: { en: 'Sign-in was cancelled.', es: 'Se canceló el inicio de sesión.' },
};

let idp: TestIdp;
let running: RunningService;
let publicUrl: string;
let app: TestApp;

before(async () => {
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  idp = await startTestIdp({ redirectUris: [`${publicUrl}${CALLBACK_PATH}`], members: MEMBERS });
  running = await startService({ ...idp.env(), PUBLIC_URL: publicUrl }, port);
  app = await createTestApp(running);
});
after(async () => {
  await running?.close();
  await idp?.close();
});

/** A page as the member sees it: status, language, alert, button link, language link, Retry-After. */
async function pageOf(response: Response) {
  const html = await response.text();
  return {
    status: response.status,
    lang: /<html lang="(\w+)">/.exec(html)?.[1],
    alert: alertText(html),
    link: buttonLink(html),
    switchHref: switchLink(html),
    retryAfter: response.headers.get('retry-after'),
    location: response.headers.get('location'),
    html,
  };
}

/** The IdP's redirect to the callback with an error instead of a code (OIDC Core §3.1.2.6). */
function callbackWithError(flow: IdpFlow, error: string): Promise<Response> {
  const state = flow.idpUrl.searchParams.get('state')!;
  return flow.browser.get(`${CALLBACK_PATH}?error=${error}&state=${encodeURIComponent(state)}`);
}

async function pendingSignIns(service: RunningService): Promise<number> {
  const row = await service.service.storage.db
    .selectFrom('idp_requests')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The wall clock `ms` ahead until restored: the age of the IdP's last reachability probe is read from it. */
function clockAhead(ms: number) {
  const realNow = Date.now.bind(Date);
  return mock.method(Date, 'now', () => realNow() + ms);
}

describe('the language link of a failure page', () => {
  const cases = [
    {
      name: '403, no claims data',
      status: 403,
      fail: async (flow: IdpFlow) => (await returnFromIdp(flow, publicUrl, 'nobody')).response,
      alert: TEXT.noClaimsData,
      link: TEXT.returnToApp,
    },
    {
      name: '502, the IdP did not complete it',
      status: 502,
      fail: (flow: IdpFlow) => callbackWithError(flow, 'login_required'),
      alert: TEXT.signInFailed,
      link: TEXT.tryAgain,
    },
    {
      name: '502, neither a code nor an error',
      status: 502,
      fail: (flow: IdpFlow) =>
        flow.browser.get(
          `${CALLBACK_PATH}?state=${encodeURIComponent(flow.idpUrl.searchParams.get('state')!)}`,
        ),
      alert: TEXT.signInFailed,
      link: TEXT.tryAgain,
    },
    {
      name: '503, the IdP busy',
      status: 503,
      fail: (flow: IdpFlow) => callbackWithError(flow, 'temporarily_unavailable'),
      alert: TEXT.unavailable,
      link: TEXT.tryAgain,
    },
  ];
  for (const c of cases) {
    test(`${c.name}: the same failure in the other language, and back — not the spent callback's 400`, async () => {
      const flow = await startAtLoginPage(running.url, app, { lang: 'es' });
      const first = await pageOf(await c.fail(flow));
      assert.equal(first.status, c.status);
      assert.equal(first.lang, 'es');
      assert.equal(first.alert, c.alert.es);
      assert.equal(first.link?.text, c.link.es);
      assert.equal(new URL(first.switchHref!, running.url).pathname, '/v2/accounts/idp/failed');

      const english = await pageOf(await flow.browser.get(first.switchHref!));
      assert.equal(english.status, c.status, english.alert);
      assert.equal(english.lang, 'en');
      assert.equal(english.alert, c.alert.en);
      assert.equal(english.retryAfter, first.retryAfter);
      assert.equal(english.link?.text, c.link.en);
      const link = new URL(english.link!.href, running.url);
      assert.equal(new URL(first.link!.href, running.url).pathname, link.pathname);
      assert.equal(link.searchParams.get('next'), `/v2/o/authorize/?${flow.request.query}`);
      assert.equal(link.searchParams.get('lang'), 'en');

      const spanish = await pageOf(await flow.browser.get(english.switchHref!));
      assert.equal(spanish.status, c.status);
      assert.equal(spanish.alert, c.alert.es);
      assert.equal(spanish.link?.href, first.link?.href);
    });
  }

  test('the failure page at its own URL: a next outside our pages is dropped; an unknown reason is 404', async () => {
    const browser = new Browser(running.url);
    const page = await pageOf(
      await browser.get(
        `/v2/accounts/idp/failed?reason=refused&lang=en&next=${encodeURIComponent('https://evil.example/')}`,
      ),
    );
    assert.equal(page.status, 502);
    assert.equal(page.alert, TEXT.signInFailed.en);
    assert.equal(page.link?.href, '/v2/accounts/idp/start?lang=en');
    assert.doesNotMatch(page.html, /evil\.example/);
    const unknown = await browser.get('/v2/accounts/idp/failed?reason=state&lang=en');
    assert.equal(unknown.status, 404);
  });
});

describe('"Return to the app" on the 403 page (no claims data)', () => {
  test('the app gets access_denied with its own state, though the callback is spent; no session', async () => {
    const flow = await startAtLoginPage(running.url, app, { lang: 'es' });
    const { response, callbackUrl } = await returnFromIdp(flow, publicUrl, 'nobody');
    const page = await pageOf(response);
    assert.equal(page.status, 403);
    assert.equal(page.link?.text, TEXT.returnToApp.es);
    const replay = await flow.browser.get(`${CALLBACK_PATH}${callbackUrl.search}`);
    assert.equal(replay.status, 400, 'the callback is spent');

    const back = await flow.browser.get(page.link!.href);
    assert.equal(back.status, 302);
    const location = new URL(back.headers.get('location')!);
    assert.equal(`${location.origin}${location.pathname}`, app.redirectUri);
    assert.equal(location.searchParams.get('error'), 'access_denied');
    assert.equal(location.searchParams.get('state'), flow.request.state);
    assert.equal(location.searchParams.get('code'), null);
    assert.equal(flow.browser.cookies.get('oe_session'), undefined);
  });

  test('no redirect but to a URI the app registered (compared exactly), nor for a next outside authorize', async () => {
    const browser = new Browser(running.url);
    for (const redirectUri of ['https://evil.example/callback', `${app.redirectUri}/more`]) {
      const request = authorizeRequest(app, { redirect_uri: redirectUri });
      const next = `/v2/o/authorize/?${request.query}`;
      const page = await pageOf(
        await browser.get(`/v2/accounts/idp/return?lang=en&next=${encodeURIComponent(next)}`),
      );
      assert.equal(page.status, 400, redirectUri);
      assert.equal(page.location, null);
      assert.equal(page.alert, 'Mismatching redirect URI.');
    }
    for (const next of ['https://evil.example/', '/v2/accounts/connected-apps']) {
      const page = await pageOf(
        await browser.get(`/v2/accounts/idp/return?lang=es&next=${encodeURIComponent(next)}`),
      );
      assert.equal(page.status, 200, next);
      assert.equal(page.location, null);
      assert.match(page.html, new RegExp(TEXT.cancelled.es.replace('.', '\\.')));
    }
  });

  test('a sign-in that no app asked for (connected apps) gets no such link', async () => {
    const browser = new Browser(running.url);
    const start = await browser.get(
      `/v2/accounts/idp/start?lang=en&next=${encodeURIComponent('/v2/accounts/connected-apps')}`,
    );
    const flow: IdpFlow = {
      browser,
      request: { query: new URLSearchParams(), state: '', pkce: { verifier: '', challenge: '' } },
      loginHtml: '',
      idpUrl: new URL(start.headers.get('location')!),
    };
    const page = await pageOf((await returnFromIdp(flow, publicUrl, 'nobody')).response);
    assert.equal(page.status, 403);
    assert.equal(page.link, undefined);
  });
});

describe('the 503 page and its Retry-After', () => {
  test('say the same wait, in both languages, and outlast a reachability probe', async () => {
    for (const [lang, unit] of [
      ['en', 'seconds'],
      ['es', 'segundos'],
    ] as const) {
      const flow = await startAtLoginPage(running.url, app, { lang });
      const page = await pageOf(await callbackWithError(flow, 'temporarily_unavailable'));
      assert.equal(page.status, 503);
      const seconds = Number(page.retryAfter);
      assert.ok(Number.isInteger(seconds) && seconds > 0, `Retry-After: ${page.retryAfter}`);
      assert.ok(page.alert?.includes(` ${seconds} ${unit}.`), page.alert);
      assert.ok(seconds * 1000 > PROBE_TTL_MS, 'a retry after the wait probes the IdP afresh');
    }
  });
});

describe('the IdP goes down after start-up', () => {
  let downIdp: TestIdp;
  let service: RunningService;
  let downApp: TestApp;

  before(async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    downIdp = await startTestIdp({ redirectUris: [`${url}${CALLBACK_PATH}`], members: MEMBERS });
    service = await startService({ ...downIdp.env(), PUBLIC_URL: url }, port);
    // Start-up discovery succeeded: the configuration is cached for the day.
    await service.service.deps.identityProvider!.configuration();
    downApp = await createTestApp(service);
  });
  after(async () => {
    await service?.close();
    await downIdp?.close();
  });

  const DISCOVERY = '/.well-known/openid-configuration';

  test('a burst of sign-ins makes one reachability probe', async () => {
    const later = clockAhead(PROBE_TTL_MS + 1_000);
    try {
      const before = downIdp.hits(DISCOVERY);
      const starts = await Promise.all(
        Array.from({ length: 6 }, () =>
          fetch(`${service.url}/v2/accounts/idp/start`, { redirect: 'manual' }),
        ),
      );
      assert.deepEqual(
        starts.map((s) => s.status),
        Array<number>(6).fill(302),
      );
      assert.equal(downIdp.hits(DISCOVERY) - before, 1);
    } finally {
      later.mock.restore();
    }
  });

  test('"Sign in with …" answers the 503 page instead of sending the browser to it; nothing stored; back when it is', async () => {
    const pending = await pendingSignIns(service);
    await downIdp.stop();
    const later = clockAhead(2 * (PROBE_TTL_MS + 1_000));
    try {
      for (const lang of ['en', 'es'] as const) {
        const browser = new Browser(service.url);
        const request = authorizeRequest(downApp, { lang });
        const authorize = await browser.get(`/v2/o/authorize/?${request.query}`);
        const login = await (await browser.get(authorize.headers.get('location')!)).text();
        const page = await pageOf(await browser.get(signInLink(login)!.href));
        assert.equal(page.status, 503, page.location ?? '');
        assert.equal(page.lang, lang);
        assert.equal(page.alert, TEXT.unavailable[lang]);
        assert.equal(page.retryAfter, '30');
        assert.equal(page.link?.href, signInLink(login)!.href, 'the retry link starts the sign-in again');
      }
      assert.equal(await pendingSignIns(service), pending);
    } finally {
      later.mock.restore();
      await downIdp.resume();
    }
    const recovered = clockAhead(3 * (PROBE_TTL_MS + 1_000));
    try {
      const flow = await startAtLoginPage(service.url, downApp);
      assert.equal(flow.idpUrl.origin, downIdp.issuer);
    } finally {
      recovered.mock.restore();
    }
  });
});
