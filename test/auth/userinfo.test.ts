import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';
import {
  assertJson,
  enrollee,
  HOUR,
  issueTokens,
  refresh,
  revoke,
  scopeSet,
  TEXT,
  userinfo,
  type TokenBody,
  whileInactive,
} from '../helpers/token-calls.js';

let running: RunningService;
before(async () => {
  running = await startService();
});
after(() => running.close());

const NOT_AUTHENTICATED = { detail: TEXT.notAuthenticated };
const CHALLENGE = 'Bearer realm="api"';

describe('GET /v2/connect/userinfo', () => {
  test('a token with profile: 200 with the enrollee, sub and patient = patient id', async () => {
    const app = await createTestApp(running);
    const before = running.clock.now();
    const issued = await issueTokens(running, app);
    const result = await userinfo(running.url, issued.access_token);
    const after = running.clock.now();
    assert.equal(result.status, 200, result.text);
    assert.match(result.headers.get('content-type') ?? '', /^application\/json/);
    const body = result.body as Record<string, unknown>;
    const iat = body.iat;
    assert.equal(typeof iat, 'string');
    assert.equal(new Date(iat as string).toISOString(), iat);
    const iatMs = Date.parse(iat as string);
    assert.ok(iatMs >= before && iatMs <= after, `iat ${String(iat)}`);
    delete body.iat;
    assert.deepEqual(body, {
      sub: enrollee(0).patientId,
      name: 'Jane Doe',
      given_name: 'Jane',
      family_name: 'Doe',
      email: 'bbuser00000@sandbox.example',
      patient: enrollee(0).patientId,
    });
  });

  test('a second enrollee sees their own identity', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app, { enrollee: 4 });
    const result = await userinfo(running.url, issued.access_token);
    assert.equal(result.status, 200, result.text);
    const body = result.body as Record<string, unknown>;
    assert.equal(body.sub, enrollee(4).patientId);
    assert.equal(body.patient, enrollee(4).patientId);
    assert.equal(body.given_name, 'Linda');
  });

  test('no token: 401 with WWW-Authenticate: Bearer realm="api"', async () => {
    const result = await userinfo(running.url, undefined);
    assertJson(result, 401, NOT_AUTHENTICATED);
    assert.equal(result.headers.get('www-authenticate'), CHALLENGE);
  });

  // docs/decisions.md#bearer-tokens: Blue Button's body, the reason in the RFC 6750 §3.1 challenge.
  test("an unknown token of our shape: 401, Blue Button's words, the reason in the challenge", async () => {
    const result = await userinfo(running.url, 'A'.repeat(43));
    assertJson(result, 401, NOT_AUTHENTICATED);
    assert.equal(
      result.headers.get('www-authenticate'),
      `${CHALLENGE}, error="invalid_token", error_description="The access token is invalid."`,
    );
  });

  test('a value that is no token of ours: 401 saying the token is invalid (RFC 6750 §3.1)', async () => {
    const result = await userinfo(running.url, 'not-a-token');
    assertJson(result, 401, { detail: TEXT.invalidToken });
    assert.ok(result.headers.get('www-authenticate')?.startsWith(`${CHALLENGE}, error="invalid_token"`));
  });

  test('the enrollee unchecked personal information: no profile scope, 403', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app, { share: false });
    assert.deepEqual(scopeSet(issued.scope), [
      'launch/patient',
      'openid',
      'patient/Coverage.rs',
      'patient/ExplanationOfBenefit.rs',
    ]);
    assertJson(await userinfo(running.url, issued.access_token), 403, { detail: TEXT.noPermission });
  });

  test('an app that does not collect personal information: 403', async () => {
    const app = await createTestApp(running, { requireDemographicScopes: false });
    const issued = await issueTokens(running, app);
    assert.equal(scopeSet(issued.scope).includes('profile'), false);
    assertJson(await userinfo(running.url, issued.access_token), 403, { detail: TEXT.noPermission });
  });

  test('the token in the query string: 400', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app);
    const query = `?access_token=${encodeURIComponent(issued.access_token)}`;
    const expected = {
      detail:
        'Using the access token in the query parameters is not supported. Use the Authorization header instead',
    };
    assertJson(await userinfo(running.url, undefined, { query }), 400, expected);
    assertJson(await userinfo(running.url, issued.access_token, { query }), 400, expected);
  });

  test('POST: 405', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app);
    assertJson(await userinfo(running.url, issued.access_token, { method: 'POST' }), 405, {
      detail: 'Method "POST" not allowed.',
    });
  });

  test('an inactive app: 401 with the inactive text; reactivated, 200', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app);
    await whileInactive(running, app, async () => {
      assertJson(await userinfo(running.url, issued.access_token), 401, {
        detail: TEXT.appInactive(app.app.name),
      });
    });
    assert.equal((await userinfo(running.url, issued.access_token)).status, 200);
  });

  test('a revoked token: 401', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app);
    const revoked = await revoke(running.url, app, issued.access_token, '/v2/o/revoke_token/');
    assert.equal(revoked.status, 200, revoked.text);
    assertJson(await userinfo(running.url, issued.access_token), 401, NOT_AUTHENTICATED);
  });

  // Moves the service clock; keep last in this suite.
  test('an access token works until its 10 hours are over, then 401; a refresh brings a working one', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app);
    running.clock.advance(10 * HOUR - 60_000);
    assert.equal((await userinfo(running.url, issued.access_token)).status, 200);
    running.clock.advance(60_000);
    const expired = await userinfo(running.url, issued.access_token);
    assertJson(expired, 401, NOT_AUTHENTICATED);
    assert.ok(expired.headers.get('www-authenticate')?.startsWith(CHALLENGE));
    const refreshed = await refresh(running.url, app, issued.refresh_token);
    assert.equal(refreshed.status, 200, refreshed.text);
    const info = await userinfo(running.url, (refreshed.body as TokenBody).access_token);
    assert.equal(info.status, 200, info.text);
  });
});

