import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Browser, hiddenField } from '../helpers/flow.js';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';
import { issueTokens, refresh, userinfo } from '../helpers/token-calls.js';

let running: RunningService;
before(async () => {
  running = await startService({ SANDBOX_ENROLLEES: '5' });
});
after(() => running.close());

async function loggedIn(username: string, password: string, lang = 'en') {
  const browser = new Browser(running.url);
  const page = await browser.get(`/v2/accounts/connected-apps?lang=${lang}`);
  assert.equal(page.status, 302, 'not logged in: sent to the login page');
  const login = await browser.get(page.headers.get('location')!);
  const html = await login.text();
  const done = await browser.postForm('/v2/accounts/login', {
    csrf: hiddenField(html, 'csrf'),
    next: hiddenField(html, 'next'),
    lang: hiddenField(html, 'lang'),
    username,
    password,
  });
  assert.equal(done.status, 302);
  assert.match(done.headers.get('location')!, /^\/v2\/accounts\/connected-apps/);
  return browser;
}

describe('the connected-apps page', () => {
  test('lists the apps with a grant and revokes one: its tokens stop at once, the other app is untouched', async () => {
    const thirteen = await createTestApp(running, { name: 'Claims Viewer' });
    const research = await createTestApp(running, { name: 'Study App', dataAccessType: 'RESEARCH_STUDY' });
    const a = await issueTokens(running, thirteen, { enrollee: 1 });
    const b = await issueTokens(running, research, { enrollee: 1 });
    const browser = await loggedIn('BBUser00001', 'PW00001!');
    const html = await (await browser.get('/v2/accounts/connected-apps?lang=en')).text();
    assert.match(html, /Claims Viewer<\/td>\s*<td>13 months<\/td>/);
    assert.match(html, /Study App<\/td>\s*<td>Research<\/td>\s*<td>No end date<\/td>/);
    const grantId =
      /connected-apps\/([0-9a-f-]{36})\/revoke[^"]*"[\s\S]*?aria-label="Revoke Claims Viewer"/.exec(html);
    const forms = [
      ...html.matchAll(/action="\/v2\/accounts\/connected-apps\/([0-9a-f-]{36})\/revoke\?lang=en"/g),
    ];
    assert.equal(forms.length, 2);
    assert.ok(grantId);
    const revoked = await browser.postForm(`/v2/accounts/connected-apps/${forms[0]![1]}/revoke?lang=en`, {
      csrf: hiddenField(html, 'csrf'),
    });
    const after = await revoked.text();
    assert.equal(revoked.status, 200);
    assert.match(after, /Access for Claims Viewer was revoked\./);
    assert.doesNotMatch(after, /Claims Viewer<\/td>/);
    assert.equal((await userinfo(running.url, a.access_token)).status, 401);
    const refused = await refresh(running.url, thirteen, a.refresh_token);
    assert.equal(refused.status, 400);
    assert.equal((refused.body as { error: string }).error, 'invalid_grant');
    assert.equal((await userinfo(running.url, b.access_token)).status, 200, 'the other app keeps its access');
  });

  test('Spanish, and a forged or foreign revoke is refused', async () => {
    const app = await createTestApp(running, { name: 'Mi App' });
    await issueTokens(running, app, { enrollee: 2 });
    const browser = await loggedIn('BBUser00002', 'PW00002!', 'es');
    const html = await (await browser.get('/v2/accounts/connected-apps?lang=es')).text();
    assert.match(html, /Sus aplicaciones conectadas/);
    assert.match(html, /Mi App<\/td>\s*<td>13 meses<\/td>\s*<td>\d{1,2} de \w+ de \d{4}<\/td>/);
    const grant = /connected-apps\/([0-9a-f-]{36})\/revoke/.exec(html)![1]!;
    const forged = await browser.postForm(`/v2/accounts/connected-apps/${grant}/revoke?lang=es`, {
      csrf: 'x',
    });
    assert.equal(forged.status, 403);
    const nobody = await loggedIn('BBUser00004', 'PW00004!');
    assert.match(
      await (await nobody.get('/v2/accounts/connected-apps')).text(),
      /No app has access to your data\./,
    );
    await issueTokens(running, app, { enrollee: 4 });
    const stranger = nobody;
    const strangerHtml = await (await stranger.get('/v2/accounts/connected-apps')).text();
    const foreign = await stranger.postForm(`/v2/accounts/connected-apps/${grant}/revoke`, {
      csrf: hiddenField(strangerHtml, 'csrf'),
    });
    assert.equal(foreign.status, 200);
    assert.match(await (await browser.get('/v2/accounts/connected-apps?lang=es')).text(), /Mi App<\/td>/);
  });
});

describe('the token-management API of a member portal', () => {
  const sls = (username: string) => `SLS ${Buffer.from(username).toString('base64')}`;
  async function call(
    method: string,
    path: string,
    basic: { id: string; secret: string },
    username?: string,
  ) {
    const headers: Record<string, string> = {
      authorization: `Basic ${Buffer.from(`${basic.id}:${basic.secret}`).toString('base64')}`,
    };
    if (username) headers['x-authentication'] = sls(username);
    const response = await fetch(`${running.url}${path}`, { method, headers });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  }

  test('lists, reads and deletes an enrollee’s grants; others are refused', async () => {
    const portal = await createTestApp(running, { name: 'Member Portal', tokenManagement: true });
    const third = await createTestApp(running, { name: 'Third Party' });
    const tokens = await issueTokens(running, third, { enrollee: 3 });
    const creds = { id: portal.clientId, secret: portal.clientSecret };
    const list = await call('GET', '/v2/o/tokens/', creds, 'BBUser00003');
    assert.equal(list.status, 200);
    const grants = list.body as { id: string; application: { id: string; name: string } }[];
    assert.deepEqual(
      grants.map((g) => g.application.name),
      ['Third Party'],
    );
    assert.equal(grants[0]!.application.id, third.clientId);
    assert.equal((await call('GET', `/v2/o/tokens/${grants[0]!.id}/`, creds, 'BBUser00003')).status, 200);
    assert.equal((await call('DELETE', `/v2/o/tokens/${grants[0]!.id}/`, creds, 'BBUser00003')).status, 204);
    assert.equal((await userinfo(running.url, tokens.access_token)).status, 401);
    assert.equal((await call('DELETE', `/v2/o/tokens/${grants[0]!.id}/`, creds, 'BBUser00003')).status, 404);
    assert.equal((await call('POST', '/v2/o/tokens/', creds, 'BBUser00003')).status, 405);
    assert.equal((await call('GET', '/v2/o/tokens/', creds, 'NoSuchUser')).status, 404);
    const notPortal = await call(
      'GET',
      '/v2/o/tokens/',
      { id: third.clientId, secret: third.clientSecret },
      'BBUser00003',
    );
    assert.deepEqual(notPortal, {
      status: 403,
      body: { detail: 'You do not have permission to perform this action.' },
    });
    assert.equal(
      (await call('GET', '/v2/o/tokens/', { id: portal.clientId, secret: 'wrong' }, 'BBUser00003')).status,
      401,
    );
  });
});
