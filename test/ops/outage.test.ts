import assert from 'node:assert/strict';
import pg from 'pg';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/shared/logger.js';
import { buildService } from '../../src/server.js';
import { connect, type Storage } from '../../src/storage/connect.js';
import { Browser } from '../helpers/flow.js';
import { memoryLog } from '../helpers/logged-service.js';
import { logIn } from '../helpers/pages.js';
import {
  createClock,
  createTestApp,
  createTestDatabase,
  onPostgres,
  redisUrl,
  type RunningService,
  type TestDatabase,
} from '../helpers/service.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { issueTokens, refresh, type TestApp, type TokenBody } from '../helpers/token-calls.js';
import { call, type Answer } from '../helpers/timed-call.js';

/**
 * Faults injected between the service and its dependencies with a TCP proxy in the test (the shared
 * PostgreSQL and Redis are never disturbed): connections cut, refused and stalled. The service runs in
 * this process, so an unhandled `error` event from a client would end the test run itself.
 */

const KEY = 'd687412e7b53146b2631dc01974ad0a4';
const ZIP_LOOKUP = `/api/v1/counties/by/zip/27360?apikey=${KEY}`;
const CONNECT_TIMEOUT_MS = 500;
const QUERY_TIMEOUT_MS = 1000;
/** No answer during an outage may take longer than this (the timeouts above plus a wide margin). */
const ANSWER_BOUND_MS = 4000;

interface ProxiedService extends RunningService {
  proxy: TcpProxy;
  logs: () => Record<string, unknown>[];
}

/** The real service with its database (`via: 'database'`) or its Redis behind a proxy, logs kept. */
async function startProxied(via: 'database' | 'redis'): Promise<ProxiedService> {
  const log = memoryLog();
  const database: TestDatabase = createTestDatabase();
  let proxy: TcpProxy;
  let storage: Storage;
  const env: Record<string, string> = {
    LOG_LEVEL: 'info',
    SANDBOX_ENROLLEES: '3',
    DB_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
    DB_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS),
    REDIS_COMMAND_TIMEOUT_MS: '200',
  };
  if (via === 'database') {
    const target = new URL(database.url);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const proxied = new URL(database.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    storage = await connect(proxied.toString(), {
      schema: database.schema,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      queryTimeoutMs: QUERY_TIMEOUT_MS,
    });
    if (redisUrl) Object.assign(env, { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `test-${proxy.port}:` });
  } else {
    const target = new URL(redisUrl!);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 6379));
    const proxied = new URL(redisUrl!);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    Object.assign(env, { REDIS_URL: proxied.toString(), REDIS_KEY_PREFIX: `test-${proxy.port}:` });
    storage = await database.open();
  }
  const clock = createClock();
  const config = loadConfig(env);
  const service = await buildService(config, createLogger('info', log.sink), { storage, now: clock.now });
  const url = await service.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    service,
    clock,
    database,
    proxy,
    logs: log.records,
    async close() {
      await proxy.restore();
      await service.close();
      await storage.close();
      await proxy.close();
      await database.drop();
    },
  };
}

function messages(service: ProxiedService, msg: string): Record<string, unknown>[] {
  return service.logs().filter((r) => r.msg === msg);
}

