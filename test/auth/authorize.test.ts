import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  approveAndExchange,
  authorizeRequest,
  CONSENT_PATH,
  jsonBody,
  LOGIN_PATH,
  loggedInBrowser,
  openConsent,
  type TestApp,
} from '../helpers/pages.js';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';

let running: RunningService;
let app: TestApp;

before(async () => {
  running = await startService();
  app = await createTestApp(running);
});
after(() => running.close());

function get(path: string, headers: Record<string, string> = {}) {
  return fetch(running.url + path, { redirect: 'manual', headers });
}

function post(
  path: string,
  body: URLSearchParams | string,
  contentType = 'application/x-www-form-urlencoded',
) {
  return fetch(running.url + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': contentType },
    body: body.toString(),
  });
}

/** The path and query a login redirect carries in `next`. */
function nextOf(location: string): URL {
  const login = new URL(location, running.url);
  assert.equal(login.pathname, LOGIN_PATH);
  return new URL(login.searchParams.get('next') ?? '', running.url);
}

async function assertErrorPage(response: Response, status: number, text: string) {
  const html = await response.text();
  assert.equal(response.status, status, html);
  assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
  assert.equal(response.headers.get('location'), null, 'an error page is never a redirect');
  assert.ok(html.includes(text), `page should say "${text}": ${html}`);
}

describe('authorize: a valid request', () => {
  for (const path of ['/v2/o/authorize/', '/v2/o/authorize']) {
    test(`GET ${path} without a session → 302 to the login page with next`, async () => {
      const { query } = authorizeRequest(app);
      const response = await get(`${path}?${query}`);
      assert.equal(response.status, 302);
      const next = nextOf(response.headers.get('location')!);
      assert.match(next.pathname, /^\/v2\/o\/authorize\/?$/);
      for (const [name, value] of query) assert.equal(next.searchParams.get(name), value, name);
    });

    test(`POST ${path} with the parameters in the body → 302 to the login page`, async () => {
      const { query } = authorizeRequest(app);
      const response = await post(path, query);
      assert.equal(response.status, 302);
      const next = nextOf(response.headers.get('location')!);
      for (const [name, value] of query) assert.equal(next.searchParams.get(name), value, name);
    });

    test(`GET ${path} with a session → 302 to /v2/o/authorize/<uuid>/`, async () => {
      const browser = await loggedInBrowser(running);
      const { query } = authorizeRequest(app);
      const response = await browser.get(`${path}?${query}`);
      assert.equal(response.status, 302);
      assert.match(response.headers.get('location')!, CONSENT_PATH);
    });

    test(`POST ${path} with a session → 302 to /v2/o/authorize/<uuid>/`, async () => {
      const browser = await loggedInBrowser(running);
      const { query } = authorizeRequest(app);
      const response = await browser.postForm(path, Object.fromEntries(query));
      assert.equal(response.status, 302);
      assert.match(response.headers.get('location')!, CONSENT_PATH);
    });
  }

  test('each authorize request gets its own approval', async () => {
    const browser = await loggedInBrowser(running);
    const { query } = authorizeRequest(app);
    const first = await browser.get(`/v2/o/authorize/?${query}`);
    const second = await browser.get(`/v2/o/authorize/?${query}`);
    assert.notEqual(first.headers.get('location'), second.headers.get('location'));
  });

  test('unknown parameters are ignored', async () => {
    const { query } = authorizeRequest(app, { nonce: 'n-0S6_WzA2Mj', foo: 'bar', aud: 'x' });
    const response = await get(`/v2/o/authorize/?${query}`);
    assert.equal(response.status, 302);
    assert.equal(new URL(response.headers.get('location')!, running.url).pathname, LOGIN_PATH);
  });

  test('a padded (=) code_challenge is accepted and the verifier then works at the token endpoint', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const padded = createHash('sha256')
      .update(verifier)
      .digest('base64')
      .replace(/\+/g, '-')
      .replace(/\//g, '_');
    assert.ok(padded.endsWith('='));
    const browser = await loggedInBrowser(running);
    const consent = await openConsent(browser, app, { code_challenge: padded });
    consent.request.pkce.verifier = verifier;
    const token = await approveAndExchange(running, app, consent);
    assert.equal(token.token_type, 'Bearer');
    assert.equal(typeof token.access_token, 'string');
  });
});

