import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CHROMIUM_MISSING, CHROMIUM_PATH, chromiumStatus, launchChromium } from '../helpers/browser.js';
import { CALLBACK_PATH } from '../helpers/federation-flow.js';
import { authorizeQuery, pkce, postForm } from '../helpers/flow.js';
import type { TestApp } from '../helpers/pages.js';
import { freePort } from '../helpers/processes.js';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';
import { startTestIdp, type TestIdp } from '../helpers/test-idp.js';

/**
 * The whole chain in a real headless Chromium, as a member clicks through it: the app's authorize URL →
 * openenroll's login page → "Sign in with Acme Health" → the plan's IdP (node-oidc-provider in this
 * process, its login page) → openenroll's consent page → Connect → the app's redirect; then the app's token
 * exchange and that member's Patient and ExplanationOfBenefit bundle from /v2/fhir. This IdP puts the
 * linking claim in the ID token itself (the HTTP suites read it from userinfo).
 */

const CALLBACK_ORIGIN = 'http://127.0.0.1:3001';
const PATIENT = '-19990000000002'; // sandbox enrollee BBUser00001

const chromium = chromiumStatus();

if (chromium === 'fail') {
  test('browser tests need Debian chromium on CI', () => {
    assert.fail(`${CHROMIUM_PATH} does not exist: ${CHROMIUM_MISSING}`);
  });
}

describe(
  'sign-in through the plan’s IdP in a real browser',
  { skip: chromium === 'run' ? false : CHROMIUM_MISSING },
  () => {
    let idp: TestIdp;
    let running: RunningService;
    let publicUrl: string;
    let browser: Browser;

    before(async () => {
      const port = await freePort();
      publicUrl = `http://127.0.0.1:${port}`;
      idp = await startTestIdp({
        redirectUris: [`${publicUrl}${CALLBACK_PATH}`],
        members: { 'member-4711': { patient_id: PATIENT, given_name: 'John', family_name: 'Smith' } },
        claimsInIdToken: true,
      });
      running = await startService(
        { ...idp.env(), PUBLIC_URL: publicUrl, IDP_LABEL: 'Acme Health', IDP_LABEL_ES: 'Acme Salud' },
        port,
      );
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await running?.close();
      await idp?.close();
    });

    async function newPage(context: BrowserContext): Promise<Page> {
      const page = await context.newPage();
      // The app's redirect URI answers with a tiny page, as an app would.
      await page.route(`${CALLBACK_ORIGIN}/**`, (route) =>
        route.fulfill({
          status: 200,
          contentType: 'text/html; charset=utf-8',
          body: '<!doctype html><title>app</title><p>back in the app</p>',
        }),
      );
      return page;
    }

    /** The app's authorize URL → openenroll's login page → the IdP's login page. */
    async function toIdpLoginPage(page: Page, app: TestApp, lang: 'en' | 'es') {
      const challenge = pkce();
      const state = randomBytes(16).toString('hex');
      const query = authorizeQuery(
        { clientId: app.clientId, redirectUri: app.redirectUri, lang },
        challenge,
        state,
      );
      const login = await page.goto(`${running.url}/v2/o/authorize/?${query}`);
      assert.equal(login?.status(), 200);
      assert.equal(new URL(page.url()).pathname, '/v2/accounts/login');
      const label = lang === 'en' ? 'Sign in with Acme Health' : 'Iniciar sesión con Acme Salud';
      await page.getByRole('link', { name: label, exact: true }).click();
      await page.waitForURL((url) => url.origin === idp.issuer && url.pathname.startsWith('/interaction/'));
      return { challenge, state };
    }

    test(
      'app → authorize → IdP login → consent → app → token → the member’s Patient and EOBs',
      { timeout: 90_000 },
      async () => {
        const app = await createTestApp(running);
        const context = await browser.newContext({ locale: 'en-US' });
        context.setDefaultTimeout(15_000);
        try {
          const page = await newPage(context);
          const { challenge, state } = await toIdpLoginPage(page, app, 'en');

          // The IdP's own login page (node-oidc-provider's development interaction).
          await page.locator('input[name="login"]').fill('member-4711');
          await page.locator('input[name="password"]').fill('correct horse battery staple');
          await page.getByRole('button', { name: 'Sign-in' }).click();

          // Back at openenroll, signed in: the consent page, unchanged.
          await page.waitForURL(
            (url) =>
              url.origin === running.url && /^\/v2\/o\/authorize\/[0-9a-f-]{36}\/?$/.test(url.pathname),
          );
          const heading = (await page.getByRole('heading', { level: 1 }).textContent())?.trim();
          assert.equal(heading, `Connect your health plan claims data to ${app.app.name}?`);
          await page.getByRole('button', { name: 'Connect', exact: true }).click();
          await page.waitForURL((url) => url.origin === CALLBACK_ORIGIN);
          await page.getByText('back in the app').waitFor();

          const back = new URL(page.url());
          assert.equal(back.searchParams.get('state'), state);
          const code = back.searchParams.get('code');
          assert.ok(code, 'the app gets a code');
          const token = await postForm(`${running.url}/v2/o/token/`, {
            grant_type: 'authorization_code',
            code,
            redirect_uri: app.redirectUri,
            code_verifier: challenge.verifier,
            client_id: app.clientId,
            client_secret: app.clientSecret,
          });
          assert.equal(token.status, 200, token.text);
          const body = token.body as { access_token: string; patient: string };
          assert.equal(body.patient, PATIENT);

          const auth = { headers: { authorization: `Bearer ${body.access_token}` } };
          const patient = await fetch(`${running.url}/v2/fhir/Patient/${PATIENT}`, auth);
          assert.equal(patient.status, 200);
          assert.equal(((await patient.json()) as { id: string }).id, PATIENT);
          const eobs = await fetch(`${running.url}/v2/fhir/ExplanationOfBenefit?patient=${PATIENT}`, auth);
          assert.equal(eobs.status, 200);
          const bundle = (await eobs.json()) as { resourceType: string; total: number; entry: unknown[] };
          assert.equal(bundle.resourceType, 'Bundle');
          assert.ok(bundle.total >= 20);
          assert.ok(bundle.entry.length > 0);
        } finally {
          await context.close();
        }
      },
    );

    test(
      'Spanish: the member cancels at the IdP → the app gets access_denied and its state',
      { timeout: 60_000 },
      async () => {
        const app = await createTestApp(running);
        const context = await browser.newContext({ locale: 'es-MX' });
        context.setDefaultTimeout(15_000);
        try {
          const page = await newPage(context);
          const { state } = await toIdpLoginPage(page, app, 'es');
          await page.getByRole('link', { name: '[ Cancel ]' }).click();
          await page.waitForURL((url) => url.origin === CALLBACK_ORIGIN);
          const back = new URL(page.url());
          assert.equal(back.searchParams.get('error'), 'access_denied');
          assert.equal(back.searchParams.get('state'), state);
          assert.equal(back.searchParams.get('code'), null);
        } finally {
          await context.close();
        }
      },
    );
  },
);
