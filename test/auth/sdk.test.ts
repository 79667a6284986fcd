import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BlueButton, type AuthorizationToken, type Environments } from 'cms-bluebutton-sdk';
import { authorizeFromUrl } from '../helpers/sdk-flow.js';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';

/**
 * The official Node SDK (`cms-bluebutton-sdk`), unchanged, against the running service
 * (docs/decisions.md#sdk-compatibility):
 * it builds the authorize URL itself (no trailing slash, no scope, raw redirect URI), posts the code exchange
 * form-urlencoded with the secret in the body, and refreshes with HTTP Basic plus `client_id` in the body.
 */

// The SDK sample app's callback (docs/decisions.md#sdk-compatibility); the SDK puts it into the authorize URL
// without encoding it.
const CALLBACK = 'http://localhost:3001/api/bluebutton/callback/';
const PATIENT = '-19990000000001'; // BBUser00000
const TEN_HOURS_MS = 36000 * 1000;
// The SDK's enums are exported as types only by its CommonJS build, so the names are spelled here.
const ACCESS_DENIED = 'Callback request beneficiary denied access to their data';

let running: RunningService;
before(async () => {
  running = await startService();
});
after(() => running.close());

type TestApp = Awaited<ReturnType<typeof createTestApp>>;

async function newApp(overrides: Parameters<typeof createTestApp>[1] = {}): Promise<TestApp> {
  return createTestApp(running, { redirectUris: [CALLBACK], ...overrides });
}

/** The SDK's authorize URL through login and consent (Connect), then its code exchange. */
async function connect(bb: BlueButton) {
  const authData = bb.generateAuthData();
  const { location } = await authorizeFromUrl(bb.generateAuthorizeUrl(authData));
  return bb.getAuthorizationToken(
    authData,
    location.searchParams.get('code') ?? undefined,
    location.searchParams.get('state') ?? undefined,
  );
}

function sdkFor(app: TestApp, clientSecret = app.clientSecret): BlueButton {
  const bb = new BlueButton({
    clientId: app.clientId,
    clientSecret,
    callbackUrl: app.redirectUri,
    version: '2',
    environment: 'LOCAL' as Environments,
    retrySettings: { total: 0, backoffFactor: 1, statusForcelist: [500, 502, 503, 504] },
  });
  assert.equal(bb.baseUrl, 'http://localhost:8000');
  bb.baseUrl = running.url;
  return bb;
}

/** The HTTP status and body of a rejected SDK call (the SDK lets axios errors through). */
async function httpFailure(promise: Promise<unknown>): Promise<{ status: number; data: unknown }> {
  try {
    await promise;
  } catch (error) {
    const response = (error as { response?: { status: number; data: unknown } }).response;
    assert.ok(response, `expected an HTTP error, got ${String(error)}`);
    return { status: response.status, data: response.data };
  }
  assert.fail('expected the SDK call to be rejected');
}

function assertTenHours(token: AuthorizationToken, before: number, after: number) {
  assert.equal(typeof token.expiresIn, 'number');
  assert.ok(token.expiresIn > 35990 && token.expiresIn <= 36000, `expires_in ${token.expiresIn}`);
  assert.ok(
    token.expiresAt >= before + TEN_HOURS_MS - 10_000 && token.expiresAt <= after + TEN_HOURS_MS,
    `expiresAt ${new Date(token.expiresAt).toISOString()}`,
  );
}

