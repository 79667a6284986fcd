import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as client from 'openid-client';
import { authorizeFromUrl, startPublicService } from '../helpers/sdk-flow.js';
import { createTestApp, type RunningService } from '../helpers/service.js';

/**
 * `openid-client` v6 (a strict, standards-following OAuth 2.0 / OIDC client) against the running service:
 * discovery with issuer validation, authorization code + PKCE, both secret-based client authentications,
 * refresh, revocation and a bearer call to userinfo. The server is plain http on loopback, so every
 * configuration allows insecure requests.
 */

const CALLBACK = 'http://127.0.0.1:3001/callback';
const SCOPE = 'patient/Patient.rs patient/Coverage.rs profile';
const PATIENT = '-19990000000001'; // BBUser00000

let running: RunningService;
before(async () => {
  running = await startPublicService();
});
after(() => running.close());

type TestApp = Awaited<ReturnType<typeof createTestApp>>;

interface Recorded {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

/** Records every request the configuration sends from now on (the auth method is asserted on the wire). */
function record(config: client.Configuration): Recorded[] {
  const calls: Recorded[] = [];
  config[client.customFetch] = (url, options) => {
    calls.push({
      url,
      method: options.method,
      headers: Object.fromEntries(Object.entries(options.headers).map(([k, v]) => [k.toLowerCase(), v])),
      body: options.body === undefined || options.body === null ? '' : String(options.body),
    });
    return fetch(url, options as RequestInit);
  };
  return calls;
}

async function discover(app: TestApp, auth?: client.ClientAuth, secret = app.clientSecret) {
  return client.discovery(new URL(running.url), app.clientId, secret, auth, {
    execute: [client.allowInsecureRequests],
  });
}

interface Authorized {
  callback: URL;
  verifier: string;
  state: string;
}

async function authorize(
  config: client.Configuration,
  o: { allow?: boolean; scope?: string } = {},
): Promise<Authorized> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: CALLBACK,
    scope: o.scope ?? SCOPE,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  assert.equal(url.origin + url.pathname, `${running.url}/v2/o/authorize/`);
  const { location } = await authorizeFromUrl(url, { allow: o.allow });
  return { callback: location, verifier, state };
}

function basicCredentials(header: string | undefined): [string, string] {
  if (!header?.startsWith('Basic ')) assert.fail(`expected HTTP Basic, got ${header}`);
  const decoded = Buffer.from(header.slice(6), 'base64').toString();
  const colon = decoded.indexOf(':');
  return [decodeURIComponent(decoded.slice(0, colon)), decodeURIComponent(decoded.slice(colon + 1))];
}

/** A library error whose code and underlying cause are as expected (its own message is generic). */
function clientError(code: string, cause: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof client.ClientError, String(error));
    assert.equal(error.code, code);
    assert.match(String((error.cause as Error | undefined)?.message), cause);
    return true;
  };
}

