import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { CHROMIUM_MISSING, CHROMIUM_PATH, chromiumStatus, launchChromium } from '../helpers/browser.js';
import { authorizeQuery, pkce } from '../helpers/flow.js';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';

/**
 * Issue 17, pages: the authorize error page in the enrollee's language, the consent page's link to the
 * connected apps, and sign-out from the connected-apps page, as a person sees and uses them.
 */

const status = chromiumStatus();
const skip = status === 'skip' ? CHROMIUM_MISSING : false;
let running: RunningService;
let browser: Browser;

const TEXT = {
  en: {
    username: 'Username',
    password: 'Password',
    logIn: 'Log in',
    consent: 'Connect your health plan claims data to',
    link: 'connected apps page',
    connectedApps: 'Your connected apps',
    signOut: 'Sign out',
    signedOut: 'You are signed out',
    signInAgain: 'Sign in again',
    appNotFound: 'Application does not exist (client_id)',
    mismatch: 'Mismatching redirect URI.',
    switchLanguage: 'Cambiar a español',
  },
  es: {
    username: 'Nombre de usuario',
    password: 'Contraseña',
    logIn: 'Iniciar sesión',
    consent: '¿Desea compartir los datos de reclamos de su plan de salud con',
    link: 'página de aplicaciones conectadas',
    connectedApps: 'Sus aplicaciones conectadas',
    signOut: 'Cerrar sesión',
    signedOut: 'Cerró su sesión',
    signInAgain: 'Iniciar sesión de nuevo',
    appNotFound: 'No hay ninguna aplicación registrada con este client_id.',
    mismatch: 'La URI de redirección no coincide con las registradas para la aplicación.',
    switchLanguage: 'Change to English',
  },
} as const;

if (status === 'fail') {
  test('browser tests need Debian chromium on CI', () =>
    assert.fail(`${CHROMIUM_PATH} does not exist: ${CHROMIUM_MISSING}`));
} else {
  before(async () => {
    if (status === 'skip') return;
    running = await startService({ SANDBOX_ENROLLEES: '2' });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await running?.close();
  });

  describe('the authorize error page honours lang, then Accept-Language', () => {
    for (const lang of ['en', 'es'] as const) {
      test(`lang=${lang}: an unknown client and a wrong redirect URI`, { skip }, async () => {
        const context = await browser.newContext({ locale: lang === 'en' ? 'es-US' : 'en-US' });
        const page = await context.newPage();
        const unknown = await page.goto(`${running.url}/v2/o/authorize/?client_id=nope&lang=${lang}`);
        assert.equal(unknown?.status(), 400);
        assert.equal(await page.locator('html').getAttribute('lang'), lang);
        assert.equal(await page.getByRole('alert').textContent(), TEXT[lang].appNotFound);
        const app = await createTestApp(running);
        await page.goto(
          `${running.url}/v2/o/authorize/?client_id=${app.clientId}&redirect_uri=http://evil.test/&lang=${lang}`,
        );
        assert.equal(await page.getByRole('alert').textContent(), TEXT[lang].mismatch);
        // The other language is one click away, on the same request.
        await page.getByRole('link', { name: TEXT[lang].switchLanguage }).click();
        const other = lang === 'en' ? 'es' : 'en';
        assert.equal(await page.getByRole('alert').textContent(), TEXT[other].mismatch);
        await context.close();
      });
    }

    test('no lang: a Spanish browser gets Spanish', { skip }, async () => {
      const context = await browser.newContext({ extraHTTPHeaders: { 'accept-language': 'es-MX,es;q=0.9' } });
      const page = await context.newPage();
      await page.goto(`${running.url}/v2/o/authorize/?client_id=nope`);
      assert.equal(await page.getByRole('alert').textContent(), TEXT.es.appNotFound);
      await context.close();
    });
  });

  for (const lang of ['en', 'es'] as const) {
    const n = lang === 'en' ? 0 : 1;
    const text = TEXT[lang];

    test(`the consent page links the connected-apps page (${lang})`, { skip }, async () => {
      const app = await createTestApp(running);
      const context = await browser.newContext();
      const page = await context.newPage();
      const search = authorizeQuery(
        { clientId: app.clientId, redirectUri: app.redirectUri, lang },
        pkce(),
        randomBytes(16).toString('hex'),
      );
      await page.goto(`${running.url}/v2/o/authorize/?${search}`);
      await page.getByLabel(text.username, { exact: true }).fill(`BBUser0000${n}`);
      await page.getByLabel(text.password, { exact: true }).fill(`PW0000${n}!`);
      await page.getByRole('button', { name: text.logIn, exact: true }).click();
      await page.getByRole('heading', { name: new RegExp(`^${text.consent.replace('?', '\\?')}`) }).waitFor();
      const link = page.getByRole('link', { name: text.link });
      assert.equal(await link.getAttribute('href'), `/v2/accounts/connected-apps?lang=${lang}`);
      // It opens beside the consent page, which stays answerable.
      const [opened] = await Promise.all([context.waitForEvent('page'), link.click()]);
      await opened.getByRole('heading', { name: text.connectedApps }).waitFor();
      await context.close();
    });

    test(`sign-out from the connected-apps page ends the session (${lang})`, { skip }, async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${running.url}/v2/accounts/connected-apps?lang=${lang}`);
      await page.getByLabel(text.username, { exact: true }).fill(`BBUser0000${n}`);
      await page.getByLabel(text.password, { exact: true }).fill(`PW0000${n}!`);
      await page.getByRole('button', { name: text.logIn, exact: true }).click();
      await page.getByRole('heading', { name: text.connectedApps }).waitFor();
      const [cookie] = (await context.cookies()).filter((c) => c.name === 'oe_session');
      assert.ok(cookie, 'logged in');

      await page.getByRole('button', { name: text.signOut }).click();
      await page.getByRole('heading', { name: text.signedOut }).waitFor();
      assert.equal(await page.locator('html').getAttribute('lang'), lang);
      assert.equal(
        (await context.cookies()).filter((c) => c.name === 'oe_session').length,
        0,
        'the cookie is cleared',
      );
      // The session ended in the database: the old secret, replayed, opens nothing.
      const replayed = await fetch(`${running.url}/v2/accounts/connected-apps?lang=${lang}`, {
        headers: { cookie: `oe_session=${cookie.value}` },
        redirect: 'manual',
      });
      assert.equal(replayed.status, 302);
      assert.match(replayed.headers.get('location') ?? '', /^\/v2\/accounts\/login\?/);
      // "Sign in again" leads back through the login page.
      await page.getByRole('link', { name: text.signInAgain }).click();
      await page.getByRole('button', { name: text.logIn, exact: true }).waitFor();
      await context.close();
    });
  }

  test('a sign-out form without the session’s CSRF token is refused', { skip }, async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${running.url}/v2/accounts/connected-apps?lang=en`);
    await page.getByLabel(TEXT.en.username, { exact: true }).fill('BBUser00000');
    await page.getByLabel(TEXT.en.password, { exact: true }).fill('PW00000!');
    await page.getByRole('button', { name: TEXT.en.logIn, exact: true }).click();
    await page.getByRole('heading', { name: TEXT.en.connectedApps }).waitFor();
    await page.locator('form.sign-out input[name=csrf]').evaluate((input) => {
      input.value = 'forged';
    });
    await page.getByRole('button', { name: TEXT.en.signOut }).click();
    await page.getByRole('alert').waitFor();
    await page.goto(`${running.url}/v2/accounts/connected-apps?lang=en`);
    await page.getByRole('heading', { name: TEXT.en.connectedApps }).waitFor();
    await context.close();
  });
}
