import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM_MISSING, CHROMIUM_PATH, chromiumStatus, launchChromium } from '../helpers/browser.js';
import { authorizeQuery, pkce, postForm } from '../helpers/flow.js';
import { startService, type RunningService } from '../helpers/service.js';
import { startMailbox, type Mailbox } from './mailbox.js';
import { APP_FIELDS, newAccount } from './portal-flow.js';

/**
 * The developer portal end to end in a real headless Chromium, as a developer and then their app's user
 * take it: sign up, confirm the address from the mail a real SMTP server received, register an app, run
 * the authorization-code flow (PKCE) with the credentials the page showed against the sandbox enrollee
 * pages, read the enrollee's claims data; then create a plan-API key, call the plan API, revoke it.
 */

const CALLBACK = APP_FIELDS.redirect_uris;
const CALLBACK_ORIGIN = new URL(CALLBACK).origin;

const chromium = chromiumStatus();

if (chromium === 'fail') {
  test('browser tests need Debian chromium on CI', () => {
    assert.fail(`${CHROMIUM_PATH} does not exist: ${CHROMIUM_MISSING}`);
  });
}

describe(
  'developer portal in a real browser',
  { skip: chromium === 'run' ? false : CHROMIUM_MISSING },
  () => {
    let running: RunningService;
    let mailbox: Mailbox;
    let browser: Browser;

    before(async () => {
      mailbox = await startMailbox();
      // Sandbox mode with a mail server: the link reaches the developer only by mail, never on the page.
      running = await startService({ SMTP_URL: mailbox.url });
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await running?.close();
      await mailbox?.close();
    });

    const heading = async (page: Page) =>
      (await page.getByRole('heading', { level: 1 }).textContent())?.trim();

    /** Clicks a button and waits for the page the form's POST answers with. */
    async function submitWith(page: Page, button: string) {
      const answered = page.waitForResponse(
        (r) => r.request().method() === 'POST' && r.url().startsWith(running.url),
      );
      await page.getByRole('button', { name: button, exact: true }).click();
      const response = await answered;
      await page.waitForLoadState('load');
      return response;
    }

    /** The enrollee's side: authorize → login → consent → back at the app's callback with a code. */
    async function enrolleeAuthorizes(page: Page, clientId: string) {
      await page.route(`${CALLBACK_ORIGIN}/**`, (route) =>
        route.fulfill({
          status: 200,
          contentType: 'text/html',
          body: '<!doctype html><p>back in the app</p>',
        }),
      );
      const challenge = pkce();
      const state = 'portal-state-1234';
      await page.goto(
        `${running.url}/v2/o/authorize/?${authorizeQuery({ clientId, redirectUri: CALLBACK }, challenge, state)}`,
      );
      assert.equal(new URL(page.url()).pathname, '/v2/accounts/login');
      await page.getByLabel('Username', { exact: true }).fill('BBUser00000');
      await page.getByLabel('Password', { exact: true }).fill('PW00000!');
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await page.getByRole('button', { name: 'Connect', exact: true }).click();
      await page.waitForURL((url) => url.origin === CALLBACK_ORIGIN);
      const back = new URL(page.url());
      assert.equal(`${back.origin}${back.pathname}`, CALLBACK);
      assert.equal(back.searchParams.get('state'), state);
      const code = back.searchParams.get('code');
      assert.ok(code, `the app gets a code: ${page.url()}`);
      return { code, verifier: challenge.verifier };
    }

    test(
      'sign up → mailed link → app → authorization code with the shown secret → claims; key → plan API → revoke → 401',
      { timeout: 120_000 },
      async () => {
        const account = newAccount();
        const context = await browser.newContext({ locale: 'en-US' });
        context.setDefaultTimeout(15_000);
        try {
          const page = await context.newPage();

          // Sign up.
          await page.goto(`${running.url}/developers/sign-up`);
          assert.equal(await heading(page), 'Create a developer account');
          await page.getByLabel('Your name', { exact: true }).fill(account.name);
          await page.getByLabel('E-mail address', { exact: true }).fill(account.email);
          await page.getByLabel('Organization', { exact: true }).fill(account.organization);
          await page.getByLabel('Password', { exact: true }).fill(account.password);
          assert.equal((await submitWith(page, 'Create account')).status(), 200);
          assert.equal(await heading(page), 'Check your mail');
          assert.equal(
            await page.locator('#mailed-link').count(),
            0,
            'with a mail server the page shows no link',
          );

          // Confirm the address from the mail, then sign in.
          const link = await mailbox.linkFor(account.email, '/developers/verify');
          await page.goto(`${running.url}${link.pathname}${link.search}`);
          assert.equal(await heading(page), 'E-mail address confirmed');
          await page.getByRole('link', { name: 'Sign in', exact: true }).click();
          await page.getByLabel('E-mail address', { exact: true }).fill(account.email);
          await page.getByLabel('Password', { exact: true }).fill(account.password);
          await page.getByRole('button', { name: 'Sign in', exact: true }).click();
          await page.waitForURL((url) => url.pathname === '/developers');
          assert.equal(await heading(page), 'Your apps and keys');
          assert.ok(
            await page.getByText(`Signed in as ${account.name} (${account.organization})`).isVisible(),
          );

          // Register an app; the page shows its client id and secret once.
          await page.getByRole('link', { name: 'Register an application' }).click();
          await page.getByLabel('Application name').fill('Browser Portal App');
          await page.getByLabel('Redirect URIs (one per line)').fill(CALLBACK);
          await page.getByLabel('Access').selectOption('THIRTEEN_MONTH');
          await page.getByRole('radio', { name: 'Yes' }).check();
          await page.getByLabel('Website URL').fill(APP_FIELDS.websiteUri);
          assert.equal((await submitWith(page, 'Register')).status(), 201);
          assert.equal(await heading(page), 'Application registered');
          const clientId = (await page.locator('#client-id').textContent())!;
          const clientSecret = (await page.locator('#client-secret').textContent())!;
          assert.match(clientId, /^[A-Za-z0-9]{40}$/);
          assert.match(clientSecret, /^[A-Za-z0-9_-]{43}$/);

          // The app's user authorizes it in another tab, on the sandbox enrollee pages.
          const enrollee = await context.newPage();
          const { code, verifier } = await enrolleeAuthorizes(enrollee, clientId);
          const token = await postForm(`${running.url}/v2/o/token/`, {
            grant_type: 'authorization_code',
            code,
            redirect_uri: CALLBACK,
            code_verifier: verifier,
            client_id: clientId,
            client_secret: clientSecret,
          });
          assert.equal(token.status, 200, token.text);
          const tokens = token.body as { access_token: string; patient: string; scope: string };
          assert.match(tokens.scope, /patient\/Patient\./);
          const bearer = { headers: { authorization: `Bearer ${tokens.access_token}` } };
          const patient = await fetch(`${running.url}/v2/fhir/Patient/${tokens.patient}`, bearer);
          assert.equal(patient.status, 200);
          assert.equal(((await patient.json()) as { id: string }).id, tokens.patient);
          const eobs = await fetch(
            `${running.url}/v2/fhir/ExplanationOfBenefit?patient=${tokens.patient}`,
            bearer,
          );
          assert.equal(eobs.status, 200);
          const bundle = (await eobs.json()) as {
            resourceType: string;
            entry?: { resource: { patient: unknown } }[];
          };
          assert.equal(bundle.resourceType, 'Bundle');
          assert.ok((bundle.entry ?? []).length > 0, 'the sandbox enrollee has claims');
          for (const entry of bundle.entry!) {
            assert.deepEqual(entry.resource.patient, { reference: `Patient/${tokens.patient}` });
          }

          // The dashboard lists the app as active.
          await page.getByRole('link', { name: 'Back to your apps and keys' }).click();
          const appRow = page.getByRole('row').filter({ hasText: clientId });
          assert.equal((await appRow.locator('td.state').textContent())?.trim(), 'Active');

          // A plan-API key: shown once, works, counted today, revoked → 401.
          await page.getByLabel('Key name').fill('Browser key');
          assert.equal((await submitWith(page, 'Create key')).status(), 201);
          assert.equal(await heading(page), 'Plan API key created');
          const key = (await page.locator('#api-key').textContent())!;
          const planCall = () => fetch(`${running.url}/api/v1/states?apikey=${encodeURIComponent(key)}`);
          assert.equal((await planCall()).status, 200);
          await page.getByRole('link', { name: 'Back to your apps and keys' }).click();
          const keyRow = page.getByRole('row').filter({ hasText: 'Browser key' });
          assert.equal((await keyRow.locator('td.today').textContent())?.trim(), '1');
          assert.equal(await page.getByText(key).count(), 0, 'the key is never shown again');
          assert.equal((await submitWith(page, 'Revoke Browser key')).status(), 200);
          assert.ok(
            await page.getByText('Key revoked: requests with it are refused from now on.').isVisible(),
          );
          assert.equal((await keyRow.locator('td').nth(3).textContent())?.trim(), 'Revoked');
          const refused = await planCall();
          assert.equal(refused.status, 401);
        } finally {
          await context.close();
        }
      },
    );
  },
);
