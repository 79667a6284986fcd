/**
 * Regenerates docs/screenshots/: the enrollee pages in English and Spanish and the developer portal's pages,
 * as Debian's chromium shows them at 900×700, from a service started in this process over a temporary SQLite
 * database (removed at the end) with a fixed clock, so the dates on the pages do not change between runs.
 * The portal's client id, secret and key are random, so those pixels change at every run.
 *
 *   npm run screenshots
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
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

/** The 900×700 viewport, or the whole page when it is longer (`fullPage`). */
async function shoot(page: Page, name: string, fullPage = false): Promise<void> {
  await page.screenshot({ path: join(OUT, `${name}.png`), fullPage });
  console.log(`docs/screenshots/${name}.png`);
}

/** The developer's account of the portal pictures. */
const DEVELOPER = {
  name: 'Dana Developer',
  email: 'dana@app.example',
  organization: 'Sample Health Apps',
  password: 'sample-password-1',
};

/**
 * The developer portal: sign-up, the one-time secret of a new app, the dashboard with that app and a key
 * that made one request, and the Spanish sign-in. Sandbox without a mail server, so the verification link
 * is followed from the page.
 */
async function portalPages(browser: Browser, url: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 900, height: 700 }, locale: 'en' });
  const page = await context.newPage();
  await page.goto(`${url}/developers/sign-up?lang=en`);
  await page.getByLabel('Your name', { exact: true }).fill(DEVELOPER.name);
  await page.getByLabel('E-mail address', { exact: true }).fill(DEVELOPER.email);
  await page.getByLabel('Organization', { exact: true }).fill(DEVELOPER.organization);
  await page.getByLabel('Password', { exact: true }).fill(DEVELOPER.password);
  await shoot(page, 'portal-sign-up-en');
  await page.getByRole('button', { name: 'Create account', exact: true }).click();
  // The link names PUBLIC_URL (the default port); this service listens on another, so only its path is kept.
  const link = new URL((await page.locator('#mailed-link').getAttribute('href')) ?? '');
  await page.goto(`${url}${link.pathname}${link.search}`);
  await page.getByRole('link', { name: 'Sign in', exact: true }).click();
  await page.getByLabel('E-mail address', { exact: true }).fill(DEVELOPER.email);
  await page.getByLabel('Password', { exact: true }).fill(DEVELOPER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((u) => u.pathname === '/developers');

  await page.getByRole('link', { name: 'Register an application' }).click();
  await page.getByLabel('Application name').fill('Claims Viewer');
  await page.getByLabel('Redirect URIs (one per line)').fill(CALLBACK);
  await page.getByRole('radio', { name: 'Yes' }).check();
  await page.getByLabel('Website URL').fill('https://app.example/');
  await page.getByLabel('Privacy policy URL').fill('https://app.example/privacy');
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await page.locator('#client-secret').waitFor();
  await shoot(page, 'portal-app-secret-en');

  await page.getByRole('link', { name: 'Back to your apps and keys' }).click();
  await page.getByLabel('Key name').fill('Plan search');
  await page.getByRole('button', { name: 'Create key', exact: true }).click();
  const key = await page.locator('#api-key').textContent();
  await fetch(`${url}/api/v1/states?apikey=${encodeURIComponent(key ?? '')}`);
  await page.getByRole('link', { name: 'Back to your apps and keys' }).click();
  await shoot(page, 'portal-dashboard-en', true);
  await context.close();

  const spanish = await browser.newContext({ viewport: { width: 900, height: 700 }, locale: 'es' });
  const es = await spanish.newPage();
  await es.goto(`${url}/developers/sign-in?lang=es`);
  await shoot(es, 'portal-sign-in-es');
  await spanish.close();
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
    await portalPages(browser, url);
  } finally {
    await browser.close();
    await service.close();
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
