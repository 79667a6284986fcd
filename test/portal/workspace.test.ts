import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Browser, hiddenField } from '../helpers/flow.js';
import { startService, type RunningService } from '../helpers/service.js';
import {
  APP_FIELDS,
  authorizeStatus,
  createPortalApp,
  dashboardCsrf,
  verifiedDeveloper,
} from './portal-flow.js';
import { sha256 } from '../../src/shared/crypto.js';
import { startMailbox, type Mailbox } from './mailbox.js';

let sandbox: RunningService;
let production: RunningService;
let mailbox: Mailbox;

before(async () => {
  mailbox = await startMailbox();
  sandbox = await startService();
  production = await startService({ OPENENROLL_MODE: 'production', SMTP_URL: mailbox.url });
});
after(async () => {
  await sandbox.close();
  await production.close();
  await mailbox.close();
});

const errorOf = (html: string) => /<p class="error" role="alert">([^<]*)<\/p>/.exec(html)?.[1];
const stateOf = (html: string) => /<strong class="state">([^<]*)<\/strong>/.exec(html)?.[1];

describe('applications', () => {
  test('sandbox: a new app is approved at once; the secret is shown once and stored hashed', async () => {
    const { browser } = await verifiedDeveloper(sandbox.url);
    const { clientId, clientSecret } = await createPortalApp(browser, { name: 'Sandbox Portal App' });
    const app = (await sandbox.service.deps.apps.findApp(clientId))!;
    assert.equal(app.review, 'approved');
    assert.equal(app.clientSecretHash, sha256(clientSecret));
    assert.equal(app.websiteUri, 'https://app.example/');
    assert.equal(await authorizeStatus(sandbox, clientId), 302, 'authorize goes on to the login');
    const page = await (await browser.get(`/developers/apps/${clientId}`)).text();
    assert.equal(stateOf(page), 'Active');
    assert.ok(!page.includes(clientSecret), 'never shown again');
  });

  test('the rules of apps create: unsafe redirect URI and a taken name are refused on the form', async () => {
    const { browser } = await verifiedDeveloper(sandbox.url);
    const csrf = await dashboardCsrf(browser);
    const bad = await browser.postForm('/developers/apps', {
      csrf,
      ...APP_FIELDS,
      name: 'Rules App',
      redirect_uris: 'http://app.example/cb',
    });
    assert.equal(bad.status, 400);
    assert.match(errorOf(await bad.text()) ?? '', /redirect/i);
    await createPortalApp(browser, { name: 'Taken Name App' });
    const taken = await browser.postForm('/developers/apps', { csrf, ...APP_FIELDS, name: 'taken name app' });
    assert.equal(taken.status, 400);
    assert.match(errorOf(await taken.text()) ?? '', /already exists/);
    const noChoice = await browser.postForm('/developers/apps', {
      csrf,
      ...APP_FIELDS,
      name: 'No Choice',
      demographic: '',
    });
    assert.equal(noChoice.status, 400);
  });

  test('edit, rotate (old secret stops at once), delete; another developer sees none of it', async () => {
    const { browser } = await verifiedDeveloper(sandbox.url);
    const { clientId, clientSecret } = await createPortalApp(browser, { name: 'Editable App' });
    const csrf = await dashboardCsrf(browser);
    const edited = await browser.postForm(`/developers/apps/${clientId}`, {
      csrf,
      ...APP_FIELDS,
      name: 'Edited App',
      demographic: 'no',
      redirect_uris: 'http://127.0.0.1:3001/callback\nhttp://127.0.0.1:3002/other',
    });
    assert.equal(edited.status, 200);
    const app = (await sandbox.service.deps.apps.findApp(clientId))!;
    assert.equal(app.name, 'Edited App');
    assert.equal(app.requireDemographicScopes, false);
    assert.ok(!app.scopes.includes('profile'));
    assert.deepEqual(app.redirectUris, ['http://127.0.0.1:3001/callback', 'http://127.0.0.1:3002/other']);

    const stranger = (await verifiedDeveloper(sandbox.url)).browser;
    assert.equal((await stranger.get(`/developers/apps/${clientId}`)).status, 404);
    const strangerCsrf = await dashboardCsrf(stranger);
    assert.equal(
      (await stranger.postForm(`/developers/apps/${clientId}/delete`, { csrf: strangerCsrf })).status,
      404,
    );
    assert.equal(
      (await browser.postForm(`/developers/apps/${clientId}/rotate`, { csrf: 'forged' })).status,
      403,
    );

    const rotated = await browser.postForm(`/developers/apps/${clientId}/rotate`, { csrf });
    const newSecret = /<code id="client-secret">([^<]+)<\/code>/.exec(await rotated.text())![1]!;
    assert.notEqual(newSecret, clientSecret);
    const basic = (secret: string) => `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
    const token = (secret: string) =>
      fetch(`${sandbox.url}/v2/o/token/`, {
        method: 'POST',
        headers: { authorization: basic(secret), 'content-type': 'application/x-www-form-urlencoded' },
        body:
          'grant_type=authorization_code&code=nothing&redirect_uri=http%3A%2F%2F127.0.0.1%3A3001%2Fcallback&code_verifier=' +
          'a'.repeat(43),
      });
    assert.equal((await token(clientSecret)).status, 401, 'old secret refused');
    assert.equal((await token(newSecret)).status, 400, 'new secret authenticates (the code is bad)');

    assert.equal((await browser.postForm(`/developers/apps/${clientId}/delete`, { csrf })).status, 200);
    assert.equal(await sandbox.service.deps.apps.findApp(clientId), undefined);
  });

  test('production: pending until approved, authorize answers it as unknown; then disabled shows too', async () => {
    const { browser } = await verifiedDeveloper(production.url, mailbox);
    const { clientId, html } = await createPortalApp(browser, { name: 'Production App' });
    assert.match(html, /An operator reviews new applications/);
    const apps = production.service.deps.apps;
    assert.equal((await apps.findApp(clientId))!.review, 'pending');
    assert.equal(await authorizeStatus(production, clientId), 400);
    assert.equal(stateOf(await (await browser.get(`/developers/apps/${clientId}`)).text()), 'Pending review');

    assert.ok(await apps.setReview(clientId, ['pending'], 'approved', Date.now()));
    assert.equal(stateOf(await (await browser.get(`/developers/apps/${clientId}`)).text()), 'Active');
    assert.notEqual(await authorizeStatus(production, clientId), 400);

    assert.ok(await apps.setAppActive(clientId, false, Date.now()));
    assert.equal(
      stateOf(await (await browser.get(`/developers/apps/${clientId}`)).text()),
      'Disabled by the operator',
    );
    assert.equal(await authorizeStatus(production, clientId), 403);
  });

  test('production: a rejected app stays unknown to authorize and its developer sees it', async () => {
    const { browser } = await verifiedDeveloper(production.url, mailbox);
    const { clientId } = await createPortalApp(browser, { name: 'Rejected App' });
    assert.ok(await production.service.deps.apps.setReview(clientId, ['pending'], 'rejected', Date.now()));
    assert.equal(
      await production.service.deps.apps.setReview(clientId, ['pending'], 'approved', Date.now()),
      false,
    );
    assert.equal(stateOf(await (await browser.get(`/developers/apps/${clientId}`)).text()), 'Rejected');
    assert.equal(await authorizeStatus(production, clientId), 400);
  });

  test('pages need a session: without one, to the sign-in page', async () => {
    const response = await new Browser(sandbox.url).get('/developers/apps/new');
    assert.equal(response.status, 303);
  });
});

describe('plan-API keys', () => {
  test('create (shown once, default limits), count today, revoke → 401; not another developer’s', async () => {
    const { browser } = await verifiedDeveloper(sandbox.url);
    const csrf = await dashboardCsrf(browser);
    const created = await browser.postForm('/developers/keys', { csrf, name: 'My integration' });
    assert.equal(created.status, 201);
    const key = /<code id="api-key">([^<]+)<\/code>/.exec(await created.text())![1]!;
    const stored = (await sandbox.service.plans.apiKeys.listKeys()).find((k) => k.name === 'My integration')!;
    assert.equal(stored.perMinute, 1000);
    const call = () => fetch(`${sandbox.url}/api/v1/states?apikey=${key}`);
    assert.equal((await call()).status, 200);
    assert.equal((await call()).status, 200);
    const dashboard = await (await browser.get('/developers')).text();
    assert.match(
      dashboard,
      /My integration<\/td>\s*<td>200\/second, 1000\/minute<\/td>\s*<td class="today">2<\/td>/,
    );
    assert.ok(!dashboard.includes(key));

    const stranger = (await verifiedDeveloper(sandbox.url)).browser;
    const strangerCsrf = await dashboardCsrf(stranger);
    assert.equal(
      (await stranger.postForm(`/developers/keys/${stored.id}/revoke`, { csrf: strangerCsrf })).status,
      404,
    );
    assert.equal((await call()).status, 200);

    const revoked = await browser.postForm(`/developers/keys/${stored.id}/revoke`, {
      csrf: hiddenField(dashboard, 'csrf'),
    });
    assert.equal(revoked.status, 200);
    assert.equal((await call()).status, 401);
  });
});
