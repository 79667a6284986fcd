import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, BrowserContextOptions, Page, Response } from 'playwright-core';
import { CHROMIUM_MISSING, CHROMIUM_PATH, chromiumStatus, launchChromium } from '../helpers/browser.js';
import { authorizeQuery, pkce, postForm, type Pkce } from '../helpers/flow.js';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';

/**
 * The enrollee's side of the authorization flow in a real headless Chromium: authorize URL → login page →
 * consent page → back to the app, in English and Spanish, through what a person sees and clicks.
 */

type Lang = 'en' | 'es';
type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** What each page must show, as a person reads it (docs/decisions.md#consent-page). */
const SHOWN = {
  en: {
    htmlLang: 'en',
    dateLocale: 'en-US',
    username: 'Username',
    password: 'Password',
    logIn: 'Log in',
    consentHeading: (app: string) => `Connect your health plan claims data to ${app}?`,
    duration: (app: string, date: string) =>
      `${app} will have access to your data for 13 months, until ${date}.`,
    personalInfo: 'Personal Information',
    connect: 'Connect',
    cancel: 'Cancel',
  },
  es: {
    htmlLang: 'es',
    dateLocale: 'es-US',
    username: 'Nombre de usuario',
    password: 'Contraseña',
    logIn: 'Iniciar sesión',
    consentHeading: (app: string) => `¿Desea compartir los datos de reclamos de su plan de salud con ${app}?`,
    duration: (app: string, date: string) =>
      `${app} tendrá acceso a sus datos durante 13 meses, hasta el ${date}.`,
    personalInfo: 'Información personal',
    connect: 'Conectar',
    cancel: 'Cancelar',
  },
} as const;

const CALLBACK_ORIGIN = 'http://127.0.0.1:3001';
const CONSENT_PATH = /^\/v2\/o\/authorize\/[0-9a-f-]{36}\/?$/;
const SPANISH_FIRST = 'es-MX,es;q=0.9,en;q=0.5';

/** 13 calendar months after `instant` in UTC, the last day of the month when the day does not exist. */
function thirteenMonthsAfter(instant: number): Date {
  const start = new Date(instant);
  const monthIndex = start.getUTCMonth() + 13;
  const year = start.getUTCFullYear() + Math.floor(monthIndex / 12);
  const month = monthIndex % 12;
  const daysInMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(start.getUTCDate(), daysInMonth)));
}

