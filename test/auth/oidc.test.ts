import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import * as client from 'openid-client';
import { registerApp } from '../../src/auth/oauth/registration.js';
import { createAppStore } from '../../src/auth/store/apps.js';
import type { Storage } from '../../src/storage/connect.js';
import { runCli } from '../helpers/cli.js';
import { authorizeThroughPages } from '../helpers/flow.js';
import { startTwoServers, stopServer, type ServerProcess } from '../helpers/processes.js';
import { decodeJwt, fetchJwks, verifiesWith, type Jwks } from '../helpers/jwt.js';
import { authorizeFromUrl, startPublicService } from '../helpers/sdk-flow.js';
import {
  createTestApp,
  createTestDatabase,
  type RunningService,
  type TestDatabase,
} from '../helpers/service.js';
import {
  assertJson,
  consent,
  exchange,
  refresh,
  type TestApp,
  type TokenBody,
} from '../helpers/token-calls.js';

/**
 * OpenID Connect Core 1.0, OpenID Connect Discovery 1.0, SMART App Launch 2.0 and the RFC 6749 details of
 * issue 16, against the running service; `openid-client` v6 in OIDC mode is the relying party.
 */

const CALLBACK = 'http://127.0.0.1:3001/callback';
const DATA = 'patient/Patient.rs patient/Coverage.rs profile';
const PATIENT = '-19990000000001'; // BBUser00000

let running: RunningService;
before(async () => {
  running = await startPublicService();
});
after(() => running.close());

async function discover(app: TestApp) {
  const config = await client.discovery(new URL(running.url), app.clientId, app.clientSecret, undefined, {
    execute: [client.allowInsecureRequests],
  });
  // Validate ID token signatures against jwks_uri too (the library skips it by default for the token
  // endpoint, OIDC Core §3.1.3.7 item 6, since the response comes straight from the server over TLS).
  client.enableNonRepudiationChecks(config);
  return config;
}

async function authorize(config: client.Configuration, scope: string, nonce?: string) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: CALLBACK,
    scope,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...(nonce === undefined ? {} : { nonce }),
  });
  const { location } = await authorizeFromUrl(url);
  return { callback: location, verifier, state };
}

function atHash(accessToken: string): string {
  return createHash('sha256').update(accessToken).digest().subarray(0, 16).toString('base64url');
}

