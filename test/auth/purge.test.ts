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

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
interface Tokens {
  access_token: string;
  refresh_token?: string;
}

async function consentAndExchange(app: TestApp): Promise<Tokens> {
  const flow = await authorizeThroughPages(running.url, {
    clientId: app.clientId,
    redirectUri: app.redirectUri,
  });
  const exchanged = await postForm(
    `${running.url}/v2/o/token/`,
    {
      grant_type: 'authorization_code',
      code: flow.code!,
      redirect_uri: app.redirectUri,
      code_verifier: flow.pkce.verifier,
    },
    { id: app.clientId, secret: app.clientSecret },
  );
  assert.equal(exchanged.status, 200, exchanged.text);
  return exchanged.body as Tokens;
}

function refresh(app: TestApp, token: string) {
  return postForm(
    `${running.url}/v2/o/token/`,
    { grant_type: 'refresh_token', refresh_token: token },
    { id: app.clientId, secret: app.clientSecret },
  );
}

test('purge removes revoked families after 30 days and expired 10-hour ones, never a live family', async () => {
  const app = await createTestApp(running);
  const replaced = await consentAndExchange(app);
  // A new consent and exchange revoke the first family (one live family per app and enrollee).
  const first = await consentAndExchange(app);
  const second = (await refresh(app, first.refresh_token!)).body as Tokens;
  const { tokens } = running.service.deps;
  const familyOf = (token: string) => token.split('.')[0]!;

  await tokens.purgeStale(running.clock.now() + 29 * DAY);
  const kept = await tokens.findRefreshFamily(
    familyOf(replaced.refresh_token!),
    sha256(replaced.refresh_token!),
  );
  assert.equal(kept?.revoked, true, 'a revoked family is kept for 30 days');
  assert.equal((await refresh(app, replaced.refresh_token!)).text, '{"error":"invalid_grant"}');

  await tokens.purgeStale(running.clock.now() + 31 * DAY);
  assert.equal(
    await tokens.findRefreshFamily(familyOf(replaced.refresh_token!), sha256(replaced.refresh_token!)),
    undefined,
  );
  const live = await tokens.findRefreshFamily(familyOf(second.refresh_token!), sha256(second.refresh_token!));
  assert.equal(live?.current, true, 'a live family is never purged');

  running.clock.advance(31 * DAY);
  const again = await refresh(app, second.refresh_token!);
  assert.equal(again.status, 200, 'the live family still refreshes after a purge');
});

test('a 10-hour family goes a day after its access token expired', async () => {
  const app = await createTestApp(running, { dataAccessType: 'ONE_TIME' });
  const issued = await consentAndExchange(app);
  const { tokens } = running.service.deps;
  const hash = sha256(issued.access_token);
  const family = issued.access_token.split('.')[0]!;
  await tokens.purgeStale(running.clock.now() + 10 * 3_600_000 + DAY - 60_000);
  assert.ok(await tokens.findTokenOwner(family, hash), 'kept until a day after expiry');
  await tokens.purgeStale(running.clock.now() + 10 * 3_600_000 + DAY + 60_000);
  assert.equal(await tokens.findTokenOwner(family, hash), undefined);
});
