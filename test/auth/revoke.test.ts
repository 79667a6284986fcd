import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { postForm } from '../helpers/flow.js';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';
import {
  assertJson,
  basicHeader,
  basicOf,
  enrollee,
  expireUser,
  issueTokens,
  refresh,
  revoke,
  TEXT,
  userinfo,
  type HttpResult,
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

const INVALID_GRANT = '{"error":"invalid_grant"}';
const NOT_AUTHENTICATED = { detail: TEXT.notAuthenticated };
const GRANT_GONE = { status_code: 400, error: 'invalid_grant', error_description: TEXT.grantMissing };

function assertEmpty200(result: HttpResult): void {
  assert.equal(result.status, 200, result.text);
  assert.equal(result.text, '');
}

/** True when the app still holds a grant for the enrollee, observed through the sandbox expire operation. */
async function grantExists(app: TestApp, patientId: string): Promise<boolean> {
  const result = await expireUser(running.url, patientId, basicOf(app));
  if (result.status === 200) return true;
  assert.equal(result.status, 404, result.text);
  assert.equal(result.text, 'Data Access Grant was Not Found.');
  return false;
}

describe('POST /v2/o/revoke/ — token and data access grant', () => {
  test('an access token: 200 empty; the grant is deleted, the access token refused, refresh fails', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app);
    assertEmpty200(await revoke(running.url, app, issued.access_token));
    assertJson(await userinfo(running.url, issued.access_token), 401, NOT_AUTHENTICATED);
    assertJson(await refresh(running.url, app, issued.refresh_token), 400, GRANT_GONE);
    assert.equal(await grantExists(app, enrollee(0).patientId), false);
    // Revoking it again still answers 200.
    assertEmpty200(await revoke(running.url, app, issued.access_token));
  });

  test('a refresh token: the grant goes the same way', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app);
    assertEmpty200(await revoke(running.url, app, issued.refresh_token));
    assertJson(await userinfo(running.url, issued.access_token), 401, NOT_AUTHENTICATED);
    assertJson(await refresh(running.url, app, issued.refresh_token), 400, GRANT_GONE);
    assert.equal(await grantExists(app, enrollee(0).patientId), false);
  });

  test('credentials in the body, path without the trailing slash', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app);
    const result = await postForm(`${running.url}/v2/o/revoke`, {
      token: issued.access_token,
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    assertEmpty200(result);
    assertJson(await userinfo(running.url, issued.access_token), 401, NOT_AUTHENTICATED);
  });

  test('an unknown token: 200 empty', async () => {
    const app = await createTestApp(running);
    assertEmpty200(await revoke(running.url, app, 'no-such-token'));
  });

  test("another app's token: 200, and that token keeps working", async () => {
    const owner = await createTestApp(running);
    const other = await createTestApp(running);
    const issued = await issueTokens(running, owner);
    assertEmpty200(await revoke(running.url, other, issued.access_token));
    assertEmpty200(await revoke(running.url, other, issued.refresh_token));
    assert.equal((await userinfo(running.url, issued.access_token)).status, 200);
    const ok = await refresh(running.url, owner, issued.refresh_token);
    assert.equal(ok.status, 200, ok.text);
  });

  test('bad client credentials: 401 invalid_client; nothing is revoked', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app);
    const bad = await postForm(
      `${running.url}/v2/o/revoke/`,
      { token: issued.access_token },
      { id: app.clientId, secret: 'wrong-secret' },
    );
    assert.equal(bad.status, 401);
    assert.equal(bad.text, '{"error":"invalid_client"}');
    const none = await postForm(`${running.url}/v2/o/revoke/`, { token: issued.access_token });
    assert.equal(none.status, 401, none.text);
    assert.equal((none.body as { error: string }).error, 'invalid_client');
    assert.equal((await userinfo(running.url, issued.access_token)).status, 200);
  });

  test('a token that is no longer live does not end the current grant', async () => {
    const app = await createTestApp(running);
    // A spent refresh token and the access token issued beside it.
    const issued = await issueTokens(running, app, { enrollee: 4 });
    const rotated = await refresh(running.url, app, issued.refresh_token);
    assert.equal(rotated.status, 200, rotated.text);
    const live = rotated.body as TokenBody;
    assertEmpty200(await revoke(running.url, app, issued.refresh_token));
    assertEmpty200(await revoke(running.url, app, issued.access_token));
    assert.equal((await userinfo(running.url, live.access_token)).status, 200);

    // The tokens of a family replaced by a new consent.
    const renewed = await issueTokens(running, app, { enrollee: 4 });
    assertEmpty200(await revoke(running.url, app, live.access_token));
    assertEmpty200(await revoke(running.url, app, live.refresh_token));
    assert.equal((await userinfo(running.url, renewed.access_token)).status, 200);
    const ok = await refresh(running.url, app, renewed.refresh_token);
    assert.equal(ok.status, 200, ok.text);
  });

  test('an inactive app: 401 invalid_client; nothing is revoked', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app);
    await whileInactive(running, app, async () => {
      assertJson(await revoke(running.url, app, issued.access_token), 401, inactiveClientBody(app));
    });
    assert.equal((await userinfo(running.url, issued.access_token)).status, 200);
  });

  test('no token parameter: 400 invalid_request', async () => {
    const app = await createTestApp(running);
    const result = await revoke(running.url, app, undefined);
    assert.equal(result.status, 400, result.text);
    assert.equal((result.body as { error: string }).error, 'invalid_request');
  });
});

