import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Browser, pkce, postForm } from '../helpers/flow.js';
import { startServiceWithLogs, type LoggedService } from '../helpers/logged-service.js';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';
import {
  assertFormattedBetween,
  assertJson,
  basicOf,
  consent,
  DEFAULT_SCOPES,
  enrollee,
  exchange,
  HOUR,
  monthsLater,
  refresh,
  revoke,
  scopeSet,
  TEXT,
  userinfo,
  type TestApp,
  type TokenBody,
  inactiveClientBody,
  whileInactive,
} from '../helpers/token-calls.js';

let running: RunningService;
before(async () => {
  running = await startService();
});
after(() => running.close());

const tokenUrl = () => `${running.url}/v2/o/token/`;
const INVALID_GRANT = '{"error":"invalid_grant"}';

/** Code-exchange form without client credentials; callers add them in the body or by Basic. */
function codeForm(app: TestApp, flow: { code: string | null; pkce: { verifier: string } }) {
  return {
    grant_type: 'authorization_code',
    code: flow.code!,
    redirect_uri: app.redirectUri,
    code_verifier: flow.pkce.verifier,
  };
}

describe('code exchange: the token response by access category', () => {
  // The documented fields, by category: docs/decisions.md#token-response.
  test('13 months: all documented fields; the grant expires 13 calendar months after consent', async () => {
    const app = await createTestApp(running, { dataAccessType: 'THIRTEEN_MONTH' });
    const beforeConsent = running.clock.now();
    const flow = await consent(running, app);
    const afterConsent = running.clock.now();
    const response = await exchange(running.url, app, flow);
    assert.equal(response.status, 200, response.text);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const body = response.body as TokenBody;
    // `id_token`: the default scopes hold `openid` (OIDC Core §3.1.3.3).
    assert.deepEqual(Object.keys(body).sort(), [
      'access_grant_expiration',
      'access_token',
      'expires_in',
      'id_token',
      'patient',
      'refresh_token',
      'scope',
      'token_type',
    ]);
    // RFC 6749 §5.1: an integer number of seconds.
    assert.ok(Number.isInteger(body.expires_in), `expires_in ${body.expires_in}`);
    assert.ok(body.expires_in > 0 && body.expires_in <= 36000, `expires_in ${body.expires_in}`);
    assert.equal(body.token_type, 'Bearer');
    assert.deepEqual(scopeSet(body.scope), DEFAULT_SCOPES);
    assert.equal(body.patient, enrollee(0).patientId);
    assert.equal(typeof body.access_token, 'string');
    assert.equal(typeof body.refresh_token, 'string');
    assert.ok(body.access_token.length >= 20);
    assert.notEqual(body.access_token, body.refresh_token);
    assertFormattedBetween(
      body.access_grant_expiration,
      monthsLater(beforeConsent, 13),
      monthsLater(afterConsent, 13),
      'access_grant_expiration',
    );
    const info = await userinfo(running.url, body.access_token);
    assert.equal(info.status, 200, info.text);
  });

  test('10 hours: no refresh token; access_grant_expiration is the access token expiry', async () => {
    const app = await createTestApp(running, { dataAccessType: 'ONE_TIME' });
    const flow = await consent(running, app, { enrollee: 1 });
    const beforeExchange = running.clock.now();
    const response = await exchange(running.url, app, flow);
    const afterExchange = running.clock.now();
    assert.equal(response.status, 200, response.text);
    const body = response.body as TokenBody;
    assert.deepEqual(Object.keys(body).sort(), [
      'access_grant_expiration',
      'access_token',
      'expires_in',
      'id_token',
      'patient',
      'scope',
      'token_type',
    ]);
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.patient, enrollee(1).patientId);
    assert.ok(body.expires_in > 0 && body.expires_in <= 36000, `expires_in ${body.expires_in}`);
    assertFormattedBetween(
      body.access_grant_expiration,
      beforeExchange + 36000 * 1000,
      afterExchange + 36000 * 1000,
      'access_grant_expiration',
    );
  });

  test('Research: refresh token, no access_grant_expiration', async () => {
    const app = await createTestApp(running, { dataAccessType: 'RESEARCH_STUDY' });
    const response = await exchange(running.url, app, await consent(running, app, { enrollee: 2 }));
    assert.equal(response.status, 200, response.text);
    const body = response.body as TokenBody;
    assert.deepEqual(Object.keys(body).sort(), [
      'access_token',
      'expires_in',
      'id_token',
      'patient',
      'refresh_token',
      'scope',
      'token_type',
    ]);
    assert.equal(body.patient, enrollee(2).patientId);
    assert.ok(body.expires_in > 0 && body.expires_in <= 36000);
  });
});

