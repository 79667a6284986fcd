import { createHash, randomBytes } from 'node:crypto';

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function pkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** A minimal cookie jar over fetch, following no redirects so each hop can be asserted. */
export class Browser {
  cookies = new Map<string, string>();

  constructor(
    readonly base: string,
    readonly headers: Record<string, string> = {},
  ) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const url = path.startsWith('http') ? path : this.base + path;
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...this.headers,
        ...(cookie ? { cookie } : {}),
        ...(init.headers as Record<string, string>),
      },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return response;
  }

  get(path: string) {
    return this.request(path);
  }

  postForm(path: string, form: Record<string, string | string[]>) {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
    return this.request(path, {
      method: 'POST',
      body: body.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }
}

export function unescapeHtml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

export function hiddenField(html: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (!match) throw new Error(`no hidden field ${name} in page`);
  return unescapeHtml(match[1]!);
}

export interface AuthorizeOptions {
  clientId: string;
  redirectUri: string;
  username?: string;
  password?: string;
  scope?: string;
  lang?: string;
  state?: string;
  /** false = click Cancel */
  allow?: boolean;
  /** undefined = leave the personal-information checkbox as shown (checked); false = uncheck it */
  share?: boolean;
  pkce?: Pkce;
}

export interface AuthorizeResult {
  location: URL;
  code: string | null;
  state: string;
  pkce: Pkce;
  consentHtml: string;
  browser: Browser;
}

export function authorizeQuery(o: AuthorizeOptions, p: Pkce, state: string): string {
  const q = new URLSearchParams({
    client_id: o.clientId,
    redirect_uri: o.redirectUri,
    response_type: 'code',
    state,
    code_challenge: p.challenge,
    code_challenge_method: 'S256',
  });
  if (o.scope !== undefined) q.set('scope', o.scope);
  if (o.lang !== undefined) q.set('lang', o.lang);
  return q.toString();
}

/**
 * Follows an authorize URL built by a client library (not by our helpers) through the real login and
 * consent pages, the way a browser without JavaScript would, and returns the final redirect to the app.
 */
export async function followAuthorize(
  authorizeUrl: string | URL,
  o: Pick<AuthorizeOptions, 'username' | 'password' | 'allow' | 'share'> = {},
  browser = new Browser(new URL(authorizeUrl).origin),
): Promise<{ location: URL; consentHtml: string; browser: Browser }> {
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

/** Drives authorize → login → consent through the real pages, as a browser without JavaScript would. */
export async function authorizeThroughPages(
  base: string,
  o: AuthorizeOptions,
  browser = new Browser(base),
): Promise<AuthorizeResult> {
  const p = o.pkce ?? pkce();
  const state = o.state ?? randomBytes(16).toString('hex');
  const url = `${base}/v2/o/authorize?${authorizeQuery(o, p, state)}`;
  const { location, consentHtml } = await followAuthorize(url, o, browser);
  return { location, code: location.searchParams.get('code'), state, pkce: p, consentHtml, browser };
}

/** POSTs a form to the token-side endpoints, with HTTP Basic when `basic` is given. */
export async function postForm(
  url: string,
  form: Record<string, string>,
  basic?: { id: string; secret: string },
): Promise<{ status: number; body: unknown; text: string; headers: Headers }> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (basic) {
    const encode = (s: string) => encodeURIComponent(s);
    headers.authorization = `Basic ${Buffer.from(`${encode(basic.id)}:${encode(basic.secret)}`).toString('base64')}`;
  }
  const response = await fetch(url, { method: 'POST', headers, body: new URLSearchParams(form).toString() });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: response.status, body, text, headers: response.headers };
}