describe('POST /v2/o/revoke_token/ — RFC 7009, one token', () => {
  test('an access token: it dies, its paired refresh token answers exactly invalid_grant, the grant stays', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app, { enrollee: 1 });
    assertEmpty200(await revoke(running.url, app, issued.access_token, '/v2/o/revoke_token/'));
    assertJson(await userinfo(running.url, issued.access_token), 401, NOT_AUTHENTICATED);
    const refreshed = await refresh(running.url, app, issued.refresh_token);
    assert.equal(refreshed.status, 400);
    assert.equal(refreshed.text, INVALID_GRANT);
    assert.equal(await grantExists(app, enrollee(1).patientId), true);
  });

  test('a refresh token (with token_type_hint): it and its access token die, the grant stays', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app, { enrollee: 1 });
    assertEmpty200(
      await revoke(running.url, app, issued.refresh_token, '/v2/o/revoke_token/', {
        token_type_hint: 'refresh_token',
      }),
    );
    const refreshed = await refresh(running.url, app, issued.refresh_token);
    assert.equal(refreshed.status, 400);
    assert.equal(refreshed.text, INVALID_GRANT);
    assertJson(await userinfo(running.url, issued.access_token), 401, NOT_AUTHENTICATED);
    assert.equal(await grantExists(app, enrollee(1).patientId), true);
  });

  test('without the trailing slash; an unknown token answers 200', async () => {
    const app = await createTestApp(running);
    assertEmpty200(await revoke(running.url, app, 'no-such-token', '/v2/o/revoke_token'));
  });

  test("another app's token: 403, and the token keeps working", async () => {
    const owner = await createTestApp(running);
    const other = await createTestApp(running);
    const issued = await issueTokens(running, owner, { enrollee: 1 });
    for (const token of [issued.access_token, issued.refresh_token!]) {
      assertJson(await revoke(running.url, other, token, '/v2/o/revoke_token/'), 403, {
        status_code: 403,
        description: 'Application did not have access to the provided token.',
      });
    }
    assert.equal((await userinfo(running.url, issued.access_token)).status, 200);
    const ok = await refresh(running.url, owner, issued.refresh_token);
    assert.equal(ok.status, 200, ok.text);
  });

  test('bad client credentials: 401 invalid_client', async () => {
    const app = await createTestApp(running);
    const bad = await postForm(
      `${running.url}/v2/o/revoke_token/`,
      { token: 'whatever' },
      { id: app.clientId, secret: 'wrong-secret' },
    );
    assert.equal(bad.status, 401);
    assert.equal(bad.text, '{"error":"invalid_client"}');
  });

  test('no token parameter: 400 invalid_request', async () => {
    const app = await createTestApp(running);
    const result = await revoke(running.url, app, undefined, '/v2/o/revoke_token/');
    assert.equal(result.status, 400, result.text);
    assert.equal((result.body as { error: string }).error, 'invalid_request');
  });
});

