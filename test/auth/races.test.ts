import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Browser, hiddenField } from '../helpers/flow.js';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';
import { consent, exchange, issueTokens, refresh, revoke, userinfo } from '../helpers/token-calls.js';

let running: RunningService;
before(async () => {
  running = await startService({ SANDBOX_ENROLLEES: '8' });
});
after(() => running.close());

describe('a newer decision supersedes older codes', () => {
  test('a code from an earlier consent stops working once the enrollee consents again', async () => {
    const app = await createTestApp(running);
    const broad = await consent(running, app, { enrollee: 1 });
    const narrow = await consent(running, app, { enrollee: 1, share: false });
    const stale = await exchange(running.url, app, broad);
    assert.equal(stale.status, 400, stale.text);
    assert.equal(stale.text, '{"error":"invalid_grant"}');
    const current = await exchange(running.url, app, narrow);
    assert.equal(current.status, 200, current.text);
    const scope = String((current.body as { scope: string }).scope).split(' ');
    assert.ok(
      !scope.includes('profile') && !scope.includes('patient/Patient.rs'),
      'the narrower consent holds',
    );
    assert.equal(
      (await userinfo(running.url, (current.body as { access_token: string }).access_token)).status,
      403,
    );
  });

  test('a code issued before the grant was revoked cannot be exchanged afterwards', async () => {
    const app = await createTestApp(running);
    const pending = await consent(running, app, { enrollee: 2 });
    const { enrollees, tokens } = running.service.deps;
    const enrollee = await enrollees.findEnrolleeByUsername('BBUser00002');
    assert.ok(
      await tokens.deleteGrant(app.clientId, enrollee!.id, 'revoked-by-enrollee', running.clock.now()),
    );
    const late = await exchange(running.url, app, pending);
    assert.equal(late.status, 400, late.text);
    assert.equal(late.text, '{"error":"invalid_grant"}');
  });
});

describe('concurrency on one pair', () => {
  test('simultaneous revocations of one grant all answer 200', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app, { enrollee: 3 });
    const results = await Promise.all([
      revoke(running.url, app, issued.access_token),
      revoke(running.url, app, issued.refresh_token),
      revoke(running.url, app, issued.access_token),
      revoke(running.url, app, issued.refresh_token),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      [200, 200, 200, 200],
      results.map((r) => r.text).join(' | '),
    );
    assert.equal((await userinfo(running.url, issued.access_token)).status, 401);
    assert.equal((await refresh(running.url, app, issued.refresh_token)).status, 400);
  });

  test('a refresh token sent four times at once, 1,000 times over: exactly one winner each time', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app, { enrollee: 5 });
    let token = issued.refresh_token;
    for (let trial = 0; trial < 1000; trial += 1) {
      const results = await Promise.all([1, 2, 3, 4].map(() => refresh(running.url, app, token)));
      const winners = results.filter((r) => r.status === 200);
      assert.equal(
        winners.length,
        1,
        `trial ${trial}: ${results.map((r) => `${r.status} ${r.text}`).join(' | ')}`,
      );
      for (const loser of results.filter((r) => r.status !== 200))
        assert.equal(loser.text, '{"error":"invalid_grant"}', `trial ${trial}`);
      token = (winners[0]!.body as { refresh_token: string }).refresh_token;
    }
    // The last winner's tokens are the family's: they work, and nothing else the trials issued does.
    const last = await refresh(running.url, app, token);
    assert.equal(last.status, 200, last.text);
  });

  test('a refresh racing a new consent leaves exactly one live family', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app, { enrollee: 4 });
    const [refreshed, flow] = await Promise.all([
      refresh(running.url, app, issued.refresh_token),
      consent(running, app, { enrollee: 4 }),
    ]);
    const fresh = await exchange(running.url, app, flow);
    assert.equal(fresh.status, 200, fresh.text);
    if (refreshed.status === 200) {
      const token = (refreshed.body as { access_token: string }).access_token;
      assert.equal((await userinfo(running.url, token)).status, 401, 'the older family is revoked');
    }
    assert.equal(
      (await userinfo(running.url, (fresh.body as { access_token: string }).access_token)).status,
      200,
    );
  });
});

describe('login under attack', () => {
  async function loginForm(browser: Browser) {
    const html = await (await browser.get('/v2/accounts/login')).text();
    return hiddenField(html, 'csrf');
  }

  test('parallel guesses cannot get past the lock-out', async () => {
    const browser = new Browser(running.url);
    const csrf = await loginForm(browser);
    const attempt = (password: string) =>
      browser.postForm('/v2/accounts/login', {
        csrf,
        next: '',
        lang: 'en',
        username: 'BBUser00005',
        password,
      });
    const guesses = await Promise.all(Array.from({ length: 19 }, () => attempt('wrong')));
    const statuses = guesses.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 401).length, 5, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 429).length, 14, statuses.join(','));
    assert.equal((await attempt('PW00005!')).status, 429, 'the right password is refused while locked');
  });

  test('a next that cannot be a Location header is dropped, not a 500', async () => {
    const browser = new Browser(running.url);
    const csrf = await loginForm(browser);
    for (const next of [
      '/v2/o/authorize/?a=\r\nSet-Cookie: x=1',
      '/v2/o/authorize/?a=\u00e9\u4e2d',
      '/v2/o/authorize\\evil',
    ]) {
      const response = await browser.postForm('/v2/accounts/login', {
        csrf,
        next,
        lang: 'en',
        username: 'BBUser00006',
        password: 'PW00006!',
      });
      assert.equal(response.status, 200, `${JSON.stringify(next)} → ${response.status}`);
      assert.equal(response.headers.get('location'), null);
    }
  });
});

test('a POST authorize for an unknown client is refused as a page before the state check', async () => {
  const response = await fetch(`${running.url}/v2/o/authorize/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'client_id=no-such-client&response_type=code',
  });
  assert.equal(response.status, 400);
  assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
  assert.match(await response.text(), /Application does not exist/);
});