async function eventually(check: () => Promise<boolean>, limitMs: number, label: string): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`${label}: not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function assertUnavailable(answer: Answer, label: string): void {
  assert.equal(answer.status, 503, `${label}: ${answer.status} ${answer.text}`);
  assert.ok(answer.retryAfter && /^\d+$/.test(answer.retryAfter), `${label}: Retry-After`);
  assert.ok(answer.ms < ANSWER_BOUND_MS, `${label}: answered after ${Math.round(answer.ms)} ms`);
}

describe('PostgreSQL goes away', { skip: onPostgres ? false : 'needs DATABASE_URL=postgres://…' }, () => {
  let running: ProxiedService;
  let app: TestApp;
  let tokens: TokenBody;
  before(async () => {
    running = await startProxied('database');
    app = await createTestApp(running);
    tokens = await issueTokens(running, app);
  });
  after(() => running?.close());

  const bearer = () => ({ headers: { authorization: `Bearer ${tokens.access_token}` } });

  test('connections cut (a restart, a failover): the process lives and the next requests succeed', async () => {
    assert.equal((await call(running.url, ZIP_LOOKUP)).status, 200);
    for (let round = 0; round < 5; round += 1) {
      const inFlight = Array.from({ length: 10 }, () => call(running.url, ZIP_LOOKUP));
      running.proxy.cut();
      for (const answer of await Promise.all(inFlight)) {
        assert.ok([200, 503].includes(answer.status), `during the cut: ${answer.status} ${answer.text}`);
      }
      // Idle connections were cut too; the pool replaces them on the next request.
      const next = await call(running.url, ZIP_LOOKUP);
      assert.equal(next.status, 200, next.text);
      assert.equal((await call(running.url, `/v2/fhir/Patient/${tokens.patient}`, bearer())).status, 200);
    }
  });

  test('connections terminated by the server (57P01, as a restart or failover sends): the process lives', async () => {
    // Several idle connections in the pool first.
    await Promise.all(Array.from({ length: 5 }, () => call(running.url, ZIP_LOOKUP)));
    const admin = new pg.Client({ connectionString: running.database.url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ terminated: boolean }>(
        `select pg_terminate_backend(pid) as terminated from pg_stat_activity
          where client_addr = '127.0.0.1' and client_port = any($1::int[])`,
        [running.proxy.upstreamPorts()],
      );
      assert.ok(rows.length > 0 && rows.every((r) => r.terminated), 'the pool had connections to end');
    } finally {
      await admin.end();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const next = await call(running.url, ZIP_LOOKUP);
    assert.equal(next.status, 200, next.text);
  });

  test('refused: every surface answers 503 with Retry-After in its own shape, at once; back without a restart', async () => {
    const before = messages(running, 'database unavailable').length;
    await running.proxy.refuse();
    try {
      const plans = await call(running.url, ZIP_LOOKUP);
      assertUnavailable(plans, 'plan API');
      assert.deepEqual(Object.keys(plans.json!).sort(), ['code', 'error', 'message', 'status']);
      assert.equal(plans.json!.code, '1012');
      assert.equal(plans.json!.status, '503');

      const token = await refresh(running.url, app, tokens.refresh_token);
      assert.equal(token.status, 503, token.text);
      assert.equal((token.body as { error: string }).error, 'temporarily_unavailable');

      const fhir = await call(
        running.url,
        `/v2/fhir/ExplanationOfBenefit/?patient=${tokens.patient}`,
        bearer(),
      );
      assertUnavailable(fhir, 'FHIR');
      assert.equal(typeof fhir.json!.detail, 'string');
      assert.equal(fhir.json!.resourceType, 'OperationOutcome');

      const info = await call(running.url, '/v2/connect/userinfo', bearer());
      assertUnavailable(info, 'userinfo');
      assert.equal(typeof info.json!.detail, 'string');

      const authorize = await call(
        running.url,
        `/v2/o/authorize/?client_id=${app.clientId}&response_type=code&redirect_uri=${encodeURIComponent(app.redirectUri)}`,
      );
      assertUnavailable(authorize, 'authorize page');
      assert.match(authorize.type, /^text\/html/);

      const live = await call(running.url, '/health/live');
      assert.equal(live.status, 200);
      const ready = await call(running.url, '/health/ready');
      assertUnavailable(ready, 'readiness');
      assert.equal(ready.json!.database, 'down');
    } finally {
      await running.proxy.restore();
    }
    // The pool makes new connections: the very next request succeeds.
    const next = await call(running.url, ZIP_LOOKUP);
    assert.equal(next.status, 200, next.text);
    const token = await refresh(running.url, app, tokens.refresh_token);
    assert.equal(token.status, 200, token.text);
    tokens = token.body as TokenBody;
    assert.equal((await call(running.url, '/health/ready')).status, 200);
    // One warning for the outage, one line for the recovery.
    assert.equal(messages(running, 'database unavailable').length, before + 1);
    await eventually(
      async () => messages(running, 'database recovered').length >= 1,
      3000,
      'the recovery is logged',
    );
  });

  test('stalled (packets dropped): answers within the timeouts, most of them at once; then recovery', async () => {
    assert.equal((await call(running.url, ZIP_LOOKUP)).status, 200);
    running.proxy.stall();
    const answers: Answer[] = [];
    try {
      for (let i = 0; i < 12; i += 1) {
        const answer = await call(
          running.url,
          i % 2 ? ZIP_LOOKUP : `/v2/fhir/Patient/${tokens.patient}`,
          bearer(),
        );
        assertUnavailable(answer, `request ${i} during the stall`);
        answers.push(answer);
      }
    } finally {
      await running.proxy.restore();
    }
    // After the first request waited out a timeout, the others did not all wait again.
    const fast = answers.filter((a) => a.ms < CONNECT_TIMEOUT_MS / 2).length;
    assert.ok(fast >= answers.length / 2, `answered at once: ${fast} of ${answers.length}`);
    await eventually(async () => (await call(running.url, ZIP_LOOKUP)).status === 200, 5000, 'recovery');
  });

  /** Cuts stop while a new grant goes through the pages (six requests; what is tested is the refreshes). */
  let cutsPaused = false;
  async function reissueBetweenCuts(app: Awaited<ReturnType<typeof createTestApp>>) {
    cutsPaused = true;
    try {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return (await issueTokens(running, app)).refresh_token;
        } catch (error) {
          // A request may still meet the last cut's closed connections, until the pool has new ones.
          if (attempt >= 20 || !/answered 503/.test(String(error))) throw error;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    } finally {
      cutsPaused = false;
    }
  }

  test('a burst of refreshes across cuts: nothing half-written, and no refresh is reported issued that was not', async () => {
    const fresh = await createTestApp(running);
    let current = (await issueTokens(running, fresh)).refresh_token;
    // The refresh tokens the client was given, and whether a request spending one got no answer.
    let spentWithoutAnswer = false;
    let issued = 0;
    const cutter = setInterval(() => cutsPaused || running.proxy.cut(), 35);
    try {
      for (let i = 0; i < 60; i += 1) {
        const answer = await refresh(running.url, fresh, current);
        if (answer.status === 200) {
          current = (answer.body as TokenBody).refresh_token;
          spentWithoutAnswer = false;
          issued += 1;
        } else if (answer.status === 503) {
          // The commit may or may not have happened: the token may now be spent (README: not retryable).
          spentWithoutAnswer = true;
        } else {
          assert.equal(answer.status, 400, answer.text);
          // A refresh token the client saw issued is only ever refused after a request that spent it got
          // no answer: then the app must send the enrollee through authorization again.
          assert.ok(spentWithoutAnswer, `a token seen issued was refused: ${answer.text}`);
          current = await reissueBetweenCuts(fresh);
          spentWithoutAnswer = false;
        }
      }
    } finally {
      clearInterval(cutter);
    }
    assert.ok(issued > 0, 'some refreshes got through between the cuts');
    // Each rotation is one statement on the family's row, and consent and exchange end the pair's other
    // families: at most one live family per (app, enrollee).
    const live = await running.service.storage.db
      .selectFrom('token_families')
      .select(['enrollee_id'])
      .where('client_id', '=', fresh.clientId)
      .where('revoked_at', 'is', null)
      .execute();
    const perPair = new Map<string, number>();
    for (const row of live) perPair.set(row.enrollee_id, (perPair.get(row.enrollee_id) ?? 0) + 1);
    for (const [enrollee, count] of perPair)
      assert.equal(count, 1, `enrollee ${enrollee}: ${count} live token families`);
    // The last token the client saw issued still works, unless its own refresh got no answer.
    const last = await refresh(running.url, fresh, current);
    if (!spentWithoutAnswer) assert.equal(last.status, 200, last.text);
    else assert.ok([200, 400].includes(last.status), last.text);
  });
});

describe('Redis goes away', { skip: redisUrl ? false : 'needs REDIS_URL=redis://…' }, () => {
  let running: ProxiedService;
  before(async () => {
    running = await startProxied('redis');
  });
  after(() => running?.close());

  async function planCalls(n: number, key = KEY): Promise<Answer[]> {
    const answers: Answer[] = [];
    for (let i = 0; i < n; i += 1) answers.push(await call(running.url, ZIP_LOOKUP.replace(KEY, key)));
    return answers;
  }

  test('refused: the plan API keeps answering with its limits, counted in the process; one warning, one recovery line', async () => {
    assert.equal((await planCalls(1))[0]!.status, 200);
    const limited = await running.service.plans.apiKeys.createKey(
      { name: 'three a minute', perSecond: 100, perMinute: 3, expiresAt: null },
      Date.now(),
    );
    await running.proxy.refuse();
    try {
      for (const answer of await planCalls(20)) {
        assert.equal(answer.status, 200, answer.text);
        assert.ok(answer.ms < 1000, `answered after ${Math.round(answer.ms)} ms`);
      }
      // Limits still hold while counting in the process.
      const answers = await planCalls(8, limited.key);
      const refused = answers.filter((a) => a.status === 429).length;
      assert.ok(refused >= 2, `429s while Redis is down: ${refused} of 8`);
      assert.ok(answers.every((a) => [200, 429].includes(a.status)));
      // Login lock-outs are counted in the database meanwhile.
      const browser = new Browser(running.url);
      for (let i = 0; i < 5; i += 1) await logIn(browser, 'BBUser00002', 'wrong');
      const locked = await logIn(browser, 'BBUser00002', 'PW00002!');
      assert.match(await locked.text(), /Too many failed attempts for this username\./);
      assert.equal((await call(running.url, '/health/ready')).json!.redis, 'down');
    } finally {
      await running.proxy.restore();
    }
    await eventually(
      async () => (await call(running.url, '/health/ready')).json!.redis === 'up',
      5000,
      'redis back',
    );
    await eventually(
      async () => {
        await planCalls(1);
        return messages(running, 'redis recovered').length === 1;
      },
      5000,
      'recovery logged',
    );
    assert.equal(messages(running, 'redis unavailable').length, 1, 'one warning for the outage');
    const answer = (await planCalls(1))[0]!;
    assert.equal(answer.status, 200);
    assert.ok(answer.retryAfter === null);
  });

  test('stalled: no request waits on Redis longer than its command timeout', async () => {
    running.proxy.stall();
    try {
      for (const answer of await planCalls(10)) {
        assert.equal(answer.status, 200, answer.text);
        assert.ok(answer.ms < 1500, `answered after ${Math.round(answer.ms)} ms`);
      }
    } finally {
      await running.proxy.restore();
    }
    await eventually(async () => (await planCalls(1))[0]!.status === 200, 3000, 'after the stall');
  });
});
