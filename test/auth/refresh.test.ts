import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { postForm } from '../helpers/flow.js';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';
import {
  assertFormattedBetween,
  assertJson,
  consent,
  DAY,
  enrollee,
  exchange,
  HOUR,
  issueTokens,
  monthsLater,
  refresh,
  revoke,
  scopeSet,
  TEXT,
  userinfo,
  type HttpResult,
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

function assertInvalidGrant(result: HttpResult, label = 'refresh'): void {
  assert.equal(result.status, 400, `${label}: ${result.text}`);
  assert.equal(result.text, INVALID_GRANT, label);
}

describe('refresh: rotation', () => {
  test('each refresh answers expires_in 36000, a new refresh token, patient and the same grant expiration', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app);
    let current = issued;
    const seen = new Set([issued.refresh_token, issued.access_token]);
    for (let i = 0; i < 3; i += 1) {
      const response = await refresh(running.url, app, current.refresh_token);
      assert.equal(response.status, 200, response.text);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      const body = response.body as TokenBody;
      // `id_token`: the default scopes hold `openid`; a refresh returns a new one (OIDC Core §12.2).
      assert.deepEqual(Object.keys(body).sort(), [
        'access_grant_expiration',
        'access_token',
        'expires_in',
        'id_token',
        'patient',
        'refresh_token',
        'scope',
        'token_type',
      ]);
      assert.equal(body.expires_in, 36000);
      assert.ok(Number.isInteger(body.expires_in));
      assert.equal(body.token_type, 'Bearer');
      assert.equal(body.patient, enrollee(0).patientId);
      assert.equal(body.scope, issued.scope);
      assert.equal(body.access_grant_expiration, issued.access_grant_expiration);
      assert.ok(!seen.has(body.refresh_token), 'the refresh token is new');
      assert.ok(!seen.has(body.access_token), 'the access token is new');
      seen.add(body.refresh_token);
      seen.add(body.access_token);
      assert.equal((await userinfo(running.url, body.access_token)).status, 200);
      // The access token issued beside the spent refresh token is gone.
      assertJson(await userinfo(running.url, current.access_token), 401, { detail: TEXT.notAuthenticated });
      current = body;
    }
  });

  test('a refresh token can be used before its access token expires, with credentials in the body too', async () => {
    const app = await createTestApp(running, { dataAccessType: 'RESEARCH_STUDY' });
    const issued = await issueTokens(running, app);
    const response = await postForm(`${running.url}/v2/o/token/`, {
      grant_type: 'refresh_token',
      refresh_token: issued.refresh_token!,
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    assert.equal(response.status, 200, response.text);
    const body = response.body as TokenBody;
    assert.equal(body.expires_in, 36000);
    assert.equal(body.patient, enrollee(0).patientId);
    assert.equal('access_grant_expiration' in body, false);
    assert.equal(typeof body.refresh_token, 'string');
  });

  test('a used refresh token: exactly {"error":"invalid_grant"}; the newest one stays valid', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app);
    const second = await refresh(running.url, app, issued.refresh_token);
    assert.equal(second.status, 200, second.text);
    const newest = second.body as TokenBody;

    assertInvalidGrant(await refresh(running.url, app, issued.refresh_token), 'reuse');
    assertInvalidGrant(await refresh(running.url, app, issued.refresh_token), 'second reuse');
    // No family revocation: the newest refresh and access tokens still work.
    assert.equal((await userinfo(running.url, newest.access_token)).status, 200);
    const third = await refresh(running.url, app, newest.refresh_token);
    assert.equal(third.status, 200, third.text);
  });

  test('an unknown refresh token: 400 invalid_grant', async () => {
    const app = await createTestApp(running);
    const response = await refresh(running.url, app, 'never-issued-refresh-token');
    assert.equal(response.status, 400, response.text);
    assert.equal((response.body as { error: string }).error, 'invalid_grant');
  });

  test('no refresh_token parameter: 400 invalid_request', async () => {
    const app = await createTestApp(running);
    assertJson(await refresh(running.url, app, undefined), 400, {
      status_code: 400,
      error: 'invalid_request',
      error_description: 'Missing refresh token parameter',
    });
  });

  test("another app's refresh token: 400, and the token stays valid for its app", async () => {
    const owner = await createTestApp(running);
    const other = await createTestApp(running);
    const issued = await issueTokens(running, owner);
    const response = await refresh(running.url, other, issued.refresh_token);
    assert.equal(response.status, 400, response.text);
    assert.equal((response.body as { error: string }).error, 'invalid_grant');
    const ok = await refresh(running.url, owner, issued.refresh_token);
    assert.equal(ok.status, 200, ok.text);
  });

  test('an inactive app may not refresh: 401 with the inactive text; reactivated, the token works', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app);
    await whileInactive(running, app, async () => {
      assertJson(await refresh(running.url, app, issued.refresh_token), 401, inactiveClientBody(app));
    });
    const ok = await refresh(running.url, app, issued.refresh_token);
    assert.equal(ok.status, 200, ok.text);
  });

  test('a 10-hour app may not refresh: 403 invalid_client with the description', async () => {
    const app = await createTestApp(running, { dataAccessType: 'ONE_TIME' });
    const issued = await issueTokens(running, app);
    assert.equal(issued.refresh_token, undefined);
    assertJson(await refresh(running.url, app, 'any-refresh-token-value'), 403, {
      status_code: 403,
      error: 'invalid_client',
      error_description: TEXT.noRefreshForApp,
    });
  });
});

