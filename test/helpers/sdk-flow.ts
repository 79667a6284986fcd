import { Browser, hiddenField } from './flow.js';
import { startService, type RunningService } from './service.js';
import { freePort } from './processes.js';

export interface PagesOptions {
  username?: string;
  password?: string;
  /** false = click Cancel on the consent page */
  allow?: boolean;
  /** undefined = leave the personal-information checkbox as shown; false = uncheck it */
  share?: boolean;
}

export interface PagesResult {
  /** Where the consent decision sends the browser: the app's redirect URI with `code`/`error` and `state`. */
  location: URL;
  consentHtml: string;
  browser: Browser;
}

/**
 * Follows an authorize URL built by a client library (not by our helpers) through the real login and
 * consent pages, the way a browser without JavaScript would, and returns the final redirect to the app.
 */
export async function authorizeFromUrl(
  authorizeUrl: string | URL,
  o: PagesOptions = {},
  browser = new Browser(new URL(authorizeUrl).origin),
): Promise<PagesResult> {
  const base = browser.base;
  let response = await browser.get(String(authorizeUrl));
  if (response.status !== 302)
    throw new Error(`authorize answered ${response.status}: ${await response.text()}`);
  let location = response.headers.get('location')!;
  if (new URL(location, base).pathname === '/v2/accounts/login') {
    const loginPage = await browser.get(new URL(location, base).href);
    const html = await loginPage.text();
    if (loginPage.status !== 200) throw new Error(`login page answered ${loginPage.status}: ${html}`);
    response = await browser.postForm('/v2/accounts/login', {
      csrf: hiddenField(html, 'csrf'),
      next: hiddenField(html, 'next'),
      lang: hiddenField(html, 'lang'),
      username: o.username ?? 'BBUser00000',
      password: o.password ?? 'PW00000!',
    });
    if (response.status !== 302) throw new Error(`login answered ${response.status}`);
    // `next` is the authorize request again, now with a session: it sends on to the consent page.
    response = await browser.get(new URL(response.headers.get('location')!, base).href);
    if (response.status !== 302)
      throw new Error(`authorize after login answered ${response.status}: ${await response.text()}`);
    location = response.headers.get('location')!;
  }
  const consentUrl = new URL(location, base);
  const consent = await browser.get(consentUrl.href);
  const consentHtml = await consent.text();
  if (consent.status !== 200) throw new Error(`consent page answered ${consent.status}: ${consentHtml}`);
  const form: Record<string, string | string[]> = { csrf: hiddenField(consentHtml, 'csrf') };
  if (consentHtml.includes('name="share_demographic_scopes"')) {
    form.share_demographic_scopes = o.share === false ? ['False'] : ['False', 'True'];
  }
  if (o.allow !== false) form.allow = 'Connect';
  const decision = await browser.postForm(consentUrl.pathname, form);
  if (decision.status !== 302)
    throw new Error(`consent answered ${decision.status}: ${await decision.text()}`);
  return { location: new URL(decision.headers.get('location')!), consentHtml, browser };
}

/**
 * Starts the service on a port chosen beforehand so that `PUBLIC_URL` (the discovery issuer and the base of
 * every advertised endpoint) is the very URL clients connect to.
 */
export async function startPublicService(env: Record<string, string> = {}): Promise<RunningService> {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const running = await startService({ ...env, PORT: String(port), PUBLIC_URL: publicUrl }, port);
  if (running.url !== publicUrl) {
    await running.close();
    throw new Error(`service listens on ${running.url}, expected ${publicUrl}`);
  }
  return running;
}