function longDate(lang: Lang, date: Date): string {
  return new Intl.DateTimeFormat(SHOWN[lang].dateLocale, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

function assertNoFraming(response: Response, page: string) {
  const headers = response.headers();
  assert.equal(headers['x-frame-options'], 'DENY', `${page}: x-frame-options`);
  assert.match(
    headers['content-security-policy'] ?? '',
    /(^|;)\s*frame-ancestors 'none'\s*(;|$)/,
    `${page}: content-security-policy`,
  );
}

interface Flow {
  page: Page;
  state: string;
  pkce: Pkce;
  loginResponse: Response;
  consentResponse: Response;
  /** Service clock readings around the consent page load, to compute the 13-month date from. */
  consentShownBetween: [number, number];
}

const chromium = chromiumStatus();

if (chromium === 'fail') {
  test('browser tests need Debian chromium on CI', () => {
    assert.fail(`${CHROMIUM_PATH} does not exist: ${CHROMIUM_MISSING}`);
  });
}

describe(
  'authorization pages in a real browser',
  { skip: chromium === 'run' ? false : CHROMIUM_MISSING },
  () => {
    let running: RunningService;
    let browser: Browser;

    before(async () => {
      running = await startService();
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await running?.close();
    });

    /** A fresh browser (no cookies) per scenario; the app's redirect URI answers with a tiny page. */
    async function newContext(options: BrowserContextOptions): Promise<BrowserContext> {
      const context = await browser.newContext(options);
      context.setDefaultTimeout(15_000);
      return context;
    }

    async function catchCallback(page: Page) {
      await page.route(`${CALLBACK_ORIGIN}/**`, (route) =>
        route.fulfill({
          status: 200,
          contentType: 'text/html; charset=utf-8',
          body: '<!doctype html><title>app</title><p>back in the app</p>',
        }),
      );
    }

    /** Opens the authorize URL, checks the login page in `lang`, logs in, and waits for the consent page. */
    async function throughLogin(
      context: BrowserContext,
      app: TestApp,
      lang: Lang,
      query: { lang?: Lang } = {},
    ): Promise<Flow> {
      const shown = SHOWN[lang];
      const page = await context.newPage();
      await catchCallback(page);
      const challenge = pkce();
      const state = randomBytes(16).toString('hex');
      const search = authorizeQuery(
        { clientId: app.clientId, redirectUri: app.redirectUri, ...query },
        challenge,
        state,
      );

      const loginResponse = await page.goto(`${running.url}/v2/o/authorize/?${search}`);
      assert.ok(loginResponse, 'the authorize URL loads a page');
      assert.equal(loginResponse.status(), 200);
      assert.equal(
        new URL(loginResponse.url()).pathname,
        '/v2/accounts/login',
        'the browser lands on the login page',
      );
      assert.equal(await page.locator('html').getAttribute('lang'), shown.htmlLang);

      const username = page.getByLabel(shown.username, { exact: true });
      const password = page.getByLabel(shown.password, { exact: true });
      const logIn = page.getByRole('button', { name: shown.logIn, exact: true });
      assert.ok(await username.isVisible(), `login page shows a field labelled "${shown.username}"`);
      assert.ok(await password.isVisible(), `login page shows a field labelled "${shown.password}"`);
      assert.equal(await password.getAttribute('type'), 'password');
      assert.ok(await logIn.isVisible(), `login page shows a "${shown.logIn}" button`);

      await username.fill('BBUser00000');
      await password.fill('PW00000!');
      const before = running.clock.now();
      const consentLoaded = page.waitForResponse(
        (r) => CONSENT_PATH.test(new URL(r.url()).pathname) && r.request().method() === 'GET',
      );
      await logIn.click();
      const consentResponse = await consentLoaded;
      await page.waitForLoadState('load');
      const shownAt = running.clock.now();
      assert.equal(consentResponse.status(), 200, 'the consent page loads');
      assert.equal(page.url(), consentResponse.url(), 'the browser shows the consent page');
      return {
        page,
        state,
        pkce: challenge,
        loginResponse,
        consentResponse,
        consentShownBetween: [before, shownAt],
      };
    }

    /** Everything the consent page must show in `lang`. */
    async function assertConsentPage(flow: Flow, app: TestApp, lang: Lang) {
      const shown = SHOWN[lang];
      const { page } = flow;
      assert.equal(await page.locator('html').getAttribute('lang'), shown.htmlLang);
      const heading = page.getByRole('heading', { level: 1 });
      assert.equal((await heading.textContent())?.trim(), shown.consentHeading(app.app.name));

      // The date is read from the service clock around the page load (two readings in case midnight UTC passed).
      const sentences = flow.consentShownBetween.map((t) =>
        shown.duration(app.app.name, longDate(lang, thirteenMonthsAfter(t))),
      );
      const duration = page.locator('p', { hasText: lang === 'en' ? 'for 13 months' : 'durante 13 meses' });
      assert.equal(await duration.count(), 1, 'one 13-month sentence');
      const text = (await duration.innerText()).trim();
      assert.ok(
        sentences.includes(text),
        `13-month sentence: got ${JSON.stringify(text)}, want ${JSON.stringify(sentences[0])}`,
      );
      assert.ok(await duration.isVisible());

      const personal = page.getByRole('checkbox', { name: shown.personalInfo });
      assert.ok(await personal.isVisible(), `a "${shown.personalInfo}" checkbox`);
      assert.equal(await personal.isChecked(), true, 'the personal-information checkbox starts checked');
      assert.ok(await page.getByRole('button', { name: shown.connect, exact: true }).isVisible());
      assert.ok(await page.getByRole('button', { name: shown.cancel, exact: true }).isVisible());
    }

    /** Clicks a consent button and returns the URL the browser was sent to. */
    async function decide(flow: Flow, button: string): Promise<URL> {
      const { page } = flow;
      await page.getByRole('button', { name: button, exact: true }).click();
      await page.waitForURL((url) => url.origin === CALLBACK_ORIGIN);
      await page.getByText('back in the app').waitFor();
      const url = new URL(page.url());
      assert.equal(`${url.origin}${url.pathname}`, 'http://127.0.0.1:3001/callback');
      return url;
    }

    async function exchange(app: TestApp, code: string, verifier: string) {
      const token = await postForm(`${running.url}/v2/o/token/`, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: app.redirectUri,
        code_verifier: verifier,
        client_id: app.clientId,
        client_secret: app.clientSecret,
      });
      assert.equal(token.status, 200, token.text);
      const body = token.body as Record<string, unknown>;
      assert.equal(body.token_type, 'Bearer');
      assert.equal(typeof body.access_token, 'string');
      return body;
    }

    async function connectsInto(flow: Flow, app: TestApp, lang: Lang) {
      const back = await decide(flow, SHOWN[lang].connect);
      assert.equal(back.searchParams.get('state'), flow.state, 'the state comes back unchanged');
      assert.equal(back.searchParams.get('error'), null);
      const code = back.searchParams.get('code');
      assert.ok(code, 'the redirect carries a code');
      const token = await exchange(app, code, flow.pkce.verifier);
      // The checkbox was left checked, so the personal-information scopes are granted.
      assert.match(String(token.scope), /patient\/Patient\./);
    }

    test(
      'English: login, consent with the 13-month date, Connect, code exchange',
      { timeout: 60_000 },
      async () => {
        const app = await createTestApp(running);
        const context = await newContext({ locale: 'en-US' });
        try {
          const flow = await throughLogin(context, app, 'en');
          assertNoFraming(flow.loginResponse, 'login page');
          assertNoFraming(flow.consentResponse, 'consent page');
          await assertConsentPage(flow, app, 'en');
          await connectsInto(flow, app, 'en');
        } finally {
          await context.close();
        }
      },
    );

    test('Spanish by lang=es, over an English browser', { timeout: 60_000 }, async () => {
      const app = await createTestApp(running);
      const context = await newContext({ locale: 'en-US' });
      try {
        const flow = await throughLogin(context, app, 'es', { lang: 'es' });
        assertNoFraming(flow.loginResponse, 'login page (es)');
        assertNoFraming(flow.consentResponse, 'consent page (es)');
        await assertConsentPage(flow, app, 'es');
        await connectsInto(flow, app, 'es');
      } finally {
        await context.close();
      }
    });

    test('Spanish by Accept-Language when there is no lang', { timeout: 60_000 }, async () => {
      const app = await createTestApp(running);
      // Only the header: a context `locale` would make Chromium send just "es-MX" on navigations.
      const context = await newContext({ extraHTTPHeaders: { 'accept-language': SPANISH_FIRST } });
      const sent: Promise<Record<string, string>>[] = [];
      context.on('request', (request) => {
        if (request.isNavigationRequest() && request.url().startsWith(running.url))
          sent.push(request.allHeaders());
      });
      try {
        const flow = await throughLogin(context, app, 'es');
        const languages = (await Promise.all(sent)).map((headers) => headers['accept-language']);
        assert.ok(languages.length >= 3, `page loads seen: ${languages.length}`);
        assert.deepEqual(
          new Set(languages),
          new Set([SPANISH_FIRST]),
          'every page load sent the Accept-Language header',
        );
        await assertConsentPage(flow, app, 'es');
        await connectsInto(flow, app, 'es');
      } finally {
        await context.close();
      }
    });

    test('Cancel sends access_denied and the state back to the app', { timeout: 60_000 }, async () => {
      const app = await createTestApp(running);
      const context = await newContext({ locale: 'en-US' });
      try {
        const flow = await throughLogin(context, app, 'en');
        await assertConsentPage(flow, app, 'en');
        const back = await decide(flow, SHOWN.en.cancel);
        assert.equal(back.searchParams.get('error'), 'access_denied');
        assert.equal(back.searchParams.get('state'), flow.state);
        assert.equal(back.searchParams.get('code'), null);
      } finally {
        await context.close();
      }
    });

    test('another site cannot show the login or consent page in a frame', { timeout: 60_000 }, async () => {
      const app = await createTestApp(running);
      const context = await newContext({ locale: 'en-US' });
      // The other site is a real loopback server: Chromium refuses to let a page Playwright fulfils frame a
      // loopback address (local network access), which would block the frames whatever the service sends.
      let frameSources: string[] = [];
      const otherSite = createServer((request, response) => {
        response.setHeader('content-type', 'text/html; charset=utf-8');
        if (request.url === '/plain') return response.end('<!doctype html><p>a frame that may be shown</p>');
        const frames = frameSources.map((src) => `<iframe src="${src.replace(/&/g, '&amp;')}"></iframe>`);
        response.end(`<!doctype html><title>other site</title>${frames.join('')}`);
      });
      await new Promise<void>((resolve) => otherSite.listen(0, '127.0.0.1', resolve));
      const otherOrigin = `http://127.0.0.1:${(otherSite.address() as AddressInfo).port}`;
      try {
        // Log in first, so the consent page of a live approval can be framed too.
        const flow = await throughLogin(context, app, 'en');
        frameSources = [`${otherOrigin}/plain`, `${running.url}/v2/accounts/login?lang=en`, flow.page.url()];
        const page = await context.newPage();
        await page.goto(`${otherOrigin}/framing`, { waitUntil: 'load' });
        const frames = page.mainFrame().childFrames();
        assert.equal(frames.length, 3);
        // Control: a frame without the headers is shown, so a missing form below means the browser refused it.
        await frames[0]!.getByText('a frame that may be shown').waitFor();
        assert.equal(
          await frames[1]!.getByLabel('Username').count(),
          0,
          'the login form is not shown in a frame',
        );
        assert.equal(
          await frames[2]!.getByRole('button', { name: 'Connect' }).count(),
          0,
          'consent is not shown in a frame',
        );
        for (const frame of frames.slice(1))
          assert.ok(frame.url().startsWith('chrome-error:'), `blocked: ${frame.url()}`);
        // The consent page itself is still shown when opened directly.
        assert.ok(await flow.page.getByRole('button', { name: 'Connect' }).isVisible());
      } finally {
        await context.close();
        otherSite.closeAllConnections();
        await new Promise((resolve) => otherSite.close(resolve));
      }
    });
  },
);