describe('POST /v2/o/expire_authenticated_user/<patient_id>/ — sandbox', () => {
  test('expires the grant: 200 success; then refresh and userinfo fail; a second call finds no grant', async () => {
    const app = await createTestApp(running);
    const patientId = enrollee(2).patientId;
    const issued = await issueTokens(running, app, { enrollee: 2 });
    const result = await expireUser(running.url, patientId, basicOf(app));
    assert.equal(result.status, 200, result.text);
    assert.equal(result.text, 'success');
    assertJson(await refresh(running.url, app, issued.refresh_token), 400, GRANT_GONE);
    assertJson(await userinfo(running.url, issued.access_token), 401, NOT_AUTHENTICATED);

    const again = await expireUser(running.url, patientId, basicOf(app));
    assert.equal(again.status, 404);
    assert.equal(again.text, 'Data Access Grant was Not Found.');
  });

  test('the path without the trailing slash works the same', async () => {
    const app = await createTestApp(running);
    await issueTokens(running, app, { enrollee: 2 });
    const response = await fetch(`${running.url}/v2/o/expire_authenticated_user/${enrollee(2).patientId}`, {
      method: 'POST',
      headers: { authorization: basicHeader(app.clientId, app.clientSecret), 'content-length': '0' },
    });
    assert.equal(response.status, 200);
    assert.equal(await response.text(), 'success');
  });

  test('an unknown patient: 404 with the patient text', async () => {
    const app = await createTestApp(running);
    const result = await expireUser(running.url, '-10000000000000', basicOf(app));
    assert.equal(result.status, 404);
    assert.equal(result.text, 'Patient was Not Found. Please check the id number and try again.');
  });

  test('a patient who never granted this app access: 404 grant text', async () => {
    const app = await createTestApp(running);
    const result = await expireUser(running.url, enrollee(4).patientId, basicOf(app));
    assert.equal(result.status, 404);
    assert.equal(result.text, 'Data Access Grant was Not Found.');
  });

  test('bad or missing credentials, or an inactive app: 403 FORBIDDEN, and the grant survives', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app, { enrollee: 2 });
    const patientId = enrollee(2).patientId;
    for (const credentials of [
      { id: app.clientId, secret: 'wrong-secret' },
      { id: 'no-such-client', secret: app.clientSecret },
      undefined,
    ]) {
      const result = await expireUser(running.url, patientId, credentials);
      assert.equal(result.status, 403, result.text);
      assert.equal(result.text, 'FORBIDDEN');
    }
    await whileInactive(running, app, async () => {
      const inactive = await expireUser(running.url, patientId, basicOf(app));
      assert.equal(inactive.status, 403, inactive.text);
      assert.equal(inactive.text, 'FORBIDDEN');
    });
    assert.equal((await userinfo(running.url, issued.access_token)).status, 200);
  });

  test("another app's grant for the same patient survives", async () => {
    const first = await createTestApp(running);
    const second = await createTestApp(running);
    const patientId = enrollee(3).patientId;
    const firstTokens = await issueTokens(running, first, { enrollee: 3 });
    const secondTokens = await issueTokens(running, second, { enrollee: 3 });
    const result = await expireUser(running.url, patientId, basicOf(first));
    assert.equal(result.status, 200, result.text);
    assert.equal(result.text, 'success');
    assertJson(await userinfo(running.url, firstTokens.access_token), 401, NOT_AUTHENTICATED);

    const info = await userinfo(running.url, secondTokens.access_token);
    assert.equal(info.status, 200, info.text);
    const refreshed = await refresh(running.url, second, secondTokens.refresh_token);
    assert.equal(refreshed.status, 200, refreshed.text);
    assert.equal((refreshed.body as TokenBody).patient, patientId);
  });

  test('with OPENENROLL_MODE=production the route does not exist', async () => {
    const production = await startService({ OPENENROLL_MODE: 'production' });
    try {
      const app = await createTestApp(production);
      const result = await expireUser(production.url, enrollee(0).patientId, basicOf(app));
      assert.equal(result.status, 404, result.text);
      assert.notEqual(result.text, 'Data Access Grant was Not Found.');
      assert.notEqual(result.text, 'Patient was Not Found. Please check the id number and try again.');
      assert.deepEqual(result.body, { status_code: 404, message: 'Not found.' });
    } finally {
      await production.close();
    }
  });
});

describe('the enrollee revokes the grant (connected apps)', () => {
  // No HTTP route for the connected-apps page exists yet; this drives the store operation such a page uses.
  test('tokens stop working for that enrollee; other enrollees of the app are untouched', async () => {
    const app = await createTestApp(running);
    const mine = await issueTokens(running, app, { enrollee: 0 });
    const theirs = await issueTokens(running, app, { enrollee: 1 });
    const { deps } = running.service;
    const who = await deps.enrollees.findEnrolleeByPatientId(enrollee(0).patientId);
    assert.ok(who);
    assert.equal(
      await deps.tokens.deleteGrant(app.clientId, who.id, 'revoked-by-enrollee', running.clock.now()),
      true,
    );
    assertJson(await userinfo(running.url, mine.access_token), 401, NOT_AUTHENTICATED);
    assertJson(await refresh(running.url, app, mine.refresh_token), 400, GRANT_GONE);
    assert.equal((await userinfo(running.url, theirs.access_token)).status, 200);
    const ok = await refresh(running.url, app, theirs.refresh_token);
    assert.equal(ok.status, 200, ok.text);
  });
});