describe('cms-bluebutton-sdk against the service', () => {
  test('authorize URL → login + consent pages → code → token → refresh', async () => {
    const app = await newApp();
    const bb = sdkFor(app);
    const authData = bb.generateAuthData();
    const authorizeUrl = new URL(bb.generateAuthorizeUrl(authData));
    assert.equal(authorizeUrl.origin + authorizeUrl.pathname, `${running.url}/v2/o/authorize`);
    assert.equal(authorizeUrl.searchParams.get('redirect_uri'), CALLBACK);
    assert.equal(authorizeUrl.searchParams.has('scope'), false);

    const { location, consentHtml } = await authorizeFromUrl(authorizeUrl);
    assert.equal(location.origin + location.pathname, CALLBACK);
    assert.equal(location.searchParams.get('error'), null);
    const code = location.searchParams.get('code');
    const state = location.searchParams.get('state');
    assert.ok(code, 'the redirect carries a code');
    assert.equal(state, authData.state);
    assert.match(consentHtml, /name="csrf"/);

    const t0 = Date.now();
    const token = await bb.getAuthorizationToken(authData, code, state);
    const t1 = Date.now();
    assert.equal(token.tokenType, 'Bearer');
    assert.equal(token.patient, PATIENT);
    assert.ok(token.accessToken && token.accessToken.length >= 30, 'an access token');
    assert.ok(token.refreshToken && token.refreshToken.length >= 30, 'a refresh token');
    assert.notEqual(token.accessToken, token.refreshToken);
    assertTenHours(token, t0, t1);
    // No scope in the authorize URL → the app's default scopes; the server sends them space-delimited
    // (the SDK's `string[]` typing notwithstanding: it stores what it gets).
    const scopes = String(token.scope).split(' ');
    for (const s of [
      'profile',
      'patient/Patient.rs',
      'patient/Coverage.rs',
      'patient/ExplanationOfBenefit.rs',
    ]) {
      assert.ok(scopes.includes(s), `default scopes include ${s}: ${String(token.scope)}`);
    }

    // The code is single use: the SDK's second exchange is refused.
    const replay = await httpFailure(bb.getAuthorizationToken(authData, code, state));
    assert.equal(replay.status, 400);
    assert.equal((replay.data as { error?: string }).error, 'invalid_grant');
    // …and the tokens issued from it are revoked (RFC 6749 §4.1.2).
    const revoked = await bb.getCustomData('connect/userinfo', token);
    assert.equal(revoked.response?.status, 401);

    // A new consent for the same app and enrollee is needed, since the code replay revoked its tokens.
    const authData2 = bb.generateAuthData();
    const again = await authorizeFromUrl(bb.generateAuthorizeUrl(authData2));
    const fresh = await bb.getAuthorizationToken(
      authData2,
      again.location.searchParams.get('code') ?? undefined,
      again.location.searchParams.get('state') ?? undefined,
    );

    const r0 = Date.now();
    const refreshed = await bb.refreshAuthToken(fresh);
    const r1 = Date.now();
    assert.equal(refreshed.tokenType, 'Bearer');
    assert.equal(refreshed.patient, PATIENT);
    assert.ok(refreshed.accessToken);
    assert.ok(refreshed.refreshToken);
    assert.notEqual(refreshed.accessToken, fresh.accessToken);
    assert.notEqual(refreshed.refreshToken, fresh.refreshToken);
    assert.equal(refreshed.expiresIn, 36000);
    assertTenHours(refreshed, r0, r1);

    // The rotated-out refresh token is spent; the new one keeps working.
    const reused = await httpFailure(bb.refreshAuthToken(fresh));
    assert.equal(reused.status, 400);
    assert.deepEqual(reused.data, { error: 'invalid_grant' });
    const second = await bb.refreshAuthToken(refreshed);
    assert.notEqual(second.accessToken, refreshed.accessToken);
    assert.notEqual(second.refreshToken, refreshed.refreshToken);
  });

  test('userinfo through getCustomData / getProfileData, and on-demand refresh of an expired token', async () => {
    const app = await newApp();
    const bb = sdkFor(app);
    const token = await connect(bb);

    const custom = await bb.getCustomData('connect/userinfo', token);
    assert.equal(custom.token, token, 'no refresh for a live token');
    assert.ok(custom.response);
    assert.equal(custom.response.status, 200);
    assert.equal(custom.response.config.url, `${running.url}/v2/connect/userinfo`);
    const info = custom.response.data as Record<string, unknown>;
    assert.equal(info.patient, PATIENT);
    assert.equal(info.sub, PATIENT);
    assert.equal(typeof info.name, 'string');
    assert.equal(info.name, `${String(info.given_name)} ${String(info.family_name)}`);

    const profile = await bb.getProfileData(token);
    assert.equal(profile.response?.status, 200);
    assert.equal((profile.response?.data as Record<string, unknown>).patient, PATIENT);

    // The SDK refreshes by itself (HTTP Basic) when `expiresAt` has passed, then calls with the new token.
    const stale = Object.assign(Object.create(Object.getPrototypeOf(token)) as AuthorizationToken, token, {
      expiresAt: Date.now() - 1000,
    });
    const auto = await bb.getProfileData(stale);
    assert.notEqual(auto.token, stale);
    assert.notEqual(auto.token.accessToken, token.accessToken);
    assert.notEqual(auto.token.refreshToken, token.refreshToken);
    assert.equal(auto.response?.status, 200);
    assert.equal((auto.response?.data as Record<string, unknown>).patient, PATIENT);
    // That refresh rotated the refresh token: the old one is now spent.
    const reused = await httpFailure(bb.refreshAuthToken(token));
    assert.equal(reused.status, 400);
  });

  test('userinfo is refused when the enrollee withholds personal information', async () => {
    const app = await newApp();
    const bb = sdkFor(app);
    const authData = bb.generateAuthData();
    const { location, consentHtml } = await authorizeFromUrl(bb.generateAuthorizeUrl(authData), {
      share: false,
    });
    assert.match(consentHtml, /name="share_demographic_scopes"/);
    const token = await bb.getAuthorizationToken(
      authData,
      location.searchParams.get('code') ?? undefined,
      location.searchParams.get('state') ?? undefined,
    );
    const scopes = String(token.scope).split(' ');
    assert.equal(scopes.includes('profile'), false, String(token.scope));
    assert.equal(scopes.includes('patient/Patient.rs'), false, String(token.scope));
    assert.ok(scopes.includes('patient/Coverage.rs'), String(token.scope));
    const custom = await bb.getCustomData('connect/userinfo', token);
    assert.equal(custom.response?.status, 403);
    assert.deepEqual(custom.response?.data, { detail: 'You do not have permission to perform this action.' });
  });

  test('Cancel on the consent page → access_denied, and the SDK rejects it', async () => {
    const app = await newApp();
    const bb = sdkFor(app);
    const authData = bb.generateAuthData();
    const { location } = await authorizeFromUrl(bb.generateAuthorizeUrl(authData), { allow: false });
    assert.equal(location.origin + location.pathname, CALLBACK);
    assert.equal(location.searchParams.get('error'), 'access_denied');
    assert.equal(location.searchParams.get('code'), null);
    assert.equal(location.searchParams.get('state'), authData.state);
    await assert.rejects(
      bb.getAuthorizationToken(
        authData,
        location.searchParams.get('code') ?? undefined,
        location.searchParams.get('state') ?? undefined,
        location.searchParams.get('error') ?? undefined,
      ),
      (error: Error) => error.message === ACCESS_DENIED,
    );
  });

  test('a wrong client secret is refused at the token endpoint with 401 invalid_client', async () => {
    const app = await newApp();
    const good = sdkFor(app);
    const bad = sdkFor(app, 'not-the-secret');
    const authData = good.generateAuthData();
    const { location } = await authorizeFromUrl(good.generateAuthorizeUrl(authData));
    const code = location.searchParams.get('code') ?? undefined;
    const state = location.searchParams.get('state') ?? undefined;
    const refused = await httpFailure(bad.getAuthorizationToken(authData, code, state));
    assert.equal(refused.status, 401);
    assert.deepEqual(refused.data, { error: 'invalid_client' });
    // The failed attempt did not consume the code.
    const token = await good.getAuthorizationToken(authData, code, state);
    assert.equal(token.patient, PATIENT);
    // Refresh over HTTP Basic with the wrong secret is refused the same way.
    const refusedRefresh = await httpFailure(bad.refreshAuthToken(token));
    assert.equal(refusedRefresh.status, 401);
    assert.deepEqual(refusedRefresh.data, { error: 'invalid_client' });
  });

  test('a 10-hour app gets no refresh token', async () => {
    const app = await newApp({ dataAccessType: 'ONE_TIME' });
    const bb = sdkFor(app);
    const token = await connect(bb);
    assert.ok(token.accessToken);
    assert.equal(token.refreshToken, undefined);
    assert.equal(token.patient, PATIENT);
  });
});
