import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { authorizeThroughPages, postForm } from '../helpers/flow.js';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';

let running: RunningService;
before(async () => {
  running = await startService();
});
after(() => running.close());

async function exchange(app: Awaited<ReturnType<typeof createTestApp>>, code: string, verifier: string) {
  return postForm(`${running.url}/v2/o/token/`, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: app.redirectUri,
    code_verifier: verifier,
    client_id: app.clientId,
    client_secret: app.clientSecret,
  });
}

describe('authorization code + refresh, 13 months', () => {
  // The documented fields: docs/decisions.md#token-response.
  test('code exchange returns the documented fields, refresh rotates', async () => {
    const app = await createTestApp(running);
    const flow = await authorizeThroughPages(running.url, {
      clientId: app.clientId,
      redirectUri: app.redirectUri,
    });
    assert.equal(flow.location.searchParams.get('state'), flow.state);
    assert.ok(flow.code);
    const token = await exchange(app, flow.code, flow.pkce.verifier);
    assert.equal(token.status, 200, token.text);
    const body = token.body as Record<string, unknown>;
    assert.equal(body.token_type, 'Bearer');
    assert.equal(typeof body.expires_in, 'number');
    assert.ok((body.expires_in as number) > 35990 && (body.expires_in as number) <= 36000);
    assert.match(String(body.access_grant_expiration), /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z$/);
    assert.equal(body.patient, '-19990000000001');
    assert.ok(body.refresh_token);
    assert.equal(token.headers.get('cache-control'), 'no-store');

    const refreshed = await postForm(
      `${running.url}/v2/o/token/`,
      { grant_type: 'refresh_token', refresh_token: String(body.refresh_token), client_id: app.clientId },
      { id: app.clientId, secret: app.clientSecret },
    );
    assert.equal(refreshed.status, 200, refreshed.text);
    const r = refreshed.body as Record<string, unknown>;
    assert.equal(r.expires_in, 36000);
    assert.notEqual(r.refresh_token, body.refresh_token);
    assert.equal(r.patient, '-19990000000001');
    assert.equal(r.access_grant_expiration, body.access_grant_expiration);

    const reused = await postForm(
      `${running.url}/v2/o/token/`,
      { grant_type: 'refresh_token', refresh_token: String(body.refresh_token) },
      { id: app.clientId, secret: app.clientSecret },
    );
    assert.equal(reused.status, 400);
    assert.equal(reused.text, '{"error":"invalid_grant"}');
  });
});
