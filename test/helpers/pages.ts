import { randomBytes } from 'node:crypto';
import { Browser, hiddenField, pkce, postForm, type Pkce } from './flow.js';
import type { createTestApp, RunningService } from './service.js';

/** Helpers for the browser-facing pages: authorize, login and consent, one hop at a time. */

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

export const LOGIN_PATH = '/v2/accounts/login';
export const CONSENT_PATH =
  /^\/v2\/o\/authorize\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/(\?.*)?$/;

export interface AuthorizeRequest {
  query: URLSearchParams;
  state: string;
  pkce: Pkce;
}

/**
 * A valid authorize query for `app`; `changes` overrides parameters, and a `null` value removes one.
 */
export function authorizeRequest(
  app: Pick<TestApp, 'clientId' | 'redirectUri'>,
  changes: Record<string, string | null> = {},
): AuthorizeRequest {
  const p = pkce();
  const state = randomBytes(16).toString('hex');
  const query = new URLSearchParams({
    client_id: app.clientId,
    redirect_uri: app.redirectUri,
    response_type: 'code',
    state,
    code_challenge: p.challenge,
    code_challenge_method: 'S256',
  });
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) query.delete(name);
    else query.set(name, value);
  }
  return { query, state: query.get('state') ?? state, pkce: p };
}

/** Reads a response body as JSON, failing with the text when it is not JSON. */
export async function jsonBody(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`expected JSON, got ${response.status}: ${text.slice(0, 300)}`);
  }
}

/** Opens the login page (which sets the CSRF cookie) and submits it. */
export async function logIn(
  browser: Browser,
  username: string,
  password: string,
  next = '',
): Promise<Response> {
  const page = await browser.get(`${LOGIN_PATH}${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  const html = await page.text();
  return browser.postForm(LOGIN_PATH, {
    csrf: hiddenField(html, 'csrf'),
    next: hiddenField(html, 'next'),
    lang: hiddenField(html, 'lang'),
    username,
    password,
  });
}

/** A browser with an enrollee logged in (sandbox enrollee `BBUser0000<n>`). */
export async function loggedInBrowser(
  running: RunningService,
  n = 0,
  headers: Record<string, string> = {},
): Promise<Browser> {
  const browser = new Browser(running.url, headers);
  const digits = String(n).padStart(5, '0');
  const response = await logIn(browser, `BBUser${digits}`, `PW${digits}!`);
  if (response.status !== 200) throw new Error(`login answered ${response.status}`);
  return browser;
}

export interface OpenConsent {
  browser: Browser;
  /** Path of the consent page, without its query. */
  path: string;
  html: string;
  csrf: string;
  response: Response;
  request: AuthorizeRequest;
}

/** Sends a logged-in browser through /authorize to its consent page and reads the page. */
export async function openConsent(
  browser: Browser,
  app: Pick<TestApp, 'clientId' | 'redirectUri'>,
  changes: Record<string, string | null> = {},
): Promise<OpenConsent> {
  const request = authorizeRequest(app, changes);
  const authorize = await browser.get(`/v2/o/authorize/?${request.query}`);
  const location = authorize.headers.get('location') ?? '';
  if (authorize.status !== 302 || !CONSENT_PATH.test(location)) {
    throw new Error(`authorize answered ${authorize.status} ${location}: ${await authorize.text()}`);
  }
  const response = await browser.get(location);
  const html = await response.text();
  if (response.status !== 200) throw new Error(`consent page answered ${response.status}: ${html}`);
  return {
    browser,
    path: new URL(location, browser.base).pathname,
    html,
    csrf: hiddenField(html, 'csrf'),
    response,
    request,
  };
}

/** The form a browser sends when the enrollee clicks Connect (or Cancel with `allow: false`). */
export function consentForm(
  consent: OpenConsent,
  options: { allow?: boolean; share?: boolean } = {},
): Record<string, string | string[]> {
  const form: Record<string, string | string[]> = { csrf: consent.csrf };
  if (consent.html.includes('name="share_demographic_scopes"')) {
    form.share_demographic_scopes = options.share === false ? ['False'] : ['False', 'True'];
  }
  if (options.allow !== false) form.allow = 'Connect';
  return form;
}

/** Exchanges a code at the token endpoint with the client's credentials in the body. */
export function exchangeCode(running: RunningService, app: TestApp, code: string, verifier: string) {
  return postForm(`${running.url}/v2/o/token/`, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: app.redirectUri,
    code_verifier: verifier,
    client_id: app.clientId,
    client_secret: app.clientSecret,
  });
}

/** Uses a refresh token with HTTP Basic client authentication. */
export function refresh(running: RunningService, app: TestApp, refreshToken: string) {
  return postForm(
    `${running.url}/v2/o/token/`,
    { grant_type: 'refresh_token', refresh_token: refreshToken },
    { id: app.clientId, secret: app.clientSecret },
  );
}

/** Approves a consent page and exchanges the code; returns the token response body. */
export async function approveAndExchange(
  running: RunningService,
  app: TestApp,
  consent: OpenConsent,
  options: { share?: boolean } = {},
): Promise<Record<string, unknown>> {
  const decision = await consent.browser.postForm(consent.path, consentForm(consent, options));
  const location = decision.headers.get('location');
  if (decision.status !== 302 || !location) throw new Error(`consent answered ${decision.status}`);
  const code = new URL(location).searchParams.get('code');
  if (!code) throw new Error(`no code in ${location}`);
  const token = await exchangeCode(running, app, code, consent.request.pkce.verifier);
  if (token.status !== 200) throw new Error(`token answered ${token.status}: ${token.text}`);
  return token.body as Record<string, unknown>;
}

/** The 13-month date of the consent page: 13 calendar months after `now`, day clamped to the month's end. */
export function thirteenMonthsDate(now: number, locale: 'en-US' | 'es-US'): string {
  const d = new Date(now);
  const firstOfTarget = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 13, 1));
  const daysInTarget = new Date(
    Date.UTC(firstOfTarget.getUTCFullYear(), firstOfTarget.getUTCMonth() + 1, 0),
  ).getUTCDate();
  firstOfTarget.setUTCDate(Math.min(d.getUTCDate(), daysInTarget));
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(firstOfTarget);
}