describe('authorize: the client and redirect URI are checked first, as pages', () => {
  test('no client_id → 401 page', async () => {
    const { query } = authorizeRequest(app, { client_id: null });
    await assertErrorPage(await get(`/v2/o/authorize/?${query}`), 401, 'App id failed');
  });

  test('an unknown client_id → 400 page', async () => {
    const { query } = authorizeRequest(app, { client_id: 'x'.repeat(40) });
    await assertErrorPage(
      await get(`/v2/o/authorize/?${query}`),
      400,
      'Application does not exist (client_id)',
    );
  });

  test('an unknown client is refused before its other problems (plain PKCE, short state)', async () => {
    const { query } = authorizeRequest(app, {
      client_id: 'y'.repeat(40),
      code_challenge_method: 'plain',
      state: 'short',
    });
    await assertErrorPage(await get(`/v2/o/authorize?${query}`), 400, 'Application does not exist');
  });

  test('an inactive app → 403 page with the inactive text; active again → accepted', async () => {
    const inactive = await createTestApp(running);
    await running.service.deps.apps.setAppActive(inactive.clientId, false, running.clock.now());
    const { query } = authorizeRequest(inactive);
    await assertErrorPage(
      await get(`/v2/o/authorize/?${query}`),
      403,
      `This application, ${inactive.app.name}, is temporarily inactive.`,
    );
    const viaPost = await post('/v2/o/authorize/', query);
    await assertErrorPage(viaPost, 403, 'is temporarily inactive');

    await running.service.deps.apps.setAppActive(inactive.clientId, true, running.clock.now());
    assert.equal((await get(`/v2/o/authorize/?${query}`)).status, 302);
  });

  const unregistered = [
    ['another host', 'https://evil.example/callback'],
    ['another path', 'http://127.0.0.1:3001/callback2'],
    ['an added trailing slash', 'http://127.0.0.1:3001/callback/'],
    ['another port', 'http://127.0.0.1:3002/callback'],
    ['no port', 'http://127.0.0.1/callback'],
    ['https instead of http', 'https://127.0.0.1:3001/callback'],
    ['an added query', 'http://127.0.0.1:3001/callback?next=https://evil.example'],
    ['a fragment', 'http://127.0.0.1:3001/callback#x'],
    ['not a URL', 'not a url'],
  ];
  for (const [label, redirectUri] of unregistered) {
    test(`redirect_uri with ${label} → 400 page, never a redirect`, async () => {
      const { query } = authorizeRequest(app, { redirect_uri: redirectUri! });
      await assertErrorPage(await get(`/v2/o/authorize/?${query}`), 400, 'Mismatching redirect URI.');
    });
  }

  test('a bad redirect_uri is refused before the PKCE and state checks', async () => {
    const { query } = authorizeRequest(app, {
      redirect_uri: 'https://evil.example/cb',
      code_challenge_method: 'plain',
      state: 'short',
    });
    await assertErrorPage(await get(`/v2/o/authorize/?${query}`), 400, 'Mismatching redirect URI.');
  });

  test('loopback: registered http://127.0.0.1/callback accepts any port, not another path', async () => {
    const loopback = await createTestApp(running, { redirectUris: ['http://127.0.0.1/callback'] });
    const ok = authorizeRequest(loopback, { redirect_uri: 'http://127.0.0.1:5555/callback' });
    const response = await get(`/v2/o/authorize/?${ok.query}`);
    assert.equal(response.status, 302);
    assert.equal(
      nextOf(response.headers.get('location')!).searchParams.get('redirect_uri'),
      'http://127.0.0.1:5555/callback',
    );

    const otherPath = authorizeRequest(loopback, { redirect_uri: 'http://127.0.0.1:5555/other' });
    await assertErrorPage(await get(`/v2/o/authorize/?${otherPath.query}`), 400, 'Mismatching redirect URI.');
    const otherHost = authorizeRequest(loopback, { redirect_uri: 'http://localhost:5555/callback' });
    await assertErrorPage(await get(`/v2/o/authorize/?${otherHost.query}`), 400, 'Mismatching redirect URI.');
  });

  test('loopback: the code reaches the port the app asked for', async () => {
    const loopback = await createTestApp(running, { redirectUris: ['http://127.0.0.1/callback'] });
    const browser = await loggedInBrowser(running);
    const consent = await openConsent(browser, loopback, { redirect_uri: 'http://127.0.0.1:5555/callback' });
    const decision = await browser.postForm(consent.path, {
      csrf: consent.csrf,
      allow: 'Connect',
      share_demographic_scopes: ['False', 'True'],
    });
    assert.equal(decision.status, 302);
    const target = new URL(decision.headers.get('location')!);
    assert.equal(`${target.origin}${target.pathname}`, 'http://127.0.0.1:5555/callback');
    assert.ok(target.searchParams.get('code'));
  });
});

