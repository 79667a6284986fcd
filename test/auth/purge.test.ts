import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sha256 } from '../../src/shared/crypto.js';
import { authorizeThroughPages, postForm } from '../helpers/flow.js';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';

let running: RunningService;
before(async () => {
  running = await startService();
});
after(() => running.close());

const DAY = 86_400_000;

test('purge removes spent refresh tokens after 30 days and expired access tokens, never live ones', async () => {
  const app = await createTestApp(running);
  const flow = await authorizeThroughPages(running.url, {
    clientId: app.clientId,
    redirectUri: app.redirectUri,
  });
  const first = await postForm(`${running.url}/v2/o/token/`, {
    grant_type: 'authorization_code',
    code: flow.code!,
    redirect_uri: app.redirectUri,
    code_verifier: flow.pkce.verifier,
    client_id: app.clientId,
    client_secret: app.clientSecret,
  });
  const spent = String((first.body as { refresh_token: string }).refresh_token);
  const second = await postForm(
    `${running.url}/v2/o/token/`,
    { grant_type: 'refresh_token', refresh_token: spent },
    { id: app.clientId, secret: app.clientSecret },
  );
  const live = String((second.body as { refresh_token: string }).refresh_token);
  const { tokens } = running.service.deps;

  await tokens.purgeStale(running.clock.now() + 29 * DAY);
  assert.ok(await tokens.findRefreshToken(sha256(spent)), 'a spent token is kept for 30 days');

  await tokens.purgeStale(running.clock.now() + 31 * DAY);
  assert.equal(await tokens.findRefreshToken(sha256(spent)), undefined);
  assert.ok(await tokens.findRefreshToken(sha256(live)), 'a live refresh token is never purged');
  const access = String((second.body as { access_token: string }).access_token);
  assert.equal(await tokens.findAccessTokenOwner(sha256(access)), undefined, 'expired access tokens go');

  running.clock.advance(31 * DAY);
  const again = await postForm(
    `${running.url}/v2/o/token/`,
    { grant_type: 'refresh_token', refresh_token: live },
    { id: app.clientId, secret: app.clientSecret },
  );
  assert.equal(again.status, 200, 'the live family still refreshes after a purge');
});