describe('code exchange: client authentication', () => {
  test('credentials in the body only', async () => {
    const app = await createTestApp(running);
    const flow = await consent(running, app);
    const response = await postForm(tokenUrl(), {
      ...codeForm(app, flow),
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    assert.equal(response.status, 200, response.text);
  });

  test('HTTP Basic only', async () => {
    const app = await createTestApp(running);
    const flow = await consent(running, app);
    const response = await postForm(tokenUrl(), codeForm(app, flow), basicOf(app));
    assert.equal(response.status, 200, response.text);
  });

  test('HTTP Basic and body together when they agree', async () => {
    const app = await createTestApp(running);
    const flow = await consent(running, app);
    const response = await postForm(
      tokenUrl(),
      { ...codeForm(app, flow), client_id: app.clientId, client_secret: app.clientSecret },
      basicOf(app),
    );
    assert.equal(response.status, 200, response.text);
  });

  test('failed client authentications answer exactly and leave the code usable', async () => {
    const app = await createTestApp(running);
    const other = await createTestApp(running);
    const flow = await consent(running, app);
    const form = codeForm(app, flow);

    const disagreeingId = await postForm(
      tokenUrl(),
      { ...form, client_id: other.clientId, client_secret: app.clientSecret },
      basicOf(app),
    );
    assert.equal(disagreeingId.status, 400, disagreeingId.text);
    assert.equal((disagreeingId.body as { error: string }).error, 'invalid_request');

    const disagreeingSecret = await postForm(
      tokenUrl(),
      { ...form, client_id: app.clientId, client_secret: other.clientSecret },
      basicOf(app),
    );
    assert.equal(disagreeingSecret.status, 400, disagreeingSecret.text);
    assert.equal((disagreeingSecret.body as { error: string }).error, 'invalid_request');

    const badSecretBody = await postForm(tokenUrl(), {
      ...form,
      client_id: app.clientId,
      client_secret: 'not-the-secret',
    });
    assert.equal(badSecretBody.status, 401);
    assert.equal(badSecretBody.text, '{"error":"invalid_client"}');

    const badSecretBasic = await postForm(tokenUrl(), form, { id: app.clientId, secret: 'not-the-secret' });
    assert.equal(badSecretBasic.status, 401);
    assert.equal(badSecretBasic.text, '{"error":"invalid_client"}');
    // RFC 6749 §5.2: a client that used the Authorization header is challenged with its scheme; one that
    // sent its credentials in the body is not.
    assert.equal(badSecretBasic.headers.get('www-authenticate'), 'Basic realm="openenroll"');
    assert.equal(badSecretBody.headers.get('www-authenticate'), null);

    const noSecret = await postForm(tokenUrl(), { ...form, client_id: app.clientId });
    assert.equal(noSecret.status, 401);
    assert.equal(noSecret.text, '{"error":"invalid_client"}');

    const otherSecret = await postForm(tokenUrl(), form, { id: app.clientId, secret: other.clientSecret });
    assert.equal(otherSecret.status, 401);
    assert.equal(otherSecret.text, '{"error":"invalid_client"}');

    assertJson(await postForm(tokenUrl(), form), 401, {
      status_code: 401,
      error: 'invalid_client',
      error_description: 'App id failed',
    });
    // Any problem with client credentials is 401 invalid_client (docs/decisions.md#client-authentication).
    assertJson(
      await postForm(tokenUrl(), { ...form, client_id: 'no-such-client', client_secret: 'x' }),
      401,
      {
        status_code: 401,
        error: 'invalid_client',
        error_description: 'Application does not exist',
      },
    );
    const unknownBasic = await postForm(tokenUrl(), form, { id: 'no-such-client', secret: 'x' });
    assert.equal(unknownBasic.headers.get('www-authenticate'), 'Basic realm="openenroll"');
    assertJson(unknownBasic, 401, {
      status_code: 401,
      error: 'invalid_client',
      error_description: 'Application does not exist',
    });

    // None of these spent the code.
    const ok = await postForm(tokenUrl(), form, basicOf(app));
    assert.equal(ok.status, 200, ok.text);
  });

  test('an inactive app is refused with 401; reactivated, its code works', async () => {
    const app = await createTestApp(running);
    const flow = await consent(running, app);
    await whileInactive(running, app, async () => {
      const refused = await postForm(tokenUrl(), codeForm(app, flow), basicOf(app));
      assertJson(refused, 401, inactiveClientBody(app));
    });
    const ok = await postForm(tokenUrl(), codeForm(app, flow), basicOf(app));
    assert.equal(ok.status, 200, ok.text);
  });
});

describe('code exchange: request encodings and paths', () => {
  test('multipart/form-data is accepted', async () => {
    const app = await createTestApp(running);
    const flow = await consent(running, app);
    const form = new FormData();
    for (const [k, v] of Object.entries({
      ...codeForm(app, flow),
      client_id: app.clientId,
      client_secret: app.clientSecret,
    })) {
      form.append(k, v);
    }
    const response = await fetch(tokenUrl(), { method: 'POST', body: form });
    const text = await response.text();
    assert.equal(response.status, 200, text);
    const body = JSON.parse(text) as TokenBody;
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.patient, enrollee(0).patientId);
  });

  test('a JSON body is refused with 400 invalid_request', async () => {
    const app = await createTestApp(running);
    const flow = await consent(running, app);
    const response = await fetch(tokenUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        ...codeForm(app, flow),
        client_id: app.clientId,
        client_secret: app.clientSecret,
      }),
    });
    const body = (await response.json()) as Record<string, unknown>;
    assert.equal(response.status, 400);
    assert.equal(body.error, 'invalid_request');
    assert.equal(typeof body.error_description, 'string');
    assert.deepEqual(Object.keys(body).sort(), ['error', 'error_description']);
  });

  test('the token endpoint answers without the trailing slash too', async () => {
    const app = await createTestApp(running);
    const flow = await consent(running, app);
    const response = await postForm(`${running.url}/v2/o/token`, codeForm(app, flow), basicOf(app));
    assert.equal(response.status, 200, response.text);
    assert.equal((response.body as TokenBody).token_type, 'Bearer');
  });
});

