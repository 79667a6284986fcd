import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Browser, hiddenField } from '../helpers/flow.js';
import { startService, type RunningService } from '../helpers/service.js';
import { newAccount, shownLink, signIn, signUp, submit, verifiedDeveloper } from './portal-flow.js';

let running: RunningService;

before(async () => {
  running = await startService({ LOGIN_MAX_FAILURES: '3' });
});
after(() => running.close());

const errorOf = (html: string) => /<p class="error" role="alert">([^<]*)<\/p>/.exec(html)?.[1];

describe('developer accounts', () => {
  test('sign-up form: CSRF cookie, not frameable, never cached, in Spanish too', async () => {
    const response = await fetch(`${running.url}/developers/sign-up`);
    const html = await response.text();
    assert.equal(response.status, 200);
    assert.ok(hiddenField(html, 'csrf').length >= 32);
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
    assert.match(response.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.match(response.headers.get('cache-control') ?? '', /no-store/);
    assert.match(response.headers.getSetCookie().join('\n'), /oe_dev_csrf=[^;]+;.*HttpOnly/i);
    const es = await (await fetch(`${running.url}/developers/sign-up?lang=es`)).text();
    assert.match(es, /<html lang="es">/);
    assert.match(es, /Crear una cuenta de desarrollador/);
  });

  test('sign-up without the form cookie is refused (403)', async () => {
    const response = await new Browser(running.url).postForm('/developers/sign-up', {
      ...newAccount(),
      csrf: 'x',
    });
    assert.equal(response.status, 403);
  });

  test('bad fields are shown on the form (400) and nothing is stored', async () => {
    const browser = new Browser(running.url);
    for (const [change, message] of [
      [{ password: 'short' }, 'at least 10 characters'],
      [{ email: 'not-an-address' }, 'valid e-mail'],
      [{ name: '' }, 'fill in every field'],
    ] as const) {
      const account = { ...newAccount(), ...change };
      const { response, html } = await signUp(browser, account);
      assert.equal(response.status, 400);
      assert.match(errorOf(html) ?? '', new RegExp(message));
      assert.equal(
        await running.service.storage.db
          .selectFrom('developers')
          .select('id')
          .where('email', '=', account.email)
          .executeTakeFirst(),
        undefined,
      );
    }
  });

  test('an unverified account cannot sign in; the link verifies it once', async () => {
    const browser = new Browser(running.url);
    const account = newAccount();
    const { html } = await signUp(browser, account);
    const link = new URL(shownLink(html)!);
    assert.equal(link.pathname, '/developers/verify');
    const early = await signIn(browser, account);
    assert.equal(early.status, 403);
    assert.match(errorOf(await early.text()) ?? '', /Confirm your e-mail address first/);
    assert.equal((await browser.get(link.pathname + link.search)).status, 200);
    assert.equal((await browser.get(link.pathname + link.search)).status, 400, 'single use');
    assert.equal((await signIn(browser, account)).status, 303);
    const dashboard = await browser.get('/developers');
    assert.equal(dashboard.status, 200);
    assert.match(await dashboard.text(), new RegExp(`Signed in as ${account.name}`));
  });

  test('the same address twice: one account, the same answer, no second link', async () => {
    const account = newAccount();
    await signUp(new Browser(running.url), account);
    const again = await signUp(new Browser(running.url), { ...account, email: account.email.toUpperCase() });
    assert.equal(again.response.status, 200);
    assert.match(again.html, /Check your mail/);
    assert.equal(shownLink(again.html), undefined);
    const rows = await running.service.storage.db
      .selectFrom('developers')
      .select('id')
      .where('email_key', '=', account.email)
      .execute();
    assert.equal(rows.length, 1);
  });

  test('password hashed with argon2id; link tokens and sessions stored only as hashes', async () => {
    const { account, browser } = await verifiedDeveloper(running.url);
    const db = running.service.storage.db;
    const row = await db
      .selectFrom('developers')
      .selectAll()
      .where('email', '=', account.email)
      .executeTakeFirstOrThrow();
    assert.match(row.password_hash, /^\$argon2id\$/);
    const session = browser.cookies.get('oe_dev_session')!;
    const sessions = await db
      .selectFrom('developer_sessions')
      .select('id_hash')
      .where('developer_id', '=', row.id)
      .execute();
    assert.equal(sessions.length, 1);
    assert.notEqual(sessions[0]!.id_hash, session);
  });

  test('wrong password 401; the account locks after the limit, even for the right password (429)', async () => {
    const { account } = await verifiedDeveloper(running.url);
    const browser = new Browser(running.url);
    for (let i = 0; i < 3; i++) {
      assert.equal((await signIn(browser, { ...account, password: 'wrong-password-x' })).status, 401);
    }
    const locked = await signIn(browser, account);
    assert.equal(locked.status, 429);
    assert.ok(Number(locked.headers.get('retry-after')) > 0);
  });

  test('sign-out ends the session on every instance (the row goes)', async () => {
    const { browser } = await verifiedDeveloper(running.url);
    const html = await (await browser.get('/developers')).text();
    const csrf = hiddenField(html, 'csrf');
    const secret = browser.cookies.get('oe_dev_session')!;
    const out = await browser.postForm('/developers/sign-out', { csrf });
    assert.equal(out.status, 303);
    const again = await fetch(`${running.url}/developers`, {
      headers: { cookie: `oe_dev_session=${secret}` },
      redirect: 'manual',
    });
    assert.equal(again.status, 303);
    assert.match(again.headers.get('location') ?? '', /\/developers\/sign-in/);
  });

  test('password reset: the link sets a new password once and ends the other sessions', async () => {
    const { browser, account } = await verifiedDeveloper(running.url);
    const other = new Browser(running.url);
    const requested = await submit(other, '/developers/forgot', '/developers/forgot', {
      email: account.email,
    });
    const link = new URL(shownLink(await requested.text())!);
    assert.equal(link.pathname, '/developers/reset');
    const token = link.searchParams.get('token')!;
    const fresh = 'a-brand-new-password';
    const reset = await submit(other, link.pathname + link.search, '/developers/reset', {
      token,
      password: fresh,
    });
    assert.equal(reset.status, 200);
    assert.equal((await browser.get('/developers')).status, 303, 'the earlier session ended');
    assert.equal((await signIn(new Browser(running.url), account)).status, 401, 'old password gone');
    assert.equal((await signIn(new Browser(running.url), { ...account, password: fresh })).status, 303);
    const replay = await submit(other, link.pathname + link.search, '/developers/reset', {
      token,
      password: 'yet-another-password',
    });
    assert.equal(replay.status, 400, 'a reset link works once');
  });

  test('a reset for an unknown address answers the same and mails nothing', async () => {
    const response = await submit(new Browser(running.url), '/developers/forgot', '/developers/forgot', {
      email: 'nobody-here@example.org',
    });
    const html = await response.text();
    assert.equal(response.status, 200);
    assert.match(html, /Check your mail/);
    assert.equal(shownLink(html), undefined);
  });
});
