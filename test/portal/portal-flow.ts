import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Browser, hiddenField, unescapeHtml } from '../helpers/flow.js';
import { authorizeRequest } from '../helpers/pages.js';
import type { RunningService } from '../helpers/service.js';
import type { Mailbox } from './mailbox.js';

/** Steps of the developer portal as a browser takes them, over plain HTTP. */

export interface DeveloperAccount {
  name: string;
  email: string;
  organization: string;
  password: string;
}

export function newAccount(): DeveloperAccount {
  const id = randomBytes(4).toString('hex');
  return {
    name: `Dev ${id}`,
    email: `dev-${id}@example.org`,
    organization: 'Example Apps',
    password: `pass-${id}-long`,
  };
}

/** The link a sandbox page shows beside "check your mail" (no SMTP server configured). */
export function shownLink(html: string): string | undefined {
  const match = /<a id="mailed-link" href="([^"]+)"/.exec(html);
  return match ? unescapeHtml(match[1]!) : undefined;
}

/** Opens `path` (setting the form cookie) and posts its form with `fields` and the form's CSRF value. */
export async function submit(browser: Browser, page: string, action: string, fields: Record<string, string>) {
  const html = await (await browser.get(page)).text();
  return browser.postForm(action, { csrf: hiddenField(html, 'csrf'), ...fields });
}

export async function signUp(browser: Browser, account: DeveloperAccount) {
  const response = await submit(browser, '/developers/sign-up', '/developers/sign-up', { ...account });
  return { response, html: await response.text() };
}

export async function signIn(browser: Browser, account: DeveloperAccount) {
  return submit(browser, '/developers/sign-in', '/developers/sign-in', {
    email: account.email,
    password: account.password,
  });
}

/**
 * Signs up, opens the verification link (shown on the page in a sandbox without mail, else read from
 * `mailbox`), and signs in: a browser at the dashboard.
 */
export async function verifiedDeveloper(base: string, mailbox?: Mailbox, account = newAccount()) {
  const browser = new Browser(base);
  const { html } = await signUp(browser, account);
  const link = mailbox
    ? await mailbox.linkFor(account.email, '/developers/verify')
    : new URL(shownLink(html)!);
  assert.equal((await browser.get(link.pathname + link.search)).status, 200);
  const signedIn = await signIn(browser, account);
  assert.equal(signedIn.status, 303);
  return { browser, account };
}

/** The CSRF value of the signed-in dashboard's forms. */
export async function dashboardCsrf(browser: Browser): Promise<string> {
  return hiddenField(await (await browser.get('/developers')).text(), 'csrf');
}

export const APP_FIELDS = {
  name: 'Portal App',
  redirect_uris: 'http://127.0.0.1:3001/callback',
  access: 'THIRTEEN_MONTH',
  demographic: 'yes',
  logoUri: '',
  websiteUri: 'https://app.example/',
  tosUri: 'https://app.example/terms',
  policyUri: 'https://app.example/privacy',
};

/** Registers an app from the portal: its client id and the secret shown once. */
export async function createPortalApp(browser: Browser, fields: Record<string, string> = {}) {
  const csrf = await dashboardCsrf(browser);
  const response = await browser.postForm('/developers/apps', { csrf, ...APP_FIELDS, ...fields });
  const html = await response.text();
  assert.equal(response.status, 201, html);
  const clientId = /<code id="client-id">([^<]+)<\/code>/.exec(html)![1]!;
  const clientSecret = unescapeHtml(/<code id="client-secret">([^<]+)<\/code>/.exec(html)![1]!);
  return { clientId, clientSecret, html };
}

/**
 * The status authorize answers for `clientId` with a valid request: 302 on to the login when the app may be
 * authorized, 400 when it is unknown (or not approved), 403 when the operator disabled it.
 */
export async function authorizeStatus(running: RunningService, clientId: string): Promise<number> {
  const { query } = authorizeRequest({ clientId, redirectUri: APP_FIELDS.redirect_uris });
  return (await fetch(`${running.url}/v2/o/authorize/?${query}`, { redirect: 'manual' })).status;
}
