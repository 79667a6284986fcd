/**
 * Load preparation through the real pages (authorize → login → consent), reusing the test helpers:
 * token families for the refresh benchmark and pools of fresh authorization codes for the exchange one.
 */
import { authorizeThroughPages, Browser, postForm, type Pkce } from '../test/helpers/flow.js';
import type { RegisteredApp } from './server.js';

/** The sandbox enrollee every benchmark flow logs in as (public sandbox credentials). */
const USERNAME = 'BBUser00000';
const PASSWORD = 'PW00000!';

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

/** A browser logged in as the benchmark enrollee (the first authorize goes through the login page). */
async function authorizeOnce(
  base: string,
  app: RegisteredApp,
  browser: Browser,
): Promise<{ code: string; pkce: Pkce }> {
  const result = await authorizeThroughPages(
    base,
    { clientId: app.clientId, redirectUri: app.redirectUri, username: USERNAME, password: PASSWORD },
    browser,
  );
  if (!result.code) throw new Error(`consent gave no code: ${result.location.toString()}`);
  return { code: result.code, pkce: result.pkce };
}

/** One live token family per app, each obtained by consent and a code exchange (one logged-in browser). */
export async function prepareFamilies(base: string, apps: RegisteredApp[]): Promise<TokenFamily[]> {
  const browser = new Browser(base);
  const families: TokenFamily[] = [];
  for (const app of apps) {
    const { code, pkce } = await authorizeOnce(base, app, browser);
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
    const body = exchanged.body as { refresh_token?: string };
    if (exchanged.status !== 200 || !body.refresh_token) {
      throw new Error(`code exchange answered ${exchanged.status}: ${exchanged.text}`);
    }
    families.push({ app, authorization: basicAuthorization(app), refreshToken: body.refresh_token });
  }
  return families;
}

export interface CodePools {
  /** `pools[i]` holds codes for `apps[i]`, oldest first; all pools have the same length. */
  pools: IssuedCode[][];
  /** When the first code was issued (they live 60 s from then). */
  firstIssuedAt: number;
  issueSeconds: number;
}

/** One browser per app, logged in once (password hashing is slow on purpose), reused for every round. */
export class CodeIssuer {
  private readonly browsers: Browser[];

  private constructor(
    private readonly base: string,
    private readonly apps: RegisteredApp[],
  ) {
    this.browsers = apps.map(() => new Browser(base));
  }

  static async start(base: string, apps: RegisteredApp[]): Promise<CodeIssuer> {
    const issuer = new CodeIssuer(base, apps);
    await Promise.all(apps.map((app, i) => authorizeOnce(base, app, issuer.browsers[i]!)));
    return issuer;
  }

  /**
   * Issues up to `perApp` codes for each app, all apps in parallel, until `budgetMs` runs out (codes live
   * only 60 s), then trims every pool to the shortest so that connections get equal shares.
   */
  async issue(perApp: number, budgetMs: number): Promise<CodePools> {
    const started = Date.now();
    const pools = await Promise.all(
      this.apps.map(async (app, i) => {
        const pool: IssuedCode[] = [];
        while (pool.length < perApp && Date.now() - started < budgetMs) {
          const { code, pkce } = await authorizeOnce(this.base, app, this.browsers[i]!);
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
