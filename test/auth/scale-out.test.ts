import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { registerApp } from '../../src/auth/oauth/registration.js';
import { createAppStore } from '../../src/auth/store/apps.js';
import type { Storage } from '../../src/storage/connect.js';
import { authorizeThroughPages, Browser } from '../helpers/flow.js';
import { startTwoServers, stopServer, type ServerProcess } from '../helpers/processes.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/service.js';
import {
  assertJson,
  enrollee,
  exchange,
  refresh,
  revoke,
  TEXT,
  userinfo,
  type TestApp,
  type TokenBody,
} from '../helpers/token-calls.js';

/**
 * Two real server processes on one database (PostgreSQL schema or SQLite file): every step of the flow can
 * land on either instance, as behind a load balancer without sticky sessions.
 */
let database: TestDatabase;
let storage: Storage | undefined;
const servers: ServerProcess[] = [];
let a: ServerProcess;
let b: ServerProcess;

before(async () => {
  database = createTestDatabase();
  // Creates the PostgreSQL schema (or the SQLite directory) before the processes connect.
  await (await database.open()).close();
  const url = database.processUrl;
  if (onPostgres) assert.match(url, /\?options=-c%20search_path%3Dt_[0-9a-f]+$/);
  // Both start at once: migrations and sandbox seeding must tolerate a concurrent start.
  [a, b] = await startTwoServers(url, { SANDBOX_ENROLLEES: '3' });
  servers.push(a, b);
  storage = await database.open();
});

after(async () => {
  await Promise.all(servers.map(stopServer));
  await storage?.close();
  await database.drop();
});

async function newApp(name: string): Promise<TestApp> {
  const { app, clientSecret } = await registerApp(
    createAppStore(storage!.db),
    {
      name: `${name} ${Date.now()}`,
      redirectUris: ['http://127.0.0.1:3001/callback'],
      dataAccessType: 'THIRTEEN_MONTH',
      requireDemographicScopes: true,
    },
    Date.now(),
  );
  return { clientId: app.clientId, clientSecret, redirectUri: app.redirectUris[0]!, app };
}

/** A browser whose requests alternate between the instances. */
class AlternatingBrowser extends Browser {
  private turn = 0;
  constructor(private readonly bases: string[]) {
    super(bases[0]!);
  }
  override request(path: string, init: RequestInit = {}): Promise<Response> {
    const base = this.bases[this.turn++ % this.bases.length]!;
    const url = path.startsWith('http') ? base + new URL(path).pathname + new URL(path).search : base + path;
    return super.request(url, init);
  }
}

