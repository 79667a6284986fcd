import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { loadConfig } from '../../src/config.js';
import { ensureSampleMarket } from '../../src/ingest/sample-market.js';
import { createLogger } from '../../src/shared/logger.js';
import { buildService } from '../../src/server.js';
import { migrate } from '../../src/storage/connect.js';
import { memoryLog } from '../helpers/logged-service.js';
import {
  createClock,
  createTestApp,
  createTestDatabase,
  onPostgres,
  redisEnv,
  type RunningService,
} from '../helpers/service.js';
import { issueTokens, refresh, type TestApp, type TokenBody } from '../helpers/token-calls.js';
import { call, type Answer } from '../helpers/timed-call.js';
import { SANDBOX_KEY } from './plan-api.js';

/**
 * A statement that runs past DB_QUERY_TIMEOUT_MS (docs/decisions.md#query-timeout): PostgreSQL cancels it,
 * the plan API answers CMS's 1007, the other surfaces their 503, and the database is not taken as down. A
 * lock held from another connection (as a data load holds one) makes the statements wait.
 */

const QUERY_TIMEOUT_MS = 500;
/** No timed-out answer may take longer than this (the timeout, our 1 s grace after it, and a margin). */
const ANSWER_BOUND_MS = QUERY_TIMEOUT_MS + 2500;
const ZIP_LOOKUP = `/api/v1/counties/by/zip/78666?apikey=${SANDBOX_KEY}`;
const TIMED_OUT = {
  code: '1007',
  status: '500',
  message: 'request timed-out, try again',
  error: 'db query timed-out',
};

interface TimedService extends RunningService {
  logs: () => Record<string, unknown>[];
}

/**
 * The service as `serve` builds it from its settings (DATABASE_URL, DB_QUERY_TIMEOUT_MS: its own pool with
 * the statement limit), logs kept. The sample market is loaded beforehand without a limit, so the start
 * itself never races it.
 */
async function startWithQueryTimeout(): Promise<TimedService> {
  const database = createTestDatabase();
  const setup = await database.open();
  try {
    await migrate(setup);
    await ensureSampleMarket(setup, Date.now());
  } finally {
    await setup.close();
  }
  const log = memoryLog();
  const clock = createClock();
  const config = loadConfig({
    LOG_LEVEL: 'info',
    SANDBOX_ENROLLEES: '2',
    SIGN_IN_PER_MINUTE: '1000000',
    SIGN_IN_PER_HOUR: '1000000',
    ...redisEnv(),
    DATABASE_URL: database.processUrl,
    DB_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS),
  });
  const service = await buildService(config, createLogger('info', log.sink), { now: clock.now });
  const url = await service.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    service,
    clock,
    database,
    logs: log.records,
    async close() {
      await service.close();
      await database.drop();
    },
  };
}

/**
 * What `answer` gives, or a failure once `ms` pass without it: a statement that is never cancelled fails
 * the test instead of waiting on the lock forever (the caller's `finally` then releases the lock).
 */