describe('authorize: request errors after the client check are JSON 400s', () => {
  /** GET, and POST with the same parameters in the body, both answer `expected`. */
  async function assertJson(query: URLSearchParams, status: number, expected: unknown) {
    for (const response of [await get(`/v2/o/authorize/?${query}`), await post('/v2/o/authorize/', query)]) {
      assert.equal(response.status, status);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(await jsonBody(response), expected);
    }
  }

  test('code_challenge_method=plain', async () => {
    await assertJson(authorizeRequest(app, { code_challenge_method: 'plain' }).query, 400, {
      status_code: 400,
      error: 'invalid_request',
      error_description: 'code_challenge_method must be S256',
    });
  });

  test('a state of 15 characters; 16 is enough', async () => {
    await assertJson(authorizeRequest(app, { state: 'a'.repeat(15) }).query, 400, {
      status_code: 400,
      message: 'State parameter should have a minimum of 16 characters',
    });
    const sixteen = await get(`/v2/o/authorize/?${authorizeRequest(app, { state: 'a'.repeat(16) }).query}`);
    assert.equal(sixteen.status, 302);
  });

  test('missing code_challenge, code_challenge_method and state are listed in order', async () => {
    const cases: [Record<string, null>, string][] = [
      [
        { code_challenge: null, code_challenge_method: null, state: null },
        'code_challenge, code_challenge_method, state',
      ],
      [{ code_challenge: null, state: null }, 'code_challenge, state'],
      [{ code_challenge_method: null, state: null }, 'code_challenge_method, state'],
      [{ state: null }, 'state'],
    ];
    for (const [changes, listed] of cases) {
      const response = await get(`/v2/o/authorize/?${authorizeRequest(app, changes).query}`);
      assert.equal(response.status, 400);
      assert.deepEqual(await jsonBody(response), {
        status_code: 400,
        message: `Missing Required Parameter(s): ${listed}`,
      });
    }
    await assertJson(authorizeRequest(app, { code_challenge_method: null }).query, 400, {
      status_code: 400,
      message: 'Missing Required Parameter(s): code_challenge_method',
    });
    await assertJson(authorizeRequest(app, { code_challenge: null }).query, 400, {
      status_code: 400,
      message: 'Missing Required Parameter(s): code_challenge',
    });
  });

  test('client_secret in the query or the body → 400 text', async () => {
    const inQuery = authorizeRequest(app, { client_secret: app.clientSecret });
    const response = await get(`/v2/o/authorize/?${inQuery.query}`);
    assert.equal(response.status, 400);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(await response.text(), 'Illegal query parameter [client_secret] detected');

    const inBody = await post('/v2/o/authorize/', inQuery.query);
    assert.equal(inBody.status, 400);
    assert.equal(await inBody.text(), 'Illegal query parameter [client_secret] detected');
  });

  for (const scope of [
    'patient/Unknown.rs',
    'patient/AuditEvent.rs',
    'patient/Coverage.rs admin',
    'user/Patient.read',
  ]) {
    test(`scope "${scope}" → Invalid scopes.`, async () => {
      await assertJson(authorizeRequest(app, { scope }).query, 400, {
        status_code: 400,
        message: 'Invalid scopes.',
      });
    });
  }

  test('response_type=token (implicit grant) → 400, no redirect', async () => {
    const { query } = authorizeRequest(app, { response_type: 'token' });
    const response = await get(`/v2/o/authorize/?${query}`);
    assert.equal(response.status, 400);
    assert.equal(response.headers.get('location'), null);
  });

  test('POST with state only in the query → 401 State required in POST body.', async () => {
    const { query, state } = authorizeRequest(app);
    query.delete('state');
    const response = await post(`/v2/o/authorize/?state=${state}`, query);
    assert.equal(response.status, 401);
    assert.deepEqual(await jsonBody(response), { status_code: 401, message: 'State required in POST body.' });
    const noBody = await fetch(`${running.url}/v2/o/authorize/?${authorizeRequest(app).query}`, {
      method: 'POST',
      redirect: 'manual',
    });
    assert.equal(noBody.status, 401);
  });

  for (const name of ['state', 'client_id', 'redirect_uri', 'code_challenge']) {
    test(`a repeated ${name} → 4xx, not 500`, async () => {
      const { query } = authorizeRequest(app);
      query.append(name, query.get(name)!);
      const response = await get(`/v2/o/authorize/?${query}`);
      assert.ok(response.status >= 400 && response.status < 500, `status ${response.status}`);
      assert.equal(response.headers.get('location'), null);
    });
  }
});