describe('code exchange: the code and its PKCE binding', () => {
  test('a code used twice: invalid_grant, and the tokens issued from it stop working', async () => {
    const app = await createTestApp(running);
    const flow = await consent(running, app);
    const first = await exchange(running.url, app, flow);
    assert.equal(first.status, 200, first.text);
    const tokens = first.body as TokenBody;
    assert.equal((await userinfo(running.url, tokens.access_token)).status, 200);

    const second = await exchange(running.url, app, flow);
    assert.equal(second.status, 400);
    assert.equal(second.text, INVALID_GRANT);

    const refreshed = await refresh(running.url, app, tokens.refresh_token);
    assert.equal(refreshed.status, 400);
    assert.equal(refreshed.text, INVALID_GRANT);
    assertJson(await userinfo(running.url, tokens.access_token), 401, { detail: TEXT.notAuthenticated });
  });

  test('one code sent twice at once: exactly one exchange succeeds', async () => {
    const app = await createTestApp(running);
    const flow = await consent(running, app);
    const results = await Promise.all([exchange(running.url, app, flow), exchange(running.url, app, flow)]);
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 400], results.map((r) => r.text).join('\n'));
    assert.equal(results.find((r) => r.status === 400)!.text, INVALID_GRANT);
  });

  test('an unknown code: invalid_grant', async () => {
    const app = await createTestApp(running);
    const flow = await consent(running, app);
    const response = await exchange(running.url, app, { ...flow, code: 'not-a-code' });
    assert.equal(response.status, 400);
    assert.equal(response.text, INVALID_GRANT);
  });

  test('a redirect_uri other than the authorize one: invalid_grant (RFC 6749 §4.1.3, §5.2); left out: invalid_request', async () => {
    const app = await createTestApp(running);
    const flow = await consent(running, app);
    assertJson(await exchange(running.url, app, flow, { redirect_uri: 'http://127.0.0.1:3001/other' }), 400, {
      error: 'invalid_grant',
      error_description: 'Mismatching redirect URI.',
    });
    const form: Record<string, string> = { ...codeForm(app, flow) };
    delete form.redirect_uri;
    assertJson(await postForm(tokenUrl(), form, basicOf(app)), 400, {
      error: 'invalid_request',
      error_description: 'Missing redirect URI.',
    });
  });

  test('authorize without redirect_uri (one registered): the token request may leave it out too', async () => {
    const app = await createTestApp(running);
    const flow = await consent(running, app, { redirectUri: '' });
    assert.equal(
      `${flow.location.origin}${flow.location.pathname}`,
      app.redirectUri,
      'sent to the registered URI',
    );
    const form: Record<string, string> = { ...codeForm(app, flow) };
    delete form.redirect_uri;
    const ok = await postForm(tokenUrl(), form, basicOf(app));
    assert.equal(ok.status, 200, ok.text);

    const again = await consent(running, app, { redirectUri: '' });
    const wrong = await postForm(
      tokenUrl(),
      { ...codeForm(app, again), redirect_uri: 'http://127.0.0.1:3001/other' },
      basicOf(app),
    );
    assertJson(wrong, 400, { error: 'invalid_grant', error_description: 'Mismatching redirect URI.' });
  });

  test('no code_verifier: Code verifier required.', async () => {
    const app = await createTestApp(running);
    const flow = await consent(running, app);
    const form: Record<string, string> = { ...codeForm(app, flow) };
    delete form.code_verifier;
    assertJson(await postForm(tokenUrl(), form, basicOf(app)), 400, {
      error: 'invalid_request',
      error_description: 'Code verifier required.',
    });
  });

  test('a wrong code_verifier: invalid_grant', async () => {
    const app = await createTestApp(running);
    const flow = await consent(running, app);
    const response = await exchange(running.url, app, flow, { code_verifier: pkce().verifier });
    assert.equal(response.status, 400);
    assert.equal(response.text, INVALID_GRANT);
  });

  test('a code whose exchange failed a verifier is spent: the right verifier then gets invalid_grant', async () => {
    const app = await createTestApp(running);
    const flow = await consent(running, app);
    const wrong = await exchange(running.url, app, flow, { code_verifier: pkce().verifier });
    assert.equal(wrong.text, INVALID_GRANT);
    const right = await exchange(running.url, app, flow);
    assert.equal(right.status, 400);
    assert.equal(right.text, INVALID_GRANT);
  });

  test('a code_verifier of 42 or 129 characters: 400 invalid_grant with the length rule', async () => {
    const app = await createTestApp(running);
    const flow = await consent(running, app);
    assertJson(await exchange(running.url, app, flow, { code_verifier: 'a'.repeat(42) }), 400, {
      error: 'invalid_grant',
      error_description: 'code_verifier min length is 43',
    });
    assertJson(await exchange(running.url, app, flow, { code_verifier: 'a'.repeat(129) }), 400, {
      error: 'invalid_grant',
      error_description: 'code_verifier max length is 128',
    });
  });

  test('verifiers of 43 and 128 characters and a =-padded challenge are accepted', async () => {
    const app = await createTestApp(running);
    for (const verifier of [
      randomBytes(32).toString('base64url').slice(0, 43),
      randomBytes(96).toString('base64url').slice(0, 128),
    ]) {
      assert.ok(verifier.length === 43 || verifier.length === 128);
      const challenge = `${createHash('sha256').update(verifier).digest('base64url')}=`;
      const flow = await consent(running, app, { pkce: { verifier, challenge } });
      const response = await exchange(running.url, app, flow);
      assert.equal(response.status, 200, `verifier of ${verifier.length}: ${response.text}`);
    }
  });

  test("another client's code: invalid_grant", async () => {
    const owner = await createTestApp(running);
    const thief = await createTestApp(running);
    const flow = await consent(running, owner);
    const response = await postForm(tokenUrl(), codeForm(owner, flow), basicOf(thief));
    assert.equal(response.status, 400);
    assert.equal(response.text, INVALID_GRANT);
  });

  test('an unsupported grant_type: exactly {"error":"unsupported_grant_type"}', async () => {
    const app = await createTestApp(running);
    for (const grantType of ['password', 'client_credentials', 'implicit']) {
      const response = await postForm(tokenUrl(), { grant_type: grantType }, basicOf(app));
      assert.equal(response.status, 400, grantType);
      assert.equal(response.text, '{"error":"unsupported_grant_type"}');
    }
  });

  test('no grant_type: 400 invalid_request', async () => {
    const app = await createTestApp(running);
    const response = await postForm(tokenUrl(), {}, basicOf(app));
    assert.equal(response.status, 400);
    assert.equal((response.body as { error: string }).error, 'invalid_request');
  });
});

