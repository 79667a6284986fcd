/**
 * Load preparation through the real pages (authorize → login → consent), reusing the test helpers:
 * token families for the refresh benchmark and pools of fresh authorization codes for the exchange one.
 */
import { authorizeThroughPages, Browser, postForm, type Pkce } from '../test/helpers/flow.js';
import type { RegisteredApp } from './server.js';

/** Sandbox enrollee `n` (public sandbox credentials); refresh families all use enrollee 0. */
function enrollee(n: number) {
  const digits = String(n).padStart(5, '0');
  return { username: `BBUser${digits}`, password: `PW${digits}!` };
}

/** What one autocannon connection needs to chain refresh grants. */
export interface TokenFamily {
  app: RegisteredApp;
  /** `Basic …` for the app. */
  authorization: string;
  refreshToken: string;
}

export interface IssuedCode {
  code: string;
  verifier: string;
  redirectUri: string;
  issuedAt: number;
}

/** RFC 6749 §2.3.1: id and secret form-urlencoded, then base64. */
export function basicAuthorization(app: RegisteredApp): string {
  const pair = `${encodeURIComponent(app.clientId)}:${encodeURIComponent(app.clientSecret)}`;
  return `Basic ${Buffer.from(pair).toString('base64')}`;
}

/** Authorize + consent in `browser` (its first authorize goes through the login page as enrollee `n`). */
async function authorizeOnce(
  base: string,
  app: RegisteredApp,
  browser: Browser,
  n = 0,
  scope?: string,
): Promise<{ code: string; pkce: Pkce }> {
  const result = await authorizeThroughPages(
    base,
    { clientId: app.clientId, redirectUri: app.redirectUri, scope, ...enrollee(n) },
    browser,
  );
  if (!result.code) throw new Error(`consent gave no code: ${result.location.toString()}`);
  return { code: result.code, pkce: result.pkce };
}

/** Consent for `app` as enrollee `n` in `browser`, then the code exchange; returns the token response. */
async function consentAndExchange(
  base: string,
  app: RegisteredApp,
  browser: Browser,
  n = 0,
  scope?: string,
): Promise<{ access_token?: string; refresh_token?: string }> {
  const { code, pkce } = await authorizeOnce(base, app, browser, n, scope);
  const exchanged = await postForm(
    `${base}/v2/o/token/`,
    {
      grant_type: 'authorization_code',
      code,
      redirect_uri: app.redirectUri,
      code_verifier: pkce.verifier,
    },
    { id: app.clientId, secret: app.clientSecret },
  );
  const body = exchanged.body as { access_token?: string; refresh_token?: string };
  if (exchanged.status !== 200 || !body.access_token) {
    throw new Error(`code exchange answered ${exchanged.status}: ${exchanged.text}`);
  }
  return body;
}

/**
 * One live token family per app, each obtained by consent (to `scope`; the app's defaults when undefined)
 * and a code exchange, in one logged-in browser.
 */
export async function prepareFamilies(
  base: string,
  apps: RegisteredApp[],
  scope?: string,
): Promise<TokenFamily[]> {
  const browser = new Browser(base);
  const families: TokenFamily[] = [];
  for (const app of apps) {
    const body = await consentAndExchange(base, app, browser, 0, scope);
    if (!body.refresh_token) throw new Error('the code exchange returned no refresh token');
    families.push({ app, authorization: basicAuthorization(app), refreshToken: body.refresh_token });
  }
  return families;
}

/** `Bearer …` for enrollee `n` and `app`, obtained through login, consent and a code exchange. */
export async function prepareBearer(base: string, app: RegisteredApp, n = 0): Promise<string> {
  const body = await consentAndExchange(base, app, new Browser(base), n);
  return `Bearer ${body.access_token!}`;
}

export interface CodePools {
  /** `pools[i]` holds codes for `apps[i]`, oldest first; all pools have the same length. */
  pools: IssuedCode[][];
  /** When the first code was issued (they live 60 s from then). */
  firstIssuedAt: number;
  issueSeconds: number;
}

/**
 * One logged-in browser per enrollee (password hashing is slow on purpose, so each logs in once), reused
 * for every round. A new consent for an app and enrollee spends that pair's earlier unused codes, so every
 * code of a round comes from its own (app, enrollee) pair: a round holds at most apps × enrollees codes.
 */
export class CodeIssuer {
  private readonly browsers: Browser[];

  private constructor(
    private readonly base: string,
    private readonly apps: RegisteredApp[],
    enrollees: number,
  ) {
    this.browsers = Array.from({ length: enrollees }, () => new Browser(base));
  }

  static async start(base: string, apps: RegisteredApp[], enrollees: number): Promise<CodeIssuer> {
    const issuer = new CodeIssuer(base, apps, enrollees);
    // Log every enrollee in (a few at a time), through one consent for the first app.
    for (let i = 0; i < enrollees; i += 8) {
      const batch = issuer.browsers.slice(i, i + 8);
      await Promise.all(batch.map((browser, j) => authorizeOnce(base, apps[0]!, browser, i + j)));
    }
    return issuer;
  }

  /**
   * Issues up to `perApp` codes for each app (one per enrollee), all apps in parallel, until `budgetMs` runs
   * out (codes live only 60 s), then trims every pool to the shortest so that connections get equal shares.
   */
  async issue(perApp: number, budgetMs: number): Promise<CodePools> {
    const started = Date.now();
    const limit = Math.min(perApp, this.browsers.length);
    const pools = await Promise.all(
      this.apps.map(async (app) => {
        const pool: IssuedCode[] = [];
        while (pool.length < limit && Date.now() - started < budgetMs) {
          const n = pool.length;
          const { code, pkce } = await authorizeOnce(this.base, app, this.browsers[n]!, n);
          pool.push({ code, verifier: pkce.verifier, redirectUri: app.redirectUri, issuedAt: Date.now() });
        }
        return pool;
      }),
    );
    const shortest = Math.min(...pools.map((p) => p.length));
    for (const pool of pools) pool.length = shortest;
    const firstIssuedAt = pools.reduce(
      (first, pool) => Math.min(first, pool[0]?.issuedAt ?? first),
      Date.now(),
    );
    return { pools, firstIssuedAt, issueSeconds: (Date.now() - started) / 1000 };
  }
}