describe('discovery documents', () => {
  const PUBLIC_URL = 'https://sandbox.openenroll.test';
  let published: RunningService;
  before(async () => {
    published = await startService({ PUBLIC_URL });
  });
  after(() => published.close());

  async function document(path: string): Promise<Record<string, unknown>> {
    const response = await fetch(`${published.url}${path}`);
    assert.equal(response.status, 200, path);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    return (await response.json()) as Record<string, unknown>;
  }

  /** Each advertised endpoint is on PUBLIC_URL and answers on the running service (not 404). */
  async function assertServed(url: unknown, method: 'GET' | 'POST'): Promise<void> {
    assert.equal(typeof url, 'string');
    assert.ok((url as string).startsWith(`${PUBLIC_URL}/`), String(url));
    const local = `${published.url}${(url as string).slice(PUBLIC_URL.length)}`;
    const response = await fetch(local, { method, redirect: 'manual' });
    await response.arrayBuffer();
    assert.notEqual(response.status, 404, `${method} ${local}`);
  }

  test('/.well-known/openid-configuration', async () => {
    const doc = await document('/.well-known/openid-configuration');
    assert.equal(doc.issuer, PUBLIC_URL);
    assert.equal(doc.authorization_endpoint, `${PUBLIC_URL}/v2/o/authorize/`);
    assert.equal(doc.token_endpoint, `${PUBLIC_URL}/v2/o/token/`);
    assert.equal(doc.revocation_endpoint, `${PUBLIC_URL}/v2/o/revoke_token/`);
    assert.equal(doc.userinfo_endpoint, `${PUBLIC_URL}/v2/connect/userinfo`);
    assert.deepEqual(doc.code_challenge_methods_supported, ['S256']);
    assert.deepEqual([...(doc.token_endpoint_auth_methods_supported as string[])].sort(), [
      'client_secret_basic',
      'client_secret_post',
    ]);
    assert.deepEqual([...(doc.grant_types_supported as string[])].sort(), [
      'authorization_code',
      'refresh_token',
    ]);
    assert.deepEqual(doc.response_types_supported, ['code']);
    await assertServed(doc.authorization_endpoint, 'GET');
    await assertServed(doc.token_endpoint, 'POST');
    await assertServed(doc.revocation_endpoint, 'POST');
    await assertServed(doc.userinfo_endpoint, 'GET');
  });

  test('/.well-known/oauth-authorization-server (RFC 8414 §3): the same metadata for OAuth-only clients', async () => {
    const doc = await document('/.well-known/oauth-authorization-server');
    assert.deepEqual(doc, await document('/.well-known/openid-configuration'));
    // RFC 8414 §2: issuer, and the endpoints and methods a client needs.
    assert.equal(doc.issuer, PUBLIC_URL);
    assert.deepEqual(doc.response_types_supported, ['code']);
  });

  test('/v2/fhir/.well-known/smart-configuration', async () => {
    const doc = await document('/v2/fhir/.well-known/smart-configuration');
    assert.equal(doc.issuer, PUBLIC_URL);
    assert.equal(doc.authorization_endpoint, `${PUBLIC_URL}/v2/o/authorize/`);
    assert.equal(doc.token_endpoint, `${PUBLIC_URL}/v2/o/token/`);
    assert.equal(doc.revocation_endpoint, `${PUBLIC_URL}/v2/o/revoke_token/`);
    assert.deepEqual(doc.code_challenge_methods_supported, ['S256']);
    assert.deepEqual([...(doc.token_endpoint_auth_methods_supported as string[])].sort(), [
      'client_secret_basic',
      'client_secret_post',
    ]);
    assert.ok(Array.isArray(doc.capabilities));
    assert.ok((doc.capabilities as string[]).includes('client-confidential-symmetric'));
    assert.ok((doc.capabilities as string[]).includes('permission-offline'));
    assert.deepEqual(doc.response_types_supported, ['code']);
    await assertServed(doc.authorization_endpoint, 'GET');
    await assertServed(doc.token_endpoint, 'POST');
    await assertServed(doc.revocation_endpoint, 'POST');
  });
});