async function within<T>(answer: Promise<T>, ms: number, label: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** `ACCESS EXCLUSIVE` locks on `tables` of the service's schema, held from a connection of the test's own. */
async function lockTables(running: TimedService, tables: string[]): Promise<{ release(): Promise<void> }> {
  const schema = running.database.schema!;
  const client = new pg.Client({ connectionString: running.database.url });
  await client.connect();
  try {
    await client.query('begin');
    await client.query(
      `lock table ${tables.map((t) => `${schema}.${t}`).join(', ')} in access exclusive mode`,
    );
  } catch (error) {
    await client.end();
    throw error;
  }
  return {
    async release() {
      try {
        await client.query('rollback');
      } finally {
        await client.end();
      }
    },
  };
}

function assertTimedOut(answer: Answer, label: string): void {
  assert.equal(answer.status, 500, `${label}: ${answer.status} ${answer.text}`);
  assert.deepEqual(answer.json, TIMED_OUT, label);
  assert.match(answer.headers.get('content-type') ?? '', /^application\/json/, label);
  assert.equal(answer.headers.get('cache-control'), 'no-store', label);
  // It waited for the server's cancellation, and no longer than our own limit behind it.
  assert.ok(answer.ms >= QUERY_TIMEOUT_MS * 0.9, `${label}: answered after only ${Math.round(answer.ms)} ms`);
  assert.ok(answer.ms < ANSWER_BOUND_MS, `${label}: answered after ${Math.round(answer.ms)} ms`);
}

describe(
  'a statement past DB_QUERY_TIMEOUT_MS',
  { skip: onPostgres ? false : 'needs DATABASE_URL=postgres://…' },
  () => {
    let running: TimedService;
    let plan: string;
    before(async () => {
      running = await startWithQueryTimeout();
      const client = new pg.Client({ connectionString: running.database.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ plan_id: string; year: number }>(
          `select plan_id, year from ${running.database.schema!}.plans order by plan_id limit 1`,
        );
        assert.ok(rows[0], 'the sample market has plans');
        plan = `/api/v1/plans/${rows[0].plan_id}?year=${rows[0].year}&apikey=${SANDBOX_KEY}`;
      } finally {
        await client.end();
      }
    });
    after(() => running?.close());

    const messages = (msg: string) => running.logs().filter((r) => r.msg === msg);

    /** Readiness answers, and says the database is up. */
    async function assertReady(label: string): Promise<void> {
      const ready = await call(running.url, '/health/ready');
      assert.equal(ready.status, 200, `${label}: ${ready.text}`);
      assert.equal(ready.json!.database, 'up', label);
      assert.equal(running.service.dependencies.database.isUp(), true, `${label}: the database is marked up`);
    }

    test('the plan API answers 1007 (500), logs it once, and does not take the database as down', async () => {
      const before = await call(running.url, plan);
      assert.equal(before.status, 200, before.text);
      const logged = messages('statement timed out').length;

      const lock = await lockTables(running, ['plans']);
      let answer: Answer;
      try {
        const waiting = call(running.url, plan);
        // While that statement waits, the database answers: readiness and a request on other tables.
        await assertReady('during the wait');
        const zip = await call(running.url, ZIP_LOOKUP);
        assert.equal(zip.status, 200, `a ZIP lookup during the wait: ${zip.text}`);
        answer = await within(waiting, ANSWER_BOUND_MS, 'the plan read');
      } finally {
        await lock.release();
      }
      assertTimedOut(answer, 'the plan read');

      // The next request is not failed fast: it goes to the database and succeeds, the first time.
      const next = await call(running.url, plan);
      assert.equal(next.status, 200, `the next request: ${next.text}`);
      assert.deepEqual(next.json, before.json);
      await assertReady('after');

      const warnings = messages('statement timed out').slice(logged);
      assert.equal(warnings.length, 1, 'one warning for the one timed-out statement');
      assert.equal(warnings[0]!.level, 40);
      assert.equal((warnings[0]!.err as { code?: unknown } | undefined)?.code, '57014');
      assert.equal(messages('database unavailable').length, 0, 'no outage was logged');
      assert.equal(messages('unhandled error').length, 0);
    });

    test('several at once: each answers 1007 and is logged; other requests go on meanwhile', async () => {
      const logged = messages('statement timed out').length;
      const lock = await lockTables(running, ['plans']);
      let answers: Answer[];
      try {
        const waiting = Promise.all(Array.from({ length: 4 }, () => call(running.url, plan)));
        for (let i = 0; i < 3; i += 1) {
          const zip = await call(running.url, ZIP_LOOKUP);
          assert.equal(zip.status, 200, `ZIP lookup ${i} during the wait: ${zip.text}`);
        }
        answers = await within(waiting, ANSWER_BOUND_MS, 'the plan reads');
      } finally {
        await lock.release();
      }
      answers.forEach((answer, i) => assertTimedOut(answer, `plan read ${i}`));
      assert.equal(messages('statement timed out').length - logged, answers.length);
      assert.equal((await call(running.url, plan)).status, 200);
      await assertReady('after');
      assert.equal(messages('database unavailable').length, 0, 'no outage was logged');
    });

    describe('the OAuth and FHIR endpoints', () => {
      let app: TestApp;
      let tokens: TokenBody;
      before(async () => {
        app = await createTestApp(running);
        tokens = await issueTokens(running, app);
      });

      test('keep their own 503 shapes; nothing is spent, and the database stays up', async () => {
        const patient = `/v2/fhir/Patient/${tokens.patient}`;
        const bearer = { headers: { authorization: `Bearer ${tokens.access_token}` } };
        assert.equal((await call(running.url, patient, bearer)).status, 200);
        const logged = messages('statement timed out').length;

        // The data a FHIR read returns, then the token families a refresh rotates (which a FHIR read's bearer
        // check also reads): one lock each, so each request meets the lock on its own statement.
        let lock = await lockTables(running, ['fhir_resources']);
        let fhir: Answer;
        try {
          fhir = await within(call(running.url, patient, bearer), ANSWER_BOUND_MS, 'FHIR');
        } finally {
          await lock.release();
        }
        lock = await lockTables(running, ['token_families']);
        let token: Awaited<ReturnType<typeof refresh>>;
        try {
          token = await within(refresh(running.url, app, tokens.refresh_token), ANSWER_BOUND_MS, 'token');
        } finally {
          await lock.release();
        }

        assert.equal(fhir.status, 503, `FHIR: ${fhir.text}`);
        assert.match(fhir.headers.get('retry-after') ?? '', /^\d+$/, 'FHIR: Retry-After');
        assert.equal(fhir.json!.resourceType, 'OperationOutcome');
        assert.equal((fhir.json!.issue as { code?: unknown }[])[0]?.code, 'transient');
        assert.equal(typeof fhir.json!.detail, 'string');
        assert.ok(fhir.ms < ANSWER_BOUND_MS, `FHIR answered after ${Math.round(fhir.ms)} ms`);

        assert.equal(token.status, 503, `token: ${token.text}`);
        assert.match(token.headers.get('retry-after') ?? '', /^\d+$/, 'token: Retry-After');
        assert.equal((token.body as { error?: unknown }).error, 'temporarily_unavailable');

        assert.equal(messages('statement timed out').length - logged, 2, 'each timed-out request logged');
        assert.equal(messages('database unavailable').length, 0, 'no outage was logged');
        await assertReady('after');

        // The cancelled statements changed nothing: the same refresh token is still good, and the data answers.
        assert.equal((await call(running.url, patient, bearer)).status, 200);
        const again = await refresh(running.url, app, tokens.refresh_token);
        assert.equal(again.status, 200, `the same refresh token afterwards: ${again.text}`);
      });
    });
  },
);
