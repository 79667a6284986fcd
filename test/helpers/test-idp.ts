import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Account, type OidcContext } from 'oidc-provider';
import { Browser } from './flow.js';

/**
 * A real OpenID Provider — node-oidc-provider 8 — in the test process on a loopback port, playing the
 * health plan's member identity provider: openenroll's client registered with a secret (HTTP Basic by
 * default) and PKCE required, members that sign in by their account id at its development login page
 * (any password), claims that point at sandbox Patients. Tests can rotate its signing key, make it
 * unreachable, and rewrite the ID token its token endpoint returns (re-signed), to prove each check.
 */

/** A member's claims beyond `sub` (the account id), e.g. `{ patient_id: '-19990000000002' }`. */
export type MemberClaims = Record<string, unknown>;

export interface TestIdpOptions {
  /** openenroll's callback URL(s): `PUBLIC_URL` + `/v2/accounts/idp/callback`. */
  redirectUris: string[];
  /** Account id (typed at the IdP's login page) → that member's claims. Unknown ids have only `sub`. */
  members: Record<string, MemberClaims>;
  /** Also put the profile claims in the ID token (oidc-provider's default: userinfo only). */
  claimsInIdToken?: boolean;
  authMethod?: 'client_secret_basic' | 'client_secret_post';
}

/** An ID token as the tamper hook sees it, and how to sign it back. */
export interface IdTokenParts {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  /** `idp`: with the IdP's current key (only the changed claims are wrong); `stranger`: a key it never published. */
  signWith?: 'idp' | 'stranger';
}

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The `IDP_*` settings that point a service at this IdP (linking by the `patient_id` claim by default). */
  env(link?: { memberIdClaim: string; system: string }): Record<string, string>;
  /** Requests served for a path (e.g. `/jwks`) since the start. */
  hits(path: string): number;
  /** A new signing key; the old one is no longer published (a rotation without overlap). */
  rotateKey(): void;
  /** From now on, every ID token of the token endpoint is rewritten by `change` (undefined: left alone). */
  tamperIdToken(change: ((parts: IdTokenParts) => IdTokenParts) | undefined): void;
  /** Stops listening and drops every connection: the IdP is unreachable until `resume()`. */
  stop(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
}

interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  jwk: Record<string, unknown>;
}