describe('discovery (OIDC Discovery 1.0 §3; SMART App Launch 2.0 §2.1; RFC 7517 §5)', () => {
  test('openid-configuration names jwks_uri, RS256, public subjects, the code flow and the claims', async () => {
    const meta = (await (await fetch(`${running.url}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    assert.equal(meta.issuer, running.url);
    assert.equal(meta.jwks_uri, `${running.url}/.well-known/jwks.json`);
    assert.deepEqual(meta.id_token_signing_alg_values_supported, ['RS256']);
    assert.deepEqual(meta.subject_types_supported, ['public']);
    assert.deepEqual(meta.response_types_supported, ['code']);
    for (const claim of ['iss', 'sub', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'fhirUser']) {
      assert.ok((meta.claims_supported as string[]).includes(claim), claim);
    }
    for (const scope of ['openid', 'fhirUser', 'offline_access', 'launch/patient']) {
      assert.ok((meta.scopes_supported as string[]).includes(scope), scope);
    }
  });

  test('smart-configuration: each advertised capability exists; sso-openid-connect comes with jwks_uri', async () => {
    const smart = (await (
      await fetch(`${running.url}/v2/fhir/.well-known/smart-configuration`)
    ).json()) as Record<string, unknown>;
    assert.deepEqual([...(smart.capabilities as string[])].sort(), [
      'authorize-post',
      'client-confidential-symmetric',
      'context-standalone-patient',
      'launch-standalone',
      'permission-offline',
      'permission-patient',
      'permission-v1',
      'permission-v2',
      'sso-openid-connect',
    ]);
    assert.equal(smart.issuer, running.url);
    assert.equal(smart.jwks_uri, `${running.url}/.well-known/jwks.json`);
    assert.ok((smart.scopes_supported as string[]).includes('offline_access'));
  });

  test('the JWK Set holds public RSA keys only: no private member is ever published', async () => {
    const response = await fetch(`${running.url}/.well-known/jwks.json`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/jwk-set\+json/);
    const jwks = (await response.json()) as Jwks;
    assert.ok(jwks.keys.length >= 1);
    for (const key of jwks.keys) {
      assert.deepEqual(Object.keys(key).sort(), ['alg', 'e', 'kid', 'kty', 'n', 'use']);
      assert.equal(key.kty, 'RSA');
      assert.equal(key.use, 'sig');
    }
  });
});

describe('ID tokens through openid-client in OIDC mode (OIDC Core §3.1.2.1, §3.1.3.3, §3.1.3.7, §2)', () => {
  test('authorize with a nonce → code exchange → a signed ID token; its sub is the userinfo sub', async () => {
    const app = await createTestApp(running, { redirectUris: [CALLBACK] });
    const config = await discover(app);
    const nonce = client.randomNonce();
    const before = Math.floor(Date.now() / 1000);
    const { callback, verifier, state } = await authorize(config, `openid fhirUser ${DATA}`, nonce);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    // The library has checked the signature against jwks_uri, iss, aud, exp, iat and the nonce.
    const claims = tokens.claims()!;
    assert.equal(claims.iss, running.url);
    assert.equal(claims.aud, app.clientId);
    assert.equal(claims.nonce, nonce);
    assert.equal(claims.sub, PATIENT);
    assert.equal(claims.fhirUser, `${running.url}/v2/fhir/Patient/${PATIENT}`);
    assert.equal(claims.at_hash, atHash(tokens.access_token));
    assert.equal(claims.exp - claims.iat, 3600);
    assert.ok(typeof claims.auth_time === 'number' && claims.auth_time >= before - 1);
    assert.ok(claims.auth_time <= claims.iat);
    assert.equal(decodeJwt(tokens.id_token!).header.alg, 'RS256');
    // The same check without the library: node:crypto and the published keys.
    assert.ok(verifiesWith(tokens.id_token!, await fetchJwks(running.url)));

    // OIDC Core §5.3.2: the userinfo `sub` must be the ID token's; the library compares them.
    const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    assert.equal(info.sub, claims.sub);
  });

  test('a nonce the client did not send is caught by the library (the server returns what it got)', async () => {
    const app = await createTestApp(running, { redirectUris: [CALLBACK] });
    const config = await discover(app);
    const { callback, verifier, state } = await authorize(config, `openid ${DATA}`, client.randomNonce());
    await assert.rejects(
      client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: client.randomNonce(),
      }),
      (error: unknown) => error instanceof client.ClientError && /nonce/.test(String(error.cause ?? error)),
    );
  });

  test('without a nonce the ID token has none; without openid there is no ID token (OIDC Core §3.1.2.1)', async () => {
    const app = await createTestApp(running, { redirectUris: [CALLBACK] });
    const config = await discover(app);
    const first = await authorize(config, `openid ${DATA}`);
    const tokens = await client.authorizationCodeGrant(config, first.callback, {
      pkceCodeVerifier: first.verifier,
      expectedState: first.state,
      idTokenExpected: true,
    });
    assert.equal(tokens.claims()!.nonce, undefined);

    const second = await authorize(config, DATA);
    const plain = await client.authorizationCodeGrant(config, second.callback, {
      pkceCodeVerifier: second.verifier,
      expectedState: second.state,
    });
    assert.equal(plain.id_token, undefined);
  });

  test('offline_access (SMART permission-offline) → a refresh token; the refresh returns a new ID token (OIDC Core §12.2)', async () => {
    const app = await createTestApp(running, { redirectUris: [CALLBACK] });
    const config = await discover(app);
    const nonce = client.randomNonce();
    const { callback, verifier, state } = await authorize(config, `openid offline_access ${DATA}`, nonce);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    assert.ok(tokens.scope?.split(' ').includes('offline_access'));
    assert.ok(tokens.refresh_token);
    const first = tokens.claims()!;

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token);
    assert.ok(refreshed.access_token);
    assert.ok(refreshed.refresh_token);
    const again = refreshed.claims()!;
    assert.equal(again.sub, first.sub);
    assert.equal(again.aud, first.aud);
    assert.equal(again.auth_time, first.auth_time, 'auth_time is the original login');
    assert.equal(again.nonce, undefined, 'no nonce on a refreshed ID token');
    assert.equal(again.at_hash, atHash(refreshed.access_token));
  });

  test('offline_access from a `10 hours` app: accepted, not granted (no refresh token; RFC 6749 §3.3)', async () => {
    const app = await createTestApp(running, { redirectUris: [CALLBACK], dataAccessType: 'ONE_TIME' });
    const flow = await consent(running, app, { scope: `openid offline_access ${DATA}` });
    assert.ok(flow.code, flow.location.href);
    const response = await exchange(running.url, app, flow);
    assert.equal(response.status, 200, response.text);
    const body = response.body as TokenBody;
    assert.equal(body.scope.split(' ').includes('offline_access'), false);
    assert.equal(body.refresh_token, undefined);
    assert.ok(body.id_token);
  });
});

describe('token endpoint (RFC 6749 §5.1, §5.2)', () => {
  test('expires_in is an integer on every code exchange and refresh (§5.1)', async () => {
    const app = await createTestApp(running, { redirectUris: [CALLBACK] });
    for (let i = 0; i < 4; i++) {
      const response = await exchange(running.url, app, await consent(running, app));
      assert.equal(response.status, 200, response.text);
      const body = response.body as TokenBody;
      assert.ok(Number.isInteger(body.expires_in), `code exchange expires_in ${body.expires_in}`);
      assert.ok(body.expires_in >= 35990 && body.expires_in <= 36000);
      const next = await refresh(running.url, app, body.refresh_token);
      assert.equal(next.status, 200, next.text);
      assert.equal((next.body as TokenBody).expires_in, 36000);
    }
  });

  test('a redirect_uri other than the authorization request’s → invalid_grant (§4.1.3, §5.2)', async () => {
    const app = await createTestApp(running, { redirectUris: [CALLBACK] });
    const flow = await consent(running, app);
    assertJson(await exchange(running.url, app, flow, { redirect_uri: 'http://127.0.0.1:3001/other' }), 400, {
      error: 'invalid_grant',
      error_description: 'Mismatching redirect URI.',
    });
  });
});

describe('signing keys: rotation (OIDC Core §10.1.1) and the CLI', () => {
  test('`signing-keys rotate --help` explains the grace period and prints no key material', async () => {
    const help = await runCli(running.database.processUrl, ['signing-keys', 'rotate', '--help']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /stays published/);
    assert.match(help.stdout, /jwks\.json/);
  });

  test('rotation: the new key is published first, then signs; tokens of the old key verify until its grace ends', async () => {
    const app = await createTestApp(running, { redirectUris: [CALLBACK] });
    const issue = async (config: client.Configuration) => {
      const { callback, verifier, state } = await authorize(config, `openid ${DATA}`);
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: state,
        idTokenExpected: true,
      });
      return tokens.id_token!;
    };
    const before = await discover(app);
    const old = await issue(before);
    const oldKid = decodeJwt(old).header.kid as string;

    const rotated = await runCli(running.database.processUrl, ['signing-keys', 'rotate', '--json']);
    assert.equal(rotated.code, 0, rotated.stderr);
    const rotation = JSON.parse(rotated.stdout) as { kid: string; notBefore: number; retired: string[] };
    assert.notEqual(rotation.kid, oldKid);
    assert.deepEqual(rotation.retired, [oldKid]);
    assert.ok(rotation.notBefore >= Date.now() + 290_000, 'pre-published for 5 minutes');
    assert.doesNotMatch(rotated.stdout + rotated.stderr, /PRIVATE|BEGIN/);

    // Pre-publication: the new key is in the JWK Set at once, while the old one still signs.
    const published = await fetchJwks(running.url);
    assert.deepEqual(published.keys.map((k) => k.kid).sort(), [oldKid, rotation.kid].sort());
    assert.equal(decodeJwt(await issue(before)).header.kid, oldKid);
    const states = async () => {
      const listed = await runCli(running.database.processUrl, ['signing-keys', 'list', '--json']);
      assert.equal(listed.code, 0, listed.stderr);
      assert.doesNotMatch(listed.stdout, /PRIVATE|BEGIN/);
      const rows = JSON.parse(listed.stdout) as { kid: string; state: string }[];
      return Object.fromEntries(rows.map((k) => [k.kid, k.state]));
    };
    assert.deepEqual(await states(), { [rotation.kid]: 'next', [oldKid]: 'signing' });

    // Once its time has come the new key signs. (The CLI reads the real clock: move the service's past it.
    // A client whose key set was fetched since the rotation holds the new key: a fresh configuration.)
    running.clock.advance(301_000);
    const fresh = await issue(await discover(app)); // validated by the library against jwks_uri
    assert.equal(decodeJwt(fresh).header.kid, rotation.kid);
    const jwks = await fetchJwks(running.url);
    assert.deepEqual(jwks.keys.map((k) => k.kid).sort(), [oldKid, rotation.kid].sort());
    assert.ok(verifiesWith(old, jwks), 'the old key still verifies the ID tokens it signed');
    assert.ok(verifiesWith(fresh, jwks));

    // Once every ID token of the old key has expired (lifetime + margin), it is no longer published.
    running.clock.advance((3600 + 300) * 1000);
    assert.deepEqual(
      (await fetchJwks(running.url)).keys.map((k) => k.kid),
      [rotation.kid],
    );
  });
});

describe('two instances on one database agree on the keys', () => {
  let database: TestDatabase;
  let storage: Storage | undefined;
  let servers: ServerProcess[] = [];

  before(async () => {
    database = createTestDatabase();
    await (await database.open()).close();
    // Two real processes started at once, one public URL, as behind a load balancer.
    servers = await startTwoServers(database.processUrl, {
      SANDBOX_ENROLLEES: '2',
      SAMPLE_MARKET: 'false',
      PUBLIC_URL: 'https://openenroll.example',
    });
    storage = await database.open();
  });
  after(async () => {
    await Promise.all(servers.map(stopServer));
    await storage?.close();
    await database.drop();
  });

  test('the first key, generated on first need by both at once, is one key; a rotation is seen by both', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const [fromA, fromB] = await Promise.all([fetchJwks(a.url), fetchJwks(b.url)]);
    assert.equal(fromA.keys.length, 1);
    assert.deepEqual(fromA, fromB);

    const { app, clientSecret } = await registerApp(
      createAppStore(storage!.db),
      {
        name: `OIDC scale ${Date.now()}`,
        redirectUris: [CALLBACK],
        dataAccessType: 'THIRTEEN_MONTH',
        requireDemographicScopes: true,
      },
      Date.now(),
    );
    const testApp = { clientId: app.clientId, clientSecret, redirectUri: CALLBACK, app };
    const idTokenVia = async (server: ServerProcess) => {
      const flow = await authorizeThroughPages(server.url, {
        clientId: app.clientId,
        redirectUri: CALLBACK,
        scope: `openid ${DATA}`,
      });
      const response = await exchange(server.url, testApp, flow);
      assert.equal(response.status, 200, response.text);
      return (response.body as TokenBody).id_token!;
    };
    const beforeRotation = await idTokenVia(a);
    assert.equal(decodeJwt(beforeRotation).header.kid, fromA.keys[0]!.kid);
    assert.equal(decodeJwt(beforeRotation).claims.iss, 'https://openenroll.example');

    const rotated = await runCli(database.processUrl, ['signing-keys', 'rotate', '--now', '--json']);
    assert.equal(rotated.code, 0, rotated.stderr);
    const { kid } = JSON.parse(rotated.stdout) as { kid: string };
    // `--now`: no pre-publication. Neither instance restarts: the next ID token of either has the new kid.
    const afterOnA = await idTokenVia(a);
    const afterOnB = await idTokenVia(b);
    assert.equal(decodeJwt(afterOnA).header.kid, kid);
    assert.equal(decodeJwt(afterOnB).header.kid, kid);
    const [jwksA, jwksB] = await Promise.all([fetchJwks(a.url), fetchJwks(b.url)]);
    assert.deepEqual(jwksA, jwksB);
    assert.equal(jwksA.keys.length, 2);
    for (const token of [beforeRotation, afterOnA, afterOnB]) {
      assert.ok(verifiesWith(token, jwksA));
      assert.ok(verifiesWith(token, jwksB));
    }
  });
});
