/**
 * Regenerates docs/screenshots/: the enrollee pages in English and Spanish, as Debian's chromium shows them
 * at 900×700, from a service started in this process over a temporary SQLite database (removed at the
 * end) with a fixed clock, so the dates on the pages do not change between runs.
 *
 *   npm run screenshots
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { registerApp } from '../src/auth/oauth/registration.js';
import { loadConfig } from '../src/config.js';
import { buildService } from '../src/server.js';
import { createLogger } from '../src/shared/logger.js';
import { connect } from '../src/storage/connect.js';

const OUT = resolve(import.meta.dirname, '..', 'docs', 'screenshots');
const CHROMIUM = '/usr/bin/chromium';
/** 15 January 2026, noon UTC: the consent page's "until …" date is the same in every run. */
const NOW = Date.UTC(2026, 0, 15, 12);
const CALLBACK = 'http://127.0.0.1:3001/callback';

const LOGIN = {
  en: {
    username: 'Username',
    password: 'Password',
    logIn: 'Log in',
    connect: 'Connect',
    signOut: 'Sign out',
  },
  es: {
    username: 'Nombre de usuario',
    password: 'Contraseña',
    logIn: 'Iniciar sesión',
    connect: 'Conectar',
    signOut: 'Cerrar sesión',
  },
} as const;

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(OUT, `${name}.png`) });
  console.log(`docs/screenshots/${name}.png`);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'openenroll-screenshots-'));
  const storage = await connect(`sqlite:${join(dir, 'screenshots.db')}`);
  const config = loadConfig({ LOG_LEVEL: 'silent', SANDBOX_ENROLLEES: '2' });
  const service = await buildService(config, createLogger(config.logLevel), { storage, now: () => NOW });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  try {
    const url = await service.app.listen({ port: 0, host: '127.0.0.1' });
    const { app } = await registerApp(
      service.deps.apps,
      {
        name: 'Sample Health App',
        redirectUris: [CALLBACK],
        dataAccessType: 'THIRTEEN_MONTH',
        requireDemographicScopes: true,
        policyUri: 'https://app.example/privacy',
        tosUri: 'https://app.example/terms',
      },
      NOW,
    );
    mkdirSync(OUT, { recursive: true });
    for (const lang of ['en', 'es'] as const) {
      const text = LOGIN[lang];
      const n = lang === 'en' ? 0 : 1;
      const context = await browser.newContext({ viewport: { width: 900, height: 700 }, locale: lang });
      // The app's callback: a blank page, so the flow can go on to the enrollee's own pages.
      await context.route(`${CALLBACK}**`, (route) => route.fulfill({ status: 200, body: '' }));
      const page = await context.newPage();
      const query = new URLSearchParams({
        client_id: app.clientId,
        redirect_uri: CALLBACK,
        response_type: 'code',
        state: randomBytes(16).toString('hex'),
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        lang,
      });
      await page.goto(`${url}/v2/o/authorize/?${query.toString()}`);
      await shoot(page, `login-${lang}`);
      await page.getByLabel(text.username, { exact: true }).fill(`BBUser0000${n}`);
      await page.getByLabel(text.password, { exact: true }).fill(`PW0000${n}!`);
      await page.getByRole('button', { name: text.logIn, exact: true }).click();
      await page.getByRole('button', { name: text.connect, exact: true }).waitFor();
      await shoot(page, `consent-${lang}`);
      await page.getByRole('button', { name: text.connect, exact: true }).click();
      await page.waitForURL(`${CALLBACK}**`);
      await page.goto(`${url}/v2/o/authorize/?client_id=unknown-app&lang=${lang}`);
      await shoot(page, `authorize-error-${lang}`);
      await page.goto(`${url}/v2/accounts/connected-apps?lang=${lang}`);
      await shoot(page, `connected-apps-${lang}`);
      await page.getByRole('button', { name: text.signOut, exact: true }).click();
      await page.waitForURL(/\/v2\/accounts\/sign-out/);
      await shoot(page, `signed-out-${lang}`);
      await context.close();
    }
  } finally {
    await browser.close();
    await service.close();
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
