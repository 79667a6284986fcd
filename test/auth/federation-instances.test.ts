import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  CALLBACK_PATH,
  connectAndExchange,
  readFhir,
  returnFromIdp,
  startAtLoginPage,
} from '../helpers/federation-flow.js';
import type { TestApp } from '../helpers/pages.js';
import { freePort } from '../helpers/processes.js';
import {
  createTestApp,
  createTestDatabase,
  onPostgres,
  startService,
  type RunningService,
  type TestDatabase,
} from '../helpers/service.js';
import { startTestIdp, type TestIdp } from '../helpers/test-idp.js';

/**
 * Two instances of one deployment (one `PUBLIC_URL`, one database — a PostgreSQL schema when DATABASE_URL
 * names one, else a SQLite file): a sign-in started on one finishes on the other, because the pending
 * sign-in and the session live in the database. Each instance discovers the IdP for itself (its
 * configuration is process memory only).
 */

let idp: TestIdp;
let database: TestDatabase;
let a: RunningService;
let b: RunningService;
let publicUrl: string;
let app: TestApp;

before(async () => {
  const [portA, portB] = [await freePort(), await freePort()];
  publicUrl = `http://127.0.0.1:${portA}`;
  idp = await startTestIdp({
    redirectUris: [`${publicUrl}${CALLBACK_PATH}`],
    members: { jane: { patient_id: '-19990000000003' } },
  });
  const env = { ...idp.env(), PUBLIC_URL: publicUrl, SANDBOX_ENROLLEES: '3' };
  database = createTestDatabase();
  a = await startService(env, portA, database);
  b = await startService(env, portB, database);
  // Start-up discovers the IdP without waiting for it; the test waits, so the count below is settled.
  await Promise.all([a, b].map((s) => s.service.deps.identityProvider!.configuration()));
  app = await createTestApp(a);
});
after(async () => {
  // Both were started on one database; each drops it on close (the second drop finds nothing).
  await b?.close();
  await a?.close();
  await idp?.close();
});

describe(`one sign-in, two instances (${onPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  test('started on A, the IdP’s callback lands on B: B finishes it, and A then sees the session', async () => {
    // Each instance discovered the IdP for itself when it started, and keeps that in its memory.
    assert.equal(idp.hits('/.well-known/openid-configuration'), 2);
    // The login page asks whether the IdP answers, fetching its discovery document again once the answer
    // of start-up is older than PROBE_TTL_MS (a slow machine gets there while starting B): asked here
    // first, so the sign-in below is counted alone.
    await Promise.all([a, b].map((s) => s.service.deps.identityProvider!.reachable()));
    const known = idp.hits('/.well-known/openid-configuration');
    const flow = await startAtLoginPage(a.url, app);
    const { response } = await returnFromIdp(flow, publicUrl, 'jane', b.url);
    assert.equal(response.status, 302, await response.clone().text());
    assert.equal(idp.hits('/.well-known/openid-configuration'), known, 'no discovery per sign-in');
    // connectAndExchange continues on the browser's base (A): the session B opened is A's too.
    const tokens = await connectAndExchange(b.url, flow, response, app);
    assert.equal(tokens.patient, '-19990000000003');
    const patient = await readFhir(a.url, '/v2/fhir/Patient/-19990000000003', tokens.access_token);
    assert.equal(patient.status, 200);
  });

  test('started on B, finished on A; the same callback replayed on B is refused (a state is used once)', async () => {
    const flow = await startAtLoginPage(b.url, app);
    const first = await returnFromIdp(flow, publicUrl, 'jane', a.url);
    assert.equal(first.response.status, 302);
    const replay = await flow.browser.get(`${b.url}${CALLBACK_PATH}${first.callbackUrl.search}`);
    assert.equal(replay.status, 400);
  });
});
