import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SANDBOX_KEY } from '../plans/plan-api.js';
import { postJson } from '../helpers/priced-market.js';
import { startCountingService, type CountingService } from '../helpers/round-trips.js';
import { createTestApp, onPostgres } from '../helpers/service.js';
import { consent, exchange, issueTokens, refresh, type TokenBody } from '../helpers/token-calls.js';
import { ACCESS_LEASE_MS } from '../../src/auth/store/access-contexts.js';
import { APP_LEASE_MS } from '../../src/auth/store/apps.js';
import { KEY_LEASE_MS } from '../../src/plans/store/api-keys.js';

/**
 * How many statements each hot path sends to the database per request: on PostgreSQL each is a round trip,
 * and the round trips, not the queries, set those paths' pace (bench/RESULTS.md, issue 30). The counts are
 * nearly the same on both databases; a change that adds a statement to one of these paths fails here.
 */
let running: CountingService;

/**
 * The statements of `call` made right after another `call`, both within `leaseMs` of the first one's start:
 * what a kept row saves is asserted only where the lease has not run out (a loaded machine may take longer;
 * the pair is then tried again).
 */
async function withinLease<T>(leaseMs: number, call: () => Promise<T>) {
  for (let attempt = 0; attempt < 20; attempt++) {
    const started = performance.now();
    await call();
    const counted = await running.statementsDuring(call);
    if (performance.now() - started < leaseMs) return counted;
  }
  throw new Error(`no two requests within ${leaseMs} ms in 20 attempts: the machine is too slow to tell`);
}
before(async () => {
  running = await startCountingService({ SANDBOX_ENROLLEES: '3' });
});
after(() => running.close());