async function userinfo(config: client.Configuration, accessToken: string) {
  const response = await client.fetchProtectedResource(
    config,
    accessToken,
    new URL(`${running.url}/v2/connect/userinfo`),
    'GET',
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('openid-client against the service', () => {
  test('discovery: the issuer is the public URL and the metadata names our endpoints', async () => {
    const app = await createTestApp(running, { redirectUris: [CALLBACK] });
    const config = await discover(app);
    const meta = config.serverMetadata();
    assert.equal(meta.issuer, running.url);
    assert.equal(meta.authorization_endpoint, `${running.url}/v2/o/authorize/`);
    assert.equal(meta.token_endpoint, `${running.url}/v2/o/token/`);
    assert.equal(meta.userinfo_endpoint, `${running.url}/v2/connect/userinfo`);
    assert.equal(meta.revocation_endpoint, `${running.url}/v2/o/revoke_token/`);
    assert.deepEqual(meta.code_challenge_methods_supported, ['S256']);
    assert.ok(meta.supportsPKCE());
    assert.equal(meta.supportsPKCE('plain'), false);
    assert.deepEqual([...(meta.token_endpoint_auth_methods_supported ?? [])].sort(), [
      'client_secret_basic',
      'client_secret_post',
    ]);
    assert.deepEqual(meta.response_types_supported, ['code']);

    // The issuer check is real: a service whose PUBLIC_URL differs from the URL used is rejected.
    await assert.rejects(
      client.discovery(
        new URL(running.url.replace('127.0.0.1', 'localhost')),
        app.clientId,
        app.clientSecret,
        undefined,
        {
          execute: [client.allowInsecureRequests],
        },
      ),
      (error: Error) => /issuer/.test(error.message),
    );
  });

  test('code + PKCE with client_secret_post (the library default), userinfo, refresh, revocation', async () => {
    const app = await createTestApp(running, { redirectUris: [CALLBACK] });
    const config = await discover(app);
    const calls = record(config);
    const { callback, verifier, state } = await authorize(config);
    assert.equal(callback.origin + callback.pathname, CALLBACK);
    assert.equal(callback.searchParams.get('state'), state);

    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const exchange = calls.at(-1)!;
    assert.equal(exchange.url, `${running.url}/v2/o/token/`);
    assert.equal(exchange.headers.authorization, undefined);
    const form = new URLSearchParams(exchange.body);
    assert.equal(form.get('grant_type'), 'authorization_code');
    assert.equal(form.get('client_id'), app.clientId);
    assert.equal(form.get('client_secret'), app.clientSecret);
    assert.equal(form.get('code_verifier'), verifier);
    assert.equal(form.get('redirect_uri'), CALLBACK);

    assert.equal(tokens.token_type, 'bearer'); // lower-cased by the library
    assert.ok(tokens.access_token);
    assert.ok(tokens.refresh_token);
    assert.equal(tokens.id_token, undefined);
    assert.equal(tokens.patient, PATIENT);
    assert.deepEqual(tokens.scope?.split(' ').sort(), SCOPE.split(' ').sort());
    const expiresIn = tokens.expiresIn();
    assert.ok(expiresIn !== undefined && expiresIn > 35990 && expiresIn <= 36000, `expiresIn ${expiresIn}`);
    assert.match(String(tokens.access_grant_expiration), /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z$/);

    const info = await userinfo(config, tokens.access_token);
    assert.equal(info.status, 200);
    assert.equal(info.body.sub, PATIENT);
    assert.equal(info.body.patient, PATIENT);
    assert.equal(info.body.name, `${String(info.body.given_name)} ${String(info.body.family_name)}`);
    assert.equal(calls.at(-1)!.headers.authorization, `Bearer ${tokens.access_token}`);

    // The OIDC userinfo call works too: the response is JSON with a `sub` equal to the patient id.
    const oidcInfo = await client.fetchUserInfo(config, tokens.access_token, PATIENT);
    assert.equal(oidcInfo.sub, PATIENT);
    await assert.rejects(
      client.fetchUserInfo(config, tokens.access_token, 'someone-else'),
      clientError('OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED', /"sub"/),
    );

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    const refresh = new URLSearchParams(calls.at(-1)!.body);
    assert.equal(refresh.get('grant_type'), 'refresh_token');
    assert.equal(refresh.get('client_secret'), app.clientSecret);
    assert.ok(refreshed.access_token);
    assert.ok(refreshed.refresh_token);
    assert.notEqual(refreshed.access_token, tokens.access_token);
    assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
    assert.equal(refreshed.expires_in, 36000);
    assert.equal(refreshed.patient, PATIENT);
    assert.equal(refreshed.access_grant_expiration, tokens.access_grant_expiration);
    assert.equal((await userinfo(config, refreshed.access_token)).status, 200);

    // The spent refresh token is refused with the OAuth error body.
    await assert.rejects(client.refreshTokenGrant(config, tokens.refresh_token!), (error: unknown) => {
      assert.ok(error instanceof client.ResponseBodyError, String(error));
      assert.equal(error.status, 400);
      assert.equal(error.error, 'invalid_grant');
      return true;
    });

    // Revocation (RFC 7009) through the advertised endpoint; the token stops working at once.
    await client.tokenRevocation(config, refreshed.access_token);
    assert.equal(calls.at(-1)!.url, `${running.url}/v2/o/revoke_token/`);
    await assert.rejects(userinfo(config, refreshed.access_token), (error: unknown) => {
      assert.ok(error instanceof client.WWWAuthenticateChallengeError, String(error));
      assert.equal(error.status, 401);
      assert.equal(error.cause[0]?.scheme, 'bearer');
      return true;
    });
  });

  test('client_secret_basic: code exchange and refresh authenticate with HTTP Basic only', async () => {
    const app = await createTestApp(running, { redirectUris: [CALLBACK] });
    const config = await discover(app, client.ClientSecretBasic());
    const calls = record(config);
    const { callback, verifier, state } = await authorize(config);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const exchange = calls.at(-1)!;
    assert.deepEqual(basicCredentials(exchange.headers.authorization), [app.clientId, app.clientSecret]);
    const form = new URLSearchParams(exchange.body);
    assert.equal(form.has('client_secret'), false);
    assert.equal(form.has('client_id'), false);
    assert.equal(tokens.patient, PATIENT);
    assert.ok(tokens.refresh_token);

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    const refresh = calls.at(-1)!;
    assert.deepEqual(basicCredentials(refresh.headers.authorization), [app.clientId, app.clientSecret]);
    assert.equal(new URLSearchParams(refresh.body).has('client_secret'), false);
    assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
    const info = await userinfo(config, refreshed.access_token);
    assert.equal(info.status, 200);
    assert.equal(info.body.patient, PATIENT);
  });

  test('a wrong secret over HTTP Basic → 401 invalid_client with a Basic challenge (RFC 6749 §5.2)', async () => {
    const app = await createTestApp(running, { redirectUris: [CALLBACK] });
    const config = await discover(app, client.ClientSecretBasic(), 'wrong-secret');
    const { callback, verifier, state } = await authorize(config);
    let body: unknown;
    await assert.rejects(
      client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }),
      (error: unknown) => {
        // The library reads the WWW-Authenticate challenge the RFC requires and hands over the response.
        assert.ok(error instanceof client.WWWAuthenticateChallengeError, String(error));
        assert.equal(error.status, 401);
        assert.deepEqual(
          error.cause.map((c) => [c.scheme, c.parameters.realm]),
          [['basic', 'openenroll']],
        );
        body = error.response.json();
        return true;
      },
    );
    assert.deepEqual(await body, { error: 'invalid_client' });
  });

  test('a wrong PKCE verifier → invalid_grant', async () => {
    const app = await createTestApp(running, { redirectUris: [CALLBACK] });
    const config = await discover(app);
    const { callback, state } = await authorize(config);
    await assert.rejects(
      client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: client.randomPKCECodeVerifier(),
        expectedState: state,
      }),
      (error: unknown) => {
        assert.ok(error instanceof client.ResponseBodyError, String(error));
        assert.equal(error.status, 400);
        assert.equal(error.error, 'invalid_grant');
        return true;
      },
    );
  });

  test('Cancel on the consent page → the library reports access_denied', async () => {
    const app = await createTestApp(running, { redirectUris: [CALLBACK] });
    const config = await discover(app);
    const { callback, verifier, state } = await authorize(config, { allow: false });
    assert.equal(callback.searchParams.get('error'), 'access_denied');
    assert.equal(callback.searchParams.get('state'), state);
    await assert.rejects(
      client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }),
      (error: unknown) => {
        assert.ok(error instanceof client.AuthorizationResponseError, String(error));
        assert.equal(error.error, 'access_denied');
        return true;
      },
    );
  });

  test("scope `openid`: an ID token is issued and passes the library's checks (OIDC Core §3.1.3.7); none without it", async () => {
    const app = await createTestApp(running, { redirectUris: [CALLBACK] });
    const config = await discover(app);
    const first = await authorize(config, { scope: `openid ${SCOPE}` });
    const tokens = await client.authorizationCodeGrant(config, first.callback, {
      pkceCodeVerifier: first.verifier,
      expectedState: first.state,
      idTokenExpected: true,
    });
    assert.ok(tokens.id_token);
    assert.ok(tokens.scope?.split(' ').includes('openid'));
    assert.equal(tokens.patient, PATIENT);
    assert.equal(tokens.claims()?.sub, PATIENT);
    assert.equal(tokens.claims()?.aud, app.clientId);

    const second = await authorize(config);
    const plain = await client.authorizationCodeGrant(config, second.callback, {
      pkceCodeVerifier: second.verifier,
      expectedState: second.state,
    });
    assert.equal(plain.id_token, undefined);
  });
});