// Tests below move the service clock forward; everything above runs on an unmoved clock.
describe('code exchange on a moved clock', () => {
  test('a code older than 60 seconds: invalid_grant', async () => {
    const app = await createTestApp(running);
    const flow = await consent(running, app);
    running.clock.advance(61_000);
    const response = await exchange(running.url, app, flow);
    assert.equal(response.status, 400);
    assert.equal(response.text, INVALID_GRANT);
  });

  test('expires_in and access_grant_expiration follow the service clock', async () => {
    running.clock.advance(5 * HOUR);
    const app = await createTestApp(running, { dataAccessType: 'ONE_TIME' });
    const flow = await consent(running, app, { enrollee: 3 });
    const beforeExchange = running.clock.now();
    const response = await exchange(running.url, app, flow);
    const afterExchange = running.clock.now();
    assert.equal(response.status, 200, response.text);
    const body = response.body as TokenBody;
    assert.ok(Number.isInteger(body.expires_in), `expires_in ${body.expires_in}`);
    assert.ok(body.expires_in > 0 && body.expires_in <= 36000, `expires_in ${body.expires_in}`);
    assertFormattedBetween(
      body.access_grant_expiration,
      beforeExchange + 36000 * 1000,
      afterExchange + 36000 * 1000,
      'access_grant_expiration',
    );
  });
});