describe('statements per request on the hot paths', () => {
  test('a refresh grant is one statement', async () => {
    const app = await createTestApp(running);
    let tokens = await issueTokens(running, app, { enrollee: 1 });
    for (let i = 0; i < 3; i++) {
      const { result, statements, handles } = await running.statementsDuring(() =>
        refresh(running.url, app, tokens.refresh_token),
      );
      assert.equal(result.status, 200, result.text);
      tokens = result.body as TokenBody;
      assert.deepEqual(statements.length, 1, statements.join('\n'));
      // PostgreSQL: through the token writes' pool, which commits without waiting for the WAL flush.
      assert.deepEqual(handles, [onPostgres ? 'tokens' : 'db']);
    }
  });

  test('refreshes of different families at once share a statement on PostgreSQL, one each on SQLite', async () => {
    const apps = await Promise.all([1, 2, 3, 4, 5, 6].map(() => createTestApp(running)));
    const issued: TokenBody[] = [];
    for (const app of apps) issued.push(await issueTokens(running, app, { enrollee: 2 }));
    let current = issued.map((t) => t.refresh_token!);
    /** Every app refreshes at once; the fourth presents a wrong secret: refused on its own. */
    const round = async () => {
      const { result, statements } = await running.statementsDuring(() =>
        Promise.all(
          apps.map((app, i) =>
            refresh(running.url, i === 3 ? { ...app, clientSecret: 'not-the-secret' } : app, current[i]),
          ),
        ),
      );
      assert.deepEqual(
        result.map((r) => r.status),
        [200, 200, 200, 401, 200, 200],
        result.map((r) => r.text).join(' | '),
      );
      const spent = current;
      current = result.map((r, i) => (i === 3 ? spent[i]! : (r.body as TokenBody).refresh_token!));
      return { spent, rotations: statements.filter((s) => /update "?token_families"?/i.test(s)) };
    };
    const first = await round();
    // Each new pair is its own family's: the spent tokens no longer work, the refused one still does.
    for (const [i, app] of apps.entries()) {
      if (i !== 3) assert.equal((await refresh(running.url, app, first.spent[i])).status, 400, `app ${i}`);
    }
    if (!onPostgres) {
      assert.equal(first.rotations.length, 6, first.rotations.join('\n'));
      return;
    }
    // Batches form when requests meet on their way to the database: over HTTP that is likely, not certain.
    let rotations = first.rotations;
    for (let i = 0; i < 20 && rotations.length >= 6; i++) rotations = (await round()).rotations;
    assert.ok(rotations.length < 6, rotations.join('\n'));
    assert.ok(
      rotations.every((s) => /unnest/.test(s)),
      rotations.join('\n'),
    );
    assert.equal((await refresh(running.url, apps[3]!, current[3])).status, 200);
  });

  test('a code exchange (with an ID token) is a read and one call (PostgreSQL) or transaction', async () => {
    const app = await createTestApp(running);
    // A first exchange signs with a key generated then; a refresh just before the counted exchange signs
    // too, so the exchange finds the key set kept (a lease of seconds, auth/store/signing-keys.ts).
    let current = (await issueTokens(running, app, { enrollee: 2 })).refresh_token;
    const counted = async () => {
      // The consent reads the client's row, which the exchange finds kept (a lease on PostgreSQL,
      // auth/store/apps.ts; on SQLite until another connection commits).
      for (let attempt = 0; attempt < 20; attempt++) {
        const started = performance.now();
        const flow = await consent(running, app, { enrollee: 2 });
        const refreshed = await refresh(running.url, app, current);
        assert.equal(refreshed.status, 200, refreshed.text);
        const exchanged = await running.statementsDuring(() => exchange(running.url, app, flow));
        // The exchange replaced the pair's family: its refresh token is the one to use next.
        current = (exchanged.result.body as TokenBody).refresh_token;
        if (performance.now() - started < APP_LEASE_MS) return exchanged;
      }
      throw new Error(
        `no consent and exchange within ${APP_LEASE_MS} ms in 20 attempts: the machine is too slow`,
      );
    };
    const { result, statements, handles } = await counted();
    assert.equal(result.status, 200, result.text);
    assert.ok((result.body as TokenBody).id_token, 'the scope holds openid: an ID token was signed');
    // The code with its enrollee and grant; then the grant locked and the code spent, and the pair's family
    // replaced: one call of a function on PostgreSQL (migration 0017), a transaction run in process on
    // SQLite.
    const expected = onPostgres
      ? ['select', 'select']
      : ['select', 'begin', 'with', 'update', 'insert', 'commit'];
    assert.deepEqual(
      statements.map((s) => s.split(/\s+/)[0]!.toLowerCase()),
      expected,
      statements.join('\n'),
    );
    // The read through the main pool; the call that redeems the code through the token writes' one.
    assert.deepEqual(handles, onPostgres ? ['db', 'tokens'] : expected.map(() => 'db'));
  });

  test('a data request with a token just used sends only its read (the token family is kept)', async () => {
    const app = await createTestApp(running);
    const tokens = await issueTokens(running, app, { enrollee: 0 });
    const read = async () => {
      const response = await fetch(`${running.url}/v2/fhir/Patient/${String(tokens.patient)}`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      return { status: response.status, text: await response.text() };
    };
    const first = await running.statementsDuring(read);
    assert.equal(first.result.status, 200, first.result.text);
    // The family with its app, enrollee and grant, then the Patient.
    assert.equal(first.statements.length, 2, first.statements.join('\n'));
    const again = await withinLease(ACCESS_LEASE_MS, read);
    assert.equal(again.result.status, 200, again.result.text);
    assert.equal(again.statements.length, 1, again.statements.join('\n'));
    assert.match(again.statements[0]!, /fhir_resources/);
  });

  test('a plan search with a known key sends nothing to the database', async () => {
    const year = new Date(running.clock.now()).getUTCFullYear();
    const search = () =>
      postJson(running.url, SANDBOX_KEY, '/plans/search', {
        place: { countyfips: '48091', state: 'TX', zipcode: '78130' },
        market: 'Individual',
        year,
        household: {
          income: 40_000,
          people: [{ age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
        },
      });
    const first = await search();
    assert.equal(first.status, 200, await first.text());
    for (let i = 0; i < 3; i++) {
      const { result, statements } = await withinLease(KEY_LEASE_MS, search);
      assert.equal(result.status, 200, await result.text());
      assert.deepEqual(statements, []);
    }
  });
});
