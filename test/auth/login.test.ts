import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Browser, hiddenField } from '../helpers/flow.js';
import { authorizeRequest, CONSENT_PATH, LOGIN_PATH, logIn, type TestApp } from '../helpers/pages.js';
import { createTestApp, redisUrl, startService, type RunningService } from '../helpers/service.js';

let running: RunningService;
let app: TestApp;

before(async () => {
  running = await startService();
  app = await createTestApp(running);
});
after(() => running.close());

const INVALID = 'Incorrect username or password.';
const LOCKED = 'Too many failed attempts for this username.';

/** The Set-Cookie line for `name`, split into lower-cased attributes. */
function cookieAttributes(response: Response, name: string): string[] | undefined {
  const line = response.headers.getSetCookie().find((l) => l.startsWith(`${name}=`));
  return line?.split(';').map((part) => part.trim().toLowerCase());
}

/** The error paragraph of a page, or undefined. */
function pageError(html: string): string | undefined {
  return /<p class="error" role="alert">([^<]*)<\/p>/.exec(html)?.[1];
}

async function attempt(browser: Browser, username: string, password: string) {
  const response = await logIn(browser, username, password);
  return { response, html: await response.text() };
}

describe('login page', () => {
  test('GET shows the form with a CSRF field and an HttpOnly SameSite=Lax cookie', async () => {
    const response = await fetch(`${running.url}${LOGIN_PATH}`);
    const html = await response.text();
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
    assert.ok(hiddenField(html, 'csrf').length >= 32);
    assert.match(html, /<input id="username" name="username"/);
    assert.match(html, /<input id="password" name="password" type="password"/);
    const cookie = cookieAttributes(response, 'oe_login_csrf');
    assert.ok(cookie, 'login CSRF cookie set');
    assert.ok(cookie.includes('httponly'));
    assert.ok(cookie.includes('samesite=lax'));
  });

  test('security headers: not frameable, never cached', async () => {
    for (const response of [
      await fetch(`${running.url}${LOGIN_PATH}`),
      await new Browser(running.url).postForm(LOGIN_PATH, { username: 'x', password: 'y' }),
    ]) {
      assert.equal(response.headers.get('x-frame-options'), 'DENY');
      assert.match(response.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
      assert.match(response.headers.get('cache-control') ?? '', /no-store/);
    }
  });

  test('the right password starts a session: HttpOnly, SameSite=Lax cookie; authorize then goes to consent', async () => {
    const browser = new Browser(running.url);
    const response = await logIn(browser, 'BBUser00000', 'PW00000!');
    assert.equal(response.status, 200);
    const cookie = cookieAttributes(response, 'oe_session');
    assert.ok(cookie, 'session cookie set');
    assert.ok(cookie.includes('httponly'));
    assert.ok(cookie.includes('samesite=lax'));
    assert.ok(cookie.includes('path=/'));
    const authorize = await browser.get(`/v2/o/authorize/?${authorizeRequest(app).query}`);
    assert.match(authorize.headers.get('location') ?? '', CONSENT_PATH);
  });

  test('login from the authorize redirect returns to the authorize request', async () => {
    const browser = new Browser(running.url);
    const start = await browser.get(`/v2/o/authorize/?${authorizeRequest(app).query}`);
    const loginUrl = new URL(start.headers.get('location')!, running.url);
    const next = loginUrl.searchParams.get('next')!;
    const response = await logIn(browser, 'BBUser00000', 'PW00000!', next);
    assert.equal(response.status, 302);
    assert.equal(response.headers.get('location'), next);
  });
});

describe('login: wrong credentials and lockout', () => {
  test('a wrong password → 401 with the error text, back on the login form, no session', async () => {
    const browser = new Browser(running.url);
    const { response, html } = await attempt(browser, 'BBUser00001', 'PW99999!');
    assert.equal(response.status, 401);
    assert.equal(pageError(html), INVALID);
    assert.equal(hiddenField(html, 'csrf').length > 0, true);
    assert.match(html, /name="username"[^>]*value="BBUser00001"/);
    assert.equal(cookieAttributes(response, 'oe_session'), undefined);
    const authorize = await browser.get(`/v2/o/authorize/?${authorizeRequest(app).query}`);
    assert.equal(new URL(authorize.headers.get('location')!, running.url).pathname, LOGIN_PATH);
  });

  test('an unknown username → the same 401 text', async () => {
    const { response, html } = await attempt(new Browser(running.url), 'NoSuchUser', 'PW00000!');
    assert.equal(response.status, 401);
    assert.equal(pageError(html), INVALID);
  });

  test('the error is in Spanish on a Spanish page', async () => {
    const browser = new Browser(running.url, { 'accept-language': 'es' });
    const { response, html } = await attempt(browser, 'BBUser00001', 'wrong');
    assert.equal(response.status, 401);
    assert.equal(pageError(html), 'El nombre de usuario o la contraseña no son correctos.');
  });

  test('after 5 failures the right password is refused with 429; another username is unaffected', async () => {
    const browser = new Browser(running.url);
    for (let i = 1; i <= 4; i += 1) {
      const { response, html } = await attempt(browser, 'BBUser00003', `wrong-${i}`);
      assert.equal(response.status, 401, `attempt ${i}`);
      assert.equal(pageError(html), INVALID);
    }
    const fifth = await attempt(browser, 'BBUser00003', 'wrong-5');
    assert.ok([401, 429].includes(fifth.response.status), `fifth attempt ${fifth.response.status}`);

    const sixth = await attempt(browser, 'BBUser00003', 'PW00003!');
    assert.equal(sixth.response.status, 429);
    assert.equal(pageError(sixth.html), `${LOCKED} Try again in 15 minutes.`);
    assert.equal(cookieAttributes(sixth.response, 'oe_session'), undefined);

    for (const variant of ['bbuser00003', ' BBUser00003 ']) {
      const { response } = await attempt(new Browser(running.url), variant, 'PW00003!');
      assert.equal(response.status, 429, `variant "${variant}"`);
    }

    const other = await attempt(new Browser(running.url), 'BBUser00004', 'PW00004!');
    assert.equal(other.response.status, 200);
    assert.ok(cookieAttributes(other.response, 'oe_session'));
  });

  test('a successful login clears the failure count', async () => {
    const browser = new Browser(running.url);
    for (let i = 0; i < 4; i += 1)
      assert.equal((await attempt(browser, 'BBUser00002', 'wrong')).response.status, 401);
    assert.equal((await attempt(browser, 'BBUser00002', 'PW00002!')).response.status, 200);
    for (let i = 0; i < 4; i += 1)
      assert.equal((await attempt(browser, 'BBUser00002', 'wrong')).response.status, 401);
    assert.equal((await attempt(browser, 'BBUser00002', 'PW00002!')).response.status, 200);
  });

  test(
    'the lockout ends after LOGIN_LOCKOUT_SECONDS',
    { skip: redisUrl ? 'Redis expires lockout windows on its own clock, not the service clock' : false },
    async () => {
      const { loginLockoutSeconds } = running.service.deps.settings;
      assert.equal(loginLockoutSeconds, 900, 'the default LOGIN_LOCKOUT_SECONDS');
      const browser = new Browser(running.url);
      for (let i = 0; i < 5; i += 1) await logIn(browser, 'BBUser00004', 'wrong');
      assert.equal((await logIn(browser, 'BBUser00004', 'PW00004!')).status, 429);
      running.clock.advance(loginLockoutSeconds * 1000 - 5_000);
      assert.equal((await logIn(browser, 'BBUser00004', 'PW00004!')).status, 429, 'still locked');
      running.clock.advance(5_001);
      const unlocked = await logIn(browser, 'BBUser00004', 'PW00004!');
      assert.equal(unlocked.status, 200);
      assert.ok(cookieAttributes(unlocked, 'oe_session'));
    },
  );

  test(
    'with Redis, the lockout window expires in Redis',
    { skip: redisUrl ? false : 'only when REDIS_URL is set' },
    async () => {
      const short = await startService({ LOGIN_LOCKOUT_SECONDS: '1' });
      try {
        const browser = new Browser(short.url);
        for (let i = 0; i < 5; i += 1) await logIn(browser, 'BBUser00001', 'wrong');
        assert.equal((await logIn(browser, 'BBUser00001', 'PW00001!')).status, 429);
        await new Promise((resolve) => setTimeout(resolve, 1_300));
        assert.equal((await logIn(browser, 'BBUser00001', 'PW00001!')).status, 200);
      } finally {
        await short.close();
      }
    },
  );
});

describe('login: CSRF', () => {
  async function loginPage() {
    const browser = new Browser(running.url);
    const html = await (await browser.get(LOGIN_PATH)).text();
    return { browser, csrf: hiddenField(html, 'csrf') };
  }

  const credentials = { username: 'BBUser00000', password: 'PW00000!', next: '', lang: 'en' };

  test('no CSRF cookie → 403, even with a field copied from another page', async () => {
    const { csrf } = await loginPage();
    const response = await new Browser(running.url).postForm(LOGIN_PATH, { ...credentials, csrf });
    assert.equal(response.status, 403);
    assert.equal(cookieAttributes(response, 'oe_session'), undefined);
  });

  test('CSRF cookie without the field → 403', async () => {
    const { browser } = await loginPage();
    const response = await browser.postForm(LOGIN_PATH, credentials);
    assert.equal(response.status, 403);
    assert.equal(cookieAttributes(response, 'oe_session'), undefined);
  });

  test('field and cookie that differ → 403', async () => {
    const { browser } = await loginPage();
    const other = await loginPage();
    const response = await browser.postForm(LOGIN_PATH, { ...credentials, csrf: other.csrf });
    assert.equal(response.status, 403);
    assert.equal(cookieAttributes(response, 'oe_session'), undefined);
  });

  test('the CSRF error page is in the language of the form', async () => {
    const { browser } = await loginPage();
    const response = await browser.postForm(LOGIN_PATH, { ...credentials, lang: 'es', csrf: 'forged' });
    const html = await response.text();
    assert.equal(response.status, 403);
    assert.match(html, /<html lang="es">/);
    assert.equal(
      pageError(html),
      'No se pudo verificar el formulario. Regrese a la aplicación y comience de nuevo.',
    );
  });
});

describe('login: next is never followed off-site', () => {
  const offSite = [
    '//evil.example/',
    'https://evil.example',
    'https://evil.example/v2/o/authorize/',
    '/\\evil.example/',
    'javascript:alert(1)',
    '/v2/accounts/login',
  ];

  for (const next of offSite) {
    test(`next=${next}`, async () => {
      const browser = new Browser(running.url);
      const page = await (await browser.get(`${LOGIN_PATH}?next=${encodeURIComponent(next)}`)).text();
      assert.equal(hiddenField(page, 'next'), '');
      const response = await browser.postForm(LOGIN_PATH, {
        csrf: hiddenField(page, 'csrf'),
        next,
        lang: 'en',
        username: 'BBUser00000',
        password: 'PW00000!',
      });
      assert.equal(response.status, 200, 'logged in, but not sent anywhere');
      assert.equal(response.headers.get('location'), null);
    });
  }
});

describe('login: malformed input is a 4xx', () => {
  test('a body over 64 KiB → 413', async () => {
    const browser = new Browser(running.url);
    const csrf = hiddenField(await (await browser.get(LOGIN_PATH)).text(), 'csrf');
    const response = await browser.postForm(LOGIN_PATH, {
      csrf,
      username: 'BBUser00000',
      password: 'x'.repeat(70 * 1024),
    });
    assert.equal(response.status, 413);
    assert.equal(cookieAttributes(response, 'oe_session'), undefined);
  });

  test('JSON with non-text values, broken JSON, an unknown content type, bad encoding, repeated fields', async () => {
    const browser = new Browser(running.url);
    const csrf = hiddenField(await (await browser.get(LOGIN_PATH)).text(), 'csrf');
    const raw = (body: string, type: string) =>
      browser.request(LOGIN_PATH, { method: 'POST', body, headers: { 'content-type': type } });
    const responses = [
      await raw(JSON.stringify({ csrf, username: ['BBUser00000'], password: 1 }), 'application/json'),
      await raw('{"csrf":', 'application/json'),
      await raw(`csrf=${csrf}&username=BBUser00000&password=PW00000!`, 'text/plain'),
      await raw(`csrf=${csrf}&username=%E0%A4%A&password=%ZZ`, 'application/x-www-form-urlencoded'),
      await browser.postForm(LOGIN_PATH, {
        csrf,
        username: ['BBUser00000', 'BBUser00001'],
        password: 'PW00000!',
      }),
    ];
    for (const [i, response] of responses.entries()) {
      assert.ok(response.status >= 400 && response.status < 500, `case ${i}: ${response.status}`);
      assert.equal(cookieAttributes(response, 'oe_session'), undefined, `case ${i}`);
    }
  });

  test('a JSON body is not a login form, even with the right fields', async () => {
    const browser = new Browser(running.url);
    const csrf = hiddenField(await (await browser.get(LOGIN_PATH)).text(), 'csrf');
    const response = await browser.request(LOGIN_PATH, {
      method: 'POST',
      body: JSON.stringify({ csrf, username: 'BBUser00000', password: 'PW00000!' }),
      headers: { 'content-type': 'application/json' },
    });
    assert.ok(response.status >= 400 && response.status < 500, `status ${response.status}`);
    assert.equal(cookieAttributes(response, 'oe_session'), undefined);
  });

  test('unknown form fields are ignored', async () => {
    const browser = new Browser(running.url);
    const csrf = hiddenField(await (await browser.get(LOGIN_PATH)).text(), 'csrf');
    const response = await browser.postForm(LOGIN_PATH, {
      csrf,
      username: 'BBUser00000',
      password: 'PW00000!',
      remember_me: 'on',
      submit: 'Log in',
    });
    assert.equal(response.status, 200);
  });
});
