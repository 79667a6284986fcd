import { Browser, hiddenField, postForm, unescapeHtml } from './flow.js';
import { authorizeRequest, type AuthorizeRequest, type TestApp } from './pages.js';
import { atIdp } from './test-idp.js';
import type { TokenBody } from './token-calls.js';

/**
 * The enrollee's side of a sign-in through the plan's identity provider, one hop at a time, as a browser
 * without JavaScript: app → openenroll authorize → login page → "Sign in with …" → the IdP → openenroll's
 * callback → (the authorize request again) → consent → the app's redirect → the token exchange.
 */

export const CALLBACK_PATH = '/v2/accounts/idp/callback';

export interface IdpFlow {
  browser: Browser;
  request: AuthorizeRequest;
  loginHtml: string;
  /** The IdP's authorization URL openenroll sent the browser to. */
  idpUrl: URL;
}

/** The "Sign in with …" link of a login page, or undefined. */
export function signInLink(html: string): { href: string; text: string } | undefined {
  const match = /<a class="button" id="idp-sign-in" href="([^"]+)">([^<]*)<\/a>/.exec(html);
  return match ? { href: unescapeHtml(match[1]!), text: unescapeHtml(match[2]!) } : undefined;
}

/** The alert paragraph of a page (errors), unescaped. */
export function alertText(html: string): string | undefined {
  const match = /<p class="error" role="alert">([^<]*)<\/p>/.exec(html);
  return match ? unescapeHtml(match[1]!) : undefined;
}

/** The first button link of a page (an error page's "Try again", "Return to the app"), unescaped. */
export function buttonLink(html: string): { href: string; text: string } | undefined {
  const match = /<a class="button" href="([^"]+)">([^<]*)<\/a>/.exec(html);
  return match ? { href: unescapeHtml(match[1]!), text: unescapeHtml(match[2]!) } : undefined;
}

/** The header's link to the same page in the other language, unescaped; undefined when it has none. */
export function switchLink(html: string): string | undefined {
  const match = /<a class="lang" href="([^"]+)">/.exec(html);
  return match ? unescapeHtml(match[1]!) : undefined;
}

/** App → authorize → login page → "Sign in with …": returns where openenroll sent the browser. */
export async function startAtLoginPage(
  base: string,
  app: Pick<TestApp, 'clientId' | 'redirectUri'>,
  options: { lang?: 'en' | 'es'; browser?: Browser } = {},
): Promise<IdpFlow> {
  const browser = options.browser ?? new Browser(base);
  const request = authorizeRequest(app, options.lang ? { lang: options.lang } : {});
  const authorize = await browser.get(`/v2/o/authorize/?${request.query}`);
  const login = authorize.headers.get('location');
  if (authorize.status !== 302 || !login) throw new Error(`authorize answered ${authorize.status}`);
  const page = await browser.get(login);
  const loginHtml = await page.text();
  const link = signInLink(loginHtml);
  if (!link) throw new Error(`no "Sign in with" link on the login page: ${loginHtml}`);
  const start = await browser.get(link.href);
  const idp = start.headers.get('location');
  if (start.status !== 302 || !idp) throw new Error(`start answered ${start.status}: ${await start.text()}`);
  return { browser, request, loginHtml, idpUrl: new URL(idp) };
}

/**
 * The member at the IdP (signs in as `login`, or cancels); the IdP's redirect to `publicUrl`'s callback is
 * delivered to `deliverTo` (another instance, when given) and its answer returned, not followed.
 */
export async function returnFromIdp(
  flow: IdpFlow,
  publicUrl: string,
  login: string | 'cancel',
  deliverTo = flow.browser.base,
): Promise<{ response: Response; callbackUrl: URL }> {
  const callbackUrl = await atIdp(
    flow.idpUrl.href,
    login === 'cancel' ? 'cancel' : { login },
    `${publicUrl}${CALLBACK_PATH}`,
  );
  const response = await flow.browser.get(`${deliverTo}${CALLBACK_PATH}${callbackUrl.search}`);
  return { response, callbackUrl };
}

/**
 * After a callback that signed the member in: its redirect (the authorize request) → the consent page →
 * Connect → the app's redirect with a code → the token response.
 */
export async function connectAndExchange(
  base: string,
  flow: IdpFlow,
  callback: Response,
  app: TestApp,
): Promise<TokenBody> {
  const next = callback.headers.get('location');
  if (callback.status !== 302 || !next) throw new Error(`callback answered ${callback.status}`);
  const authorize = await flow.browser.get(next);
  const consentPath = authorize.headers.get('location');
  if (authorize.status !== 302 || !consentPath) throw new Error(`authorize answered ${authorize.status}`);
  const consent = await flow.browser.get(consentPath);
  const html = await consent.text();
  if (consent.status !== 200) throw new Error(`consent page answered ${consent.status}: ${html}`);
  const decision = await flow.browser.postForm(new URL(consentPath, base).pathname, {
    csrf: hiddenField(html, 'csrf'),
    share_demographic_scopes: ['False', 'True'],
    allow: 'Connect',
  });
  const redirect = new URL(decision.headers.get('location') ?? 'about:blank');
  const code = redirect.searchParams.get('code');
  if (!code || redirect.searchParams.get('state') !== flow.request.state) {
    throw new Error(`consent answered ${decision.status} ${redirect.href}`);
  }
  const token = await postForm(`${base}/v2/o/token/`, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: app.redirectUri,
    code_verifier: flow.request.pkce.verifier,
    client_id: app.clientId,
    client_secret: app.clientSecret,
  });
  if (token.status !== 200) throw new Error(`token answered ${token.status}: ${token.text}`);
  return token.body as TokenBody;
}

/** GET with a bearer token, JSON body. */
export async function readFhir(base: string, path: string, accessToken: string) {
  const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${accessToken}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
