import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { hiddenField } from '../helpers/flow.js';
import { authorizeRequest, CONSENT_PATH, LOGIN_PATH } from '../helpers/pages.js';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';

/**
 * Under an https `PUBLIC_URL`: HSTS on every response (RFC 6797 §7.1) and `__Host-` cookies (RFC 6265bis
 * §4.1.3.2: Secure, Path=/, no Domain). Over http — the local sandbox — neither, so nothing changes there.
 * Requests are injected in-process: TLS ends at the load balancer in front of the service.
 */

let secure: RunningService;
let plain: RunningService;
before(async () => {
  [secure, plain] = await Promise.all([
    startService({ PUBLIC_URL: 'https://openenroll.example', SAMPLE_MARKET: 'false' }),
    startService({ SAMPLE_MARKET: 'false' }),
  ]);
});
after(async () => {
  await Promise.all([secure.close(), plain.close()]);
});

const HSTS = 'max-age=31536000';

function inject(running: RunningService, url: string, options: Omit<InjectOptions, 'url'> = {}) {
  return running.service.app.inject({ ...options, url });
}

interface ParsedCookie {
  name: string;
  value: string;
  attributes: string[];
}

function cookiesOf(response: LightMyRequestResponse): ParsedCookie[] {
  const header = response.headers['set-cookie'];
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [header];
  return lines.map((line) => {
    const [pair, ...attributes] = line.split(';').map((p) => p.trim());
    const eq = pair!.indexOf('=');
    return {
      name: pair!.slice(0, eq),
      value: pair!.slice(eq + 1),
      attributes: attributes.map((a) => a.toLowerCase()),
    };
  });
}

/** RFC 6265bis §4.1.3.2: what a browser requires before it stores a `__Host-` cookie. */
function assertHostCookie(cookie: ParsedCookie | undefined, name: string): string {
  assert.ok(cookie, `${name} set`);
  assert.equal(cookie.name, name);
  assert.ok(cookie.attributes.includes('secure'), 'Secure');
  assert.ok(cookie.attributes.includes('path=/'), 'Path=/');
  assert.ok(!cookie.attributes.some((a) => a.startsWith('domain=')), 'no Domain');
  assert.ok(cookie.attributes.includes('httponly'));
  assert.ok(cookie.attributes.includes('samesite=lax'));
  return cookie.value;
}

describe('https PUBLIC_URL: Strict-Transport-Security (RFC 6797 §7.1)', () => {
  test('on pages, discovery, OAuth errors, FHIR errors, the plan API and unknown paths', async () => {
    const responses = [
      await inject(secure, LOGIN_PATH),
      await inject(secure, '/.well-known/openid-configuration'),
      await inject(secure, '/.well-known/jwks.json'),
      await inject(secure, '/v2/o/token/', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=authorization_code&client_id=nobody&client_secret=x',
      }),
      await inject(secure, '/v2/fhir/Patient'),
      await inject(secure, '/api/v1/states'),
      await inject(secure, '/no/such/path'),
      await inject(secure, '/health/live'),
    ];
    assert.deepEqual(
      responses.map((r) => r.statusCode),
      [200, 200, 200, 401, 401, 401, 404, 200],
    );
    for (const response of responses) {
      assert.equal(response.headers['strict-transport-security'], HSTS, response.raw.req.url);
    }
  });

  test('over http (the local sandbox) there is no HSTS header', async () => {
    for (const url of [LOGIN_PATH, '/.well-known/openid-configuration', '/no/such/path']) {
      assert.equal((await inject(plain, url)).headers['strict-transport-security'], undefined, url);
    }
  });
});

describe('https PUBLIC_URL: __Host- cookies (RFC 6265bis §4.1.3.2)', () => {
  test('login CSRF and session cookies are __Host- prefixed, Secure, Path=/, without Domain; the flow works', async () => {
    const app = await createTestApp(secure);
    const { query } = authorizeRequest(app);
    const authorizeUrl = `/v2/o/authorize/?${query.toString()}`;
    const toLogin = await inject(secure, authorizeUrl);
    assert.equal(toLogin.statusCode, 302);

    const page = await inject(secure, toLogin.headers.location as string);
    assert.equal(page.statusCode, 200);
    const csrfCookie = cookiesOf(page).find((c) => c.name.endsWith('oe_login_csrf'));
    const csrf = assertHostCookie(csrfCookie, '__Host-oe_login_csrf');

    const login = await inject(secure, LOGIN_PATH, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `__Host-oe_login_csrf=${csrf}`,
      },
      payload: new URLSearchParams({
        csrf: hiddenField(page.body, 'csrf'),
        next: hiddenField(page.body, 'next'),
        username: 'BBUser00000',
        password: 'PW00000!',
      }).toString(),
    });
    assert.equal(login.statusCode, 302, login.body);
    const cookies = cookiesOf(login);
    const session = assertHostCookie(
      cookies.find((c) => c.name.endsWith('oe_session')),
      '__Host-oe_session',
    );
    assert.equal(
      cookies.some((c) => c.name === 'oe_session'),
      false,
      'no unprefixed cookie',
    );

    // The session is read from the prefixed cookie: the authorize request goes on to the consent page.
    const toConsent = await inject(secure, authorizeUrl, {
      headers: { cookie: `__Host-oe_session=${session}` },
    });
    assert.equal(toConsent.statusCode, 302);
    const consentPath = toConsent.headers.location as string;
    assert.match(consentPath, CONSENT_PATH);
    const consent = await inject(secure, consentPath, {
      headers: { cookie: `__Host-oe_session=${session}` },
    });
    assert.equal(consent.statusCode, 200);
    assert.equal(consent.headers['strict-transport-security'], HSTS);

    // The unprefixed name means nothing here: a cookie planted by a sibling host or over http is ignored.
    const planted = await inject(secure, authorizeUrl, { headers: { cookie: `oe_session=${session}` } });
    assert.equal(planted.statusCode, 302);
    assert.match(planted.headers.location as string, /^\/v2\/accounts\/login/);
  });

  test('over http the cookies keep their names and are not Secure', async () => {
    const page = await inject(plain, LOGIN_PATH);
    const cookie = cookiesOf(page).find((c) => c.name.endsWith('oe_login_csrf'));
    assert.equal(cookie?.name, 'oe_login_csrf');
    assert.equal(cookie.attributes.includes('secure'), false);
  });
});