describe('refresh: scope', () => {
  test('a narrower scope is granted; the narrowed token keeps only it; a wider one is invalid_scope', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app);

    const narrowed = await refresh(running.url, app, issued.refresh_token, {
      scope: 'patient/Coverage.rs patient/ExplanationOfBenefit.r',
    });
    assert.equal(narrowed.status, 200, narrowed.text);
    const narrow = narrowed.body as TokenBody;
    assert.deepEqual(scopeSet(narrow.scope), ['patient/Coverage.rs', 'patient/ExplanationOfBenefit.r']);
    // `profile` was dropped, so userinfo is no longer allowed.
    assertJson(await userinfo(running.url, narrow.access_token), 403, { detail: TEXT.noPermission });

    // Widening back to what the original grant held is refused.
    const widened = await refresh(running.url, app, narrow.refresh_token, {
      scope: 'patient/Coverage.rs profile',
    });
    assert.equal(widened.status, 400, widened.text);
    assert.equal(widened.text, '{"error":"invalid_scope"}');

    const stranger = await refresh(running.url, app, narrow.refresh_token, {
      scope: 'patient/Coverage.rs introspection',
    });
    assert.equal(stranger.status, 400, stranger.text);
    assert.equal(stranger.text, '{"error":"invalid_scope"}');

    // Without `scope` the narrowed scope carries over.
    const kept = await refresh(running.url, app, narrow.refresh_token);
    assert.equal(kept.status, 200, kept.text);
    assert.deepEqual(scopeSet((kept.body as TokenBody).scope), [
      'patient/Coverage.rs',
      'patient/ExplanationOfBenefit.r',
    ]);
  });

  test('a scope beyond the original grant is invalid_scope', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app, { scope: 'patient/Coverage.rs openid' });
    assert.deepEqual(scopeSet(issued.scope), ['openid', 'patient/Coverage.rs']);
    const response = await refresh(running.url, app, issued.refresh_token, {
      scope: 'patient/Coverage.rs patient/Patient.rs',
    });
    assert.equal(response.status, 400, response.text);
    assert.equal(response.text, '{"error":"invalid_scope"}');
  });
});

describe('refresh: the data access grant', () => {
  test('after /v2/o/revoke/ the refresh fails with 400 invalid_grant and a description', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app);
    const revoked = await revoke(running.url, app, issued.access_token);
    assert.equal(revoked.status, 200, revoked.text);
    assertJson(await refresh(running.url, app, issued.refresh_token), 400, {
      status_code: 400,
      error: 'invalid_grant',
      error_description: TEXT.grantMissing,
    });
  });

  test('a new consent for the same app and enrollee ends the earlier tokens', async () => {
    const app = await createTestApp(running);
    const first = await issueTokens(running, app, { enrollee: 1 });
    const second = await issueTokens(running, app, { enrollee: 1 });
    assertInvalidGrant(await refresh(running.url, app, first.refresh_token), 'earlier family');
    assertJson(await userinfo(running.url, first.access_token), 401, { detail: TEXT.notAuthenticated });
    const ok = await refresh(running.url, app, second.refresh_token);
    assert.equal(ok.status, 200, ok.text);
  });
});

describe('refresh: concurrency', () => {
  for (const count of [2, 10]) {
    test(`${count} simultaneous refreshes with one token: exactly one succeeds`, async () => {
      const app = await createTestApp(running);
      const issued = await issueTokens(running, app);
      const results = await Promise.all(
        Array.from({ length: count }, () => refresh(running.url, app, issued.refresh_token)),
      );
      const winners = results.filter((r) => r.status === 200);
      const losers = results.filter((r) => r.status !== 200);
      assert.equal(winners.length, 1, results.map((r) => `${r.status} ${r.text}`).join('\n'));
      for (const loser of losers) assertInvalidGrant(loser, 'concurrent loser');
      // The winner's tokens are the live ones.
      const winner = winners[0]!.body as TokenBody;
      assert.equal((await userinfo(running.url, winner.access_token)).status, 200);
      const next = await refresh(running.url, app, winner.refresh_token);
      assert.equal(next.status, 200, next.text);
    });
  }
});