describe('scale-out: two processes, one database', () => {
  test('both processes use the shared database (apps registered outside are known to both)', async () => {
    const app = await newApp('Shared');
    for (const server of [a, b]) {
      // An unknown token for a known client: 200 from revoke (an unknown client would get 401).
      const result = await revoke(server.url, app, 'no-such-token');
      assert.equal(result.status, 200, `${server.name}: ${result.text}`);
    }
  });

  /** A FHIR read with the token: its Bearer check is answered from kept rows where they are fresh enough. */
  const readPatient = (url: string, tokens: TokenBody) =>
    fetch(`${url}/v2/fhir/Patient/${String(tokens.patient)}`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });

  test('consent on A, code on B, refresh on A then B, revoke on A → B refuses', async () => {
    const app = await newApp('Scale');
    const who = enrollee(1);
    const flow = await authorizeThroughPages(a.url, {
      clientId: app.clientId,
      redirectUri: app.redirectUri,
      username: who.username,
      password: who.password,
    });
    assert.ok(flow.code, flow.location.href);

    const issued = await exchange(b.url, app, flow);
    assert.equal(issued.status, 200, issued.text);
    const first = issued.body as TokenBody;
    assert.equal(first.patient, who.patientId);
    // The code is spent for both instances.
    const reused = await exchange(a.url, app, flow);
    assert.equal(reused.status, 400);
    assert.equal(reused.text, '{"error":"invalid_grant"}');
    // Reuse revoked what the code issued; consent again for a live family.
    const flow2 = await authorizeThroughPages(a.url, {
      clientId: app.clientId,
      redirectUri: app.redirectUri,
      username: who.username,
      password: who.password,
    });
    const issued2 = await exchange(b.url, app, flow2);
    assert.equal(issued2.status, 200, issued2.text);
    const tokens = issued2.body as TokenBody;
    assert.equal((await userinfo(a.url, tokens.access_token)).status, 200);

    const onA = await refresh(a.url, app, tokens.refresh_token);
    assert.equal(onA.status, 200, onA.text);
    const second = onA.body as TokenBody;
    assert.equal(second.expires_in, 36000);
    assert.equal(second.patient, who.patientId);
    // A now keeps the family with the second access token (a lease on PostgreSQL)...
    assert.equal((await readPatient(a.url, second)).status, 200);
    // The spent refresh token is spent on B too.
    const spentOnB = await refresh(b.url, app, tokens.refresh_token);
    assert.equal(spentOnB.status, 400);
    assert.equal(spentOnB.text, '{"error":"invalid_grant"}');

    const onB = await refresh(b.url, app, second.refresh_token);
    assert.equal(onB.status, 200, onB.text);
    const third = onB.body as TokenBody;
    // ...and admits the third one B just issued at once: a kept row naming another token is read again.
    assert.equal((await readPatient(a.url, third)).status, 200);
    assert.equal((await userinfo(a.url, third.access_token)).status, 200);
    // B keeps it too; the revocation on A returns only once B can no longer admit it.
    assert.equal((await readPatient(b.url, third)).status, 200);
    assert.equal((await userinfo(b.url, third.access_token)).status, 200);

    const revoked = await revoke(a.url, app, third.access_token);
    assert.equal(revoked.status, 200, revoked.text);
    assert.equal(revoked.text, '');
    assertJson(await userinfo(b.url, third.access_token), 401, { detail: TEXT.notAuthenticated });
    assert.equal((await readPatient(b.url, third)).status, 401);
    assertJson(await refresh(b.url, app, third.refresh_token), 400, {
      status_code: 400,
      error: 'invalid_grant',
      error_description: TEXT.grantMissing,
    });
  });

  test('the same refresh token sent to A and B at once: exactly one succeeds', async () => {
    const app = await newApp('Race');
    const who = enrollee(2);
    const flow = await authorizeThroughPages(a.url, {
      clientId: app.clientId,
      redirectUri: app.redirectUri,
      username: who.username,
      password: who.password,
    });
    const issued = await exchange(a.url, app, flow);
    assert.equal(issued.status, 200, issued.text);
    const token = (issued.body as TokenBody).refresh_token;
    const results = await Promise.all([a, b, a, b, a, b].map((server) => refresh(server.url, app, token)));
    const winners = results.filter((r) => r.status === 200);
    assert.equal(winners.length, 1, results.map((r) => `${r.status} ${r.text}`).join('\n'));
    for (const loser of results.filter((r) => r.status !== 200)) {
      assert.equal(loser.status, 400);
      assert.equal(loser.text, '{"error":"invalid_grant"}');
    }
  });

  test('a browser whose every request lands on the other instance completes login and consent', async () => {
    const app = await newApp('Roaming');
    const who = enrollee(0);
    const browser = new AlternatingBrowser([a.url, b.url]);
    const flow = await authorizeThroughPages(
      a.url,
      {
        clientId: app.clientId,
        redirectUri: app.redirectUri,
        username: who.username,
        password: who.password,
      },
      browser,
    );
    assert.ok(flow.code, flow.location.href);
    const issued = await exchange(b.url, app, flow);
    assert.equal(issued.status, 200, issued.text);
    assert.equal((issued.body as TokenBody).patient, who.patientId);
  });
});
