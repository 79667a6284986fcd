import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { CHROMIUM_MISSING, CHROMIUM_PATH, chromiumStatus, launchChromium } from '../helpers/browser.js';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';
import { issueTokens, userinfo } from '../helpers/token-calls.js';

const status = chromiumStatus();
let running: RunningService;
let browser: Browser;

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

  for (const lang of ['en', 'es'] as const) {
    test(
      `an enrollee revokes an app on the connected-apps page (${lang})`,
      { skip: status === 'skip' ? CHROMIUM_MISSING : false },
      async () => {
        const text = {
          en: {
            username: 'Username',
            password: 'Password',
            logIn: 'Log in',
            title: 'Your connected apps',
            revoke: 'Revoke',
            done: 'was revoked',
            none: 'No app has access',
          },
          es: {
            username: 'Nombre de usuario',
            password: 'Contraseña',
            logIn: 'Iniciar sesión',
            title: 'Sus aplicaciones conectadas',
            revoke: 'Revocar',
            done: 'Se revocó el acceso',
            none: 'Ninguna aplicación',
          },
        }[lang];
        const n = lang === 'en' ? 0 : 1;
        const app = await createTestApp(running, { name: `Browser App ${lang}` });
        const tokens = await issueTokens(running, app, { enrollee: n });
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(`${running.url}/v2/accounts/connected-apps?lang=${lang}`);
        await page.getByLabel(text.username).fill(`BBUser0000${n}`);
        await page.getByLabel(text.password).fill(`PW0000${n}!`);
        await page.getByRole('button', { name: text.logIn }).click();
        await page.getByRole('heading', { name: text.title }).waitFor();
        assert.ok(await page.getByRole('cell', { name: `Browser App ${lang}`, exact: true }).isVisible());
        await page.getByRole('button', { name: `${text.revoke} Browser App ${lang}` }).click();
        await page.getByRole('status').waitFor();
        assert.match((await page.getByRole('status').textContent()) ?? '', new RegExp(text.done));
        assert.match(await page.content(), new RegExp(text.none));
        assert.equal(
          (await userinfo(running.url, tokens.access_token)).status,
          401,
          'its token stopped working',
        );
        await context.close();
      },
    );
  }
}