// Tests below move the service clock forward; each builds its own state after the move.
describe('refresh on a moved clock', () => {
  test('refresh works 9 hours later, still before the access token expires, and does not extend the grant', async () => {
    const app = await createTestApp(running);
    const issued = await issueTokens(running, app);
    running.clock.advance(9 * HOUR);
    const response = await refresh(running.url, app, issued.refresh_token);
    assert.equal(response.status, 200, response.text);
    assert.equal((response.body as TokenBody).access_grant_expiration, issued.access_grant_expiration);
  });

  test('a 13-month grant past its expiration: 400 with status_code and the re-consent description; re-consent opens a new window', async () => {
    const app = await createTestApp(running, { dataAccessType: 'THIRTEEN_MONTH' });
    const research = await createTestApp(running, { dataAccessType: 'RESEARCH_STUDY' });
    const issued = await issueTokens(running, app, { enrollee: 2 });
    const researchIssued = await issueTokens(running, research, { enrollee: 2 });
    // Keep the 13-month family fresh for a while: refreshes never move the expiration.
    running.clock.advance(200 * DAY);
    const midway = await refresh(running.url, app, issued.refresh_token);
    assert.equal(midway.status, 200, midway.text);
    assert.equal((midway.body as TokenBody).access_grant_expiration, issued.access_grant_expiration);

    const grantEnd = monthsLater(running.clock.now() - 200 * DAY, 13);
    // An hour before the end the refresh still works…
    running.clock.advance(grantEnd - HOUR - running.clock.now());
    const lastHour = await refresh(running.url, app, (midway.body as TokenBody).refresh_token);
    assert.equal(lastHour.status, 200, lastHour.text);
    const latest = lastHour.body as TokenBody;
    assert.equal(latest.access_grant_expiration, issued.access_grant_expiration);
    // …an hour after it, the still-unexpired access token meets the expired grant
    // (docs/decisions.md#grant-lifecycle)…
    running.clock.advance(2 * HOUR);
    assertJson(await userinfo(running.url, latest.access_token), 401, { detail: TEXT.grantTimedOut });
    const justExpired = await refresh(running.url, app, latest.refresh_token);
    assertJson(justExpired, 400, {
      status_code: 400,
      error: 'invalid_grant',
      error_description: TEXT.grantTimedOut,
    });
    // …and 13 months + 2 days after consent it is still refused the same way.
    running.clock.advance(grantEnd + 2 * DAY - running.clock.now());
    const expired = await refresh(running.url, app, latest.refresh_token);
    assertJson(expired, 400, {
      status_code: 400,
      error: 'invalid_grant',
      error_description: TEXT.grantTimedOut,
    });
    assert.match(TEXT.grantTimedOut, /end user must re-authenticate and consent/);

    // Research grants never expire.
    const researchRefresh = await refresh(running.url, research, researchIssued.refresh_token);
    assert.equal(researchRefresh.status, 200, researchRefresh.text);
    assert.equal((researchRefresh.body as TokenBody).expires_in, 36000);
    assert.equal('access_grant_expiration' in (researchRefresh.body as TokenBody), false);

    // The enrollee consents again: a fresh 13-month window from now.
    const beforeConsent = running.clock.now();
    const flow = await consent(running, app, { enrollee: 2 });
    const afterConsent = running.clock.now();
    const renewed = await exchange(running.url, app, flow);
    assert.equal(renewed.status, 200, renewed.text);
    const fresh = renewed.body as TokenBody;
    assert.ok(fresh.expires_in > 0 && fresh.expires_in <= 36000, `expires_in ${fresh.expires_in}`);
    assertFormattedBetween(
      fresh.access_grant_expiration,
      monthsLater(beforeConsent, 13),
      monthsLater(afterConsent, 13),
      'renewed access_grant_expiration',
    );
    const again = await refresh(running.url, app, fresh.refresh_token);
    assert.equal(again.status, 200, again.text);
    assert.equal((again.body as TokenBody).access_grant_expiration, fresh.access_grant_expiration);
    // The pre-expiry refresh token stays dead.
    assertInvalidGrant(await refresh(running.url, app, latest.refresh_token), 'old family');
  });
});