describe('authorize: malformed input is a 4xx', () => {
  test('bad percent-encoding in the query', async () => {
    const { query } = authorizeRequest(app, { state: 'abcdefghijklmnopqrstuv' });
    const valid = query.toString();
    for (const bad of [
      valid.replace('state=abcdefghijklmnopqrstuv', 'state=abcdefghijklmnopq%E0%A4%A'),
      valid.replace('state=abcdefghijklmnopqrstuv', 'state=abcdefghijklmnopq%ZZ'),
      valid.replace('response_type=code', 'response_type=code%'),
    ]) {
      const response = await get(`/v2/o/authorize/?${bad}`);
      assert.ok(response.status >= 400 && response.status < 500, `status ${response.status} for ${bad}`);
      assert.equal(response.headers.get('location'), null, bad);
    }
  });

  test('bad percent-encoding in the path', async () => {
    const response = await get('/v2/o/authorize/%E0%A4%A/');
    assert.equal(response.status, 400);
  });

  test('a JSON body to POST authorize', async () => {
    const { query } = authorizeRequest(app);
    const response = await post(
      '/v2/o/authorize/',
      JSON.stringify({ ...Object.fromEntries(query), state: 42 }),
      'application/json',
    );
    assert.ok(response.status >= 400 && response.status < 500, `status ${response.status}`);
  });

  test('a body over 64 KiB', async () => {
    const { query } = authorizeRequest(app);
    query.set('filler', 'x'.repeat(70 * 1024));
    const response = await post('/v2/o/authorize/', query);
    assert.equal(response.status, 413);
  });
});

describe('authorize: security headers', () => {
  test('error pages cannot be framed', async () => {
    const response = await get(
      `/v2/o/authorize/?${authorizeRequest(app, { client_id: 'z'.repeat(40) }).query}`,
    );
    assert.equal(response.status, 400);
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
    assert.match(response.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
  });
});