function newSigningKey(): SigningKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomBytes(8).toString('hex');
  return { kid, privateKey, jwk: { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' } };
}

const STRANGER = newSigningKey();

function encode(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** Re-signs rewritten ID-token parts (RS256) with the IdP's key or a stranger's. */
function resign(parts: IdTokenParts, key: SigningKey): string {
  const signer = parts.signWith === 'stranger' ? STRANGER : key;
  const input = `${encode({ ...parts.header, kid: key.kid })}.${encode(parts.claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), signer.privateKey).toString('base64url')}`;
}

function decode(jwt: string): IdTokenParts {
  const [header, claims] = jwt.split('.');
  const json = (part: string | undefined) =>
    JSON.parse(Buffer.from(part ?? '', 'base64url').toString()) as Record<string, unknown>;
  return { header: json(header), claims: json(claims) };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

export async function startTestIdp(options: TestIdpOptions): Promise<TestIdp> {
  const clientId = `openenroll-${randomBytes(4).toString('hex')}`;
  const clientSecret = randomBytes(32).toString('base64url');
  const hits = new Map<string, number>();
  let handler: ReturnType<Provider['callback']> | undefined;
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    handler!(request, response);
  });
  const port = await listen(server, 0);
  const issuer = `http://127.0.0.1:${port}`;
  let key = newSigningKey();
  let tamper: ((parts: IdTokenParts) => IdTokenParts) | undefined;

  const build = () => {
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: options.redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: options.authMethod ?? 'client_secret_basic',
        },
      ],
      async findAccount(_ctx: unknown, id: string): Promise<Account> {
        return { accountId: id, claims: async () => ({ ...options.members[id], sub: id }) };
      },
      claims: {
        openid: ['sub'],
        profile: ['name', 'given_name', 'family_name', 'patient_id', 'member_id'],
        email: ['email', 'email_verified'],
      },
      conformIdTokenClaims: !options.claimsInIdToken,
      features: { devInteractions: { enabled: true } },
      pkce: { required: () => true },
      jwks: { keys: [key.jwk] },
      // Lax, not oidc-provider's SameSite=None: over plain http (loopback) browsers drop None cookies.
      cookies: {
        keys: [randomBytes(16).toString('hex')],
        long: { sameSite: 'lax' },
        short: { sameSite: 'lax' },
      },
      ttl: {
        AccessToken: 600,
        AuthorizationCode: 60,
        Grant: 3600,
        IdToken: 600,
        Interaction: 600,
        Session: 3600,
      },
      // The plan's own relying party: no consent screen at the IdP (a grant is made on the spot).
      async loadExistingGrant(ctx: OidcContext) {
        const clientId = ctx.oidc.client!.clientId;
        const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session!.grantIdFor(clientId);
        if (grantId) return ctx.oidc.provider.Grant.find(grantId);
        const grant = new ctx.oidc.provider.Grant({ clientId, accountId: ctx.oidc.session!.accountId });
        grant.addOIDCScope('openid profile email');
        await grant.save();
        return grant;
      },
    });
    provider.use(async (ctx, next) => {
      await next();
      const body = ctx.body as { id_token?: unknown } | undefined;
      if (tamper && ctx.path === '/token' && typeof body?.id_token === 'string') {
        ctx.body = { ...body, id_token: resign(tamper(decode(body.id_token)), key) };
      }
    });
    handler = provider.callback();
  };
  build();

  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    issuer,
    clientId,
    clientSecret,
    env(link) {
      return {
        IDP_ISSUER: issuer,
        IDP_CLIENT_ID: clientId,
        IDP_CLIENT_SECRET: clientSecret,
        ...(link
          ? { IDP_MEMBER_ID_CLAIM: link.memberIdClaim, IDP_MEMBER_ID_SYSTEM: link.system }
          : { IDP_PATIENT_ID_CLAIM: 'patient_id' }),
      };
    },
    hits: (path) => hits.get(path) ?? 0,
    rotateKey() {
      key = newSigningKey();
      build();
    },
    tamperIdToken(change) {
      tamper = change;
    },
    stop,
    async resume() {
      await listen(server, port);
    },
    async close() {
      if (server.listening) await stop();
    },
  };
}

/** The login form of the IdP's development login page: its action. */
function formAction(html: string): string {
  const match = /<form[^>]*action="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no form on the IdP page: ${html.slice(0, 300)}`);
  return match[1]!;
}

/**
 * Plays the member at the IdP, with a cookie jar of the IdP's own: from the authorization URL openenroll
 * redirected to, through the login page (`login` typed as the account id, any password) — or its Cancel
 * link — to the redirect back to openenroll's callback, which is returned (not followed).
 */
export async function atIdp(
  authorizationUrl: string,
  action: { login: string } | 'cancel',
  callbackPrefix: string,
): Promise<URL> {
  const base = new URL(authorizationUrl).origin;
  const browser = new Browser(base);
  let url = authorizationUrl;
  for (let hop = 0; hop < 12; hop += 1) {
    if (url.startsWith(callbackPrefix)) return new URL(url);
    const response = await browser.get(url);
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, base).href;
      continue;
    }
    const html = await response.text();
    if (response.status !== 200) throw new Error(`IdP answered ${response.status} at ${url}: ${html}`);
    if (action === 'cancel') {
      url = new URL(`${new URL(url).pathname}/abort`, base).href;
      continue;
    }
    const submitted = await browser.postForm(new URL(formAction(html), base).pathname, {
      prompt: 'login',
      login: action.login,
      password: 'any password',
    });
    const next = submitted.headers.get('location');
    if (!next) throw new Error(`IdP login answered ${submitted.status}: ${await submitted.text()}`);
    url = new URL(next, base).href;
  }
  throw new Error('too many redirects at the IdP');
}