describe('security: what the logs hold', () => {
  let logged: LoggedService;
  before(async () => {
    logged = await startServiceWithLogs();
  });
  after(() => logged.close());

  test('no raw token, code, verifier, password or client secret is logged; audit events are', async () => {
    const app = await createTestApp(logged);
    const who = enrollee(0);
    const flow = await consent(logged, app);
    const issued = await exchange(logged.url, app, flow);
    assert.equal(issued.status, 200, issued.text);
    const first = issued.body as TokenBody;
    const refreshed = await refresh(logged.url, app, first.refresh_token);
    assert.equal(refreshed.status, 200, refreshed.text);
    const second = refreshed.body as TokenBody;
    const queryToken = await userinfo(logged.url, second.access_token, {
      query: `?access_token=${encodeURIComponent(second.access_token)}`,
    });
    assert.equal(queryToken.status, 400);
    assert.equal((await userinfo(logged.url, second.access_token)).status, 200);
    const failed = await postForm(
      `${logged.url}/v2/o/token/`,
      { grant_type: 'refresh_token' },
      {
        id: app.clientId,
        secret: `${app.clientSecret}x`,
      },
    );
    assert.equal(failed.status, 401);
    const revoked = await revoke(logged.url, app, second.access_token);
    assert.equal(revoked.status, 200, revoked.text);

    const secrets = {
      access_token: first.access_token,
      refresh_token: first.refresh_token!,
      refreshed_access_token: second.access_token,
      refreshed_refresh_token: second.refresh_token!,
      client_secret: app.clientSecret,
      code: flow.code!,
      code_verifier: flow.pkce.verifier,
      password: who.password,
    };
    const all = logged.lines.join('');
    assert.ok(all.length > 0, 'the service logged nothing');
    for (const [name, value] of Object.entries(secrets)) {
      assert.ok(value.length >= 8, name);
      assert.equal(all.includes(value), false, `${name} appears in the logs`);
      assert.equal(
        all.includes(encodeURIComponent(value)),
        false,
        `${name} (URL-encoded) appears in the logs`,
      );
    }
    const events = new Set(logged.records().map((r) => r.event));
    for (const event of ['consent', 'token_issued', 'token_refreshed', 'revoke', 'client_auth_failed']) {
      assert.ok(events.has(event), `no ${event} audit event in the logs`);
    }
    // The request with ?access_token= was logged, with the token redacted.
    assert.ok(
      logged.records().some((r) => JSON.stringify(r).includes('/v2/connect/userinfo?access_token=')),
      'the userinfo request line is missing',
    );
  });

  test("an app's state and nonce, nested in the login page's next, and key-like parameters are redacted", async () => {
    const app = await createTestApp(logged);
    const state = `state-${randomBytes(12).toString('hex')}`;
    const nonce = `nonce-${randomBytes(12).toString('hex')}`;
    const query = new URLSearchParams({
      client_id: app.clientId,
      redirect_uri: app.redirectUri,
      response_type: 'code',
      state,
      nonce,
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    const browser = new Browser(logged.url);
    const authorize = await browser.get(`/v2/o/authorize/?${query}`);
    assert.equal(authorize.status, 302);
    const login = await browser.get(authorize.headers.get('location')!);
    assert.equal(login.status, 200);
    const keys = ['APIKEY', 'apiKey', 'apikey%00', 'api_key'].map((name, i) => [name, `k3y${i}${nonce}`]);
    const plans = await fetch(`${logged.url}/api/v1/states?${keys.map(([n, v]) => `${n}=${v}`).join('&')}`);
    await plans.arrayBuffer();

    const all = logged.lines.join('');
    assert.ok(all.includes('/v2/accounts/login?next='), 'the login request line is missing');
    // The secrets' own characters survive any number of URL encodings: search for them raw.
    for (const [name, value] of [['state', state], ['nonce', nonce], ...keys] as [string, string][]) {
      assert.equal(all.includes(value.slice(6)), false, `${name} appears in the logs`);
    }
  });
});
