import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { UnavailableError } from '../../src/shared/errors.js';
import { connect } from '../../src/storage/connect.js';
import { classifyUnavailable, isStatementTimeout } from '../../src/storage/unavailable.js';
import { freePort } from '../helpers/processes.js';
import { onPostgres } from '../helpers/service.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';

/**
 * `isStatementTimeout` against errors the real drivers raise (docs/decisions.md#query-timeout): a statement
 * PostgreSQL cancelled at `statement_timeout`, a SQLite write that waited out `busy_timeout`; and the errors
 * it must not take for one: a bad query, and a database that cannot be reached (`classifyUnavailable`).
 */

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'openenroll-unavailable-'));
  dirs.push(dir);
  return join(dir, 'test.db');
}

/** The error `work` fails with (synchronously or not); the test fails when it succeeds. */
async function failureOf(work: () => unknown): Promise<Error> {
  try {
    await work();
  } catch (error) {
    assert.ok(error instanceof Error, `not an Error: ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

function codeOf(error: Error): unknown {
  return (error as Error & { code?: unknown }).code;
}

/** A timeout: retried by the client, and never the outage handling. */
function assertTimeout(error: Error): void {
  assert.equal(isStatementTimeout(error), true, `a timeout: ${String(codeOf(error))} ${error.message}`);
  assert.equal(classifyUnavailable(error), undefined, `not an outage: ${error.message}`);
}

/** Neither a timeout nor an outage: the query itself was wrong. */
function assertQueryError(error: Error): void {
  assert.equal(isStatementTimeout(error), false, `not a timeout: ${String(codeOf(error))} ${error.message}`);
  assert.equal(classifyUnavailable(error), undefined, `not an outage: ${error.message}`);
}

/** An outage (`how`), which is never a timeout. */
function assertOutage(error: Error, how: 'refused' | 'stalled'): void {
  assert.equal(classifyUnavailable(error), how, `${how}: ${String(codeOf(error))} ${error.message}`);
  assert.equal(isStatementTimeout(error), false, `not a timeout: ${error.message}`);
}

/**
 * A SQLite file with table `t` (`name` unique, one row 'taken'), in WAL mode as the service opens it, and
 * the connection that created it.
 */
function sqliteFile(): { file: string; holder: SqliteDatabase.Database } {
  const file = tempFile();
  const holder = new SqliteDatabase(file);
  holder.pragma('journal_mode = WAL');
  holder.exec(
    `create table t (id integer primary key, name text unique); insert into t (name) values ('taken')`,
  );
  return { file, holder };
}

/** The real SQLITE_BUSY of a write that waited 50 ms for a write lock another connection holds. */
async function sqliteBusyError(): Promise<Error> {
  const { file, holder } = sqliteFile();
  const other = new SqliteDatabase(file);
  try {
    other.pragma('busy_timeout = 50');
    holder.exec('begin immediate');
    return await failureOf(() => other.prepare(`insert into t (name) values ('waits')`).run());
  } finally {
    other.close();
    holder.close();
  }
}

describe('SQLite', () => {
  test("a write that waited busy_timeout for another connection's write lock (SQLITE_BUSY) is a timeout", async () => {
    const { file, holder } = sqliteFile();
    const other = new SqliteDatabase(file);
    try {
      other.pragma('busy_timeout = 50');
      holder.exec('begin immediate');
      const error = await failureOf(() => other.prepare(`insert into t (name) values ('waits')`).run());
      assert.match(String(codeOf(error)), /^SQLITE_BUSY/, error.message);
      assertTimeout(error);
      // Not an outage indeed: once the lock is released, the same write goes through.
      holder.exec('rollback');
      other.prepare(`insert into t (name) values ('waits')`).run();
      assert.equal(holder.prepare(`select count(*) from t where name = 'waits'`).pluck().get(), 1);
    } finally {
      other.close();
      holder.close();
    }
  });

  test('the same through the storage connect() opens (Kysely, its statement cache): the code reaches the caller', async () => {
    const { file, holder } = sqliteFile();
    const storage = await connect(`sqlite:${file}`);
    try {
      // connect() waits 5 s; the test does not need to.
      await sql`pragma busy_timeout = 50`.execute(storage.db);
      holder.exec('begin immediate');
      const error = await failureOf(() => sql`insert into t (name) values ('waits')`.execute(storage.db));
      assert.match(String(codeOf(error)), /^SQLITE_BUSY/, error.message);
      assertTimeout(error);
    } finally {
      holder.close();
      await storage.close();
    }
  });

  test('a syntax error and a unique violation are neither timeouts nor outages', async () => {
    const { holder } = sqliteFile();
    try {
      const syntax = await failureOf(() => holder.prepare('selec 1'));
      assert.equal(codeOf(syntax), 'SQLITE_ERROR');
      assertQueryError(syntax);
      const unique = await failureOf(() => holder.prepare(`insert into t (name) values ('taken')`).run());
      assert.equal(codeOf(unique), 'SQLITE_CONSTRAINT_UNIQUE');
      assertQueryError(unique);
    } finally {
      holder.close();
    }
  });
});

describe('PostgreSQL', { skip: onPostgres ? false : 'needs DATABASE_URL=postgres://…' }, () => {
  const url = process.env.DATABASE_URL!;
  let client: pg.Client;
  before(async () => {
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  after(() => client?.end());

  test('a statement cancelled at statement_timeout (SQLSTATE 57014) is a timeout; the connection stays usable', async () => {
    await client.query('set statement_timeout = 50');
    try {
      const error = await failureOf(() => client.query('select pg_sleep(1)'));
      assert.equal(codeOf(error), '57014', error.message);
      assertTimeout(error);
    } finally {
      await client.query('set statement_timeout = 0');
    }
    assert.equal((await client.query<{ n: number }>('select 1 as n')).rows[0]!.n, 1);
  });

  test('the limit connect() sets (queryTimeoutMs) cancels on the server: 57014 through Kysely, the connection kept', async () => {
    const storage = await connect(url, { queryTimeoutMs: 100, poolSize: 1 });
    try {
      const error = await failureOf(() => sql`select pg_sleep(2)`.execute(storage.db));
      assert.equal(codeOf(error), '57014', error.message);
      assertTimeout(error);
      const { rows } = await sql<{ n: number }>`select 1 as n`.execute(storage.db);
      assert.equal(rows[0]!.n, 1);
      assert.equal(storage.poolStats!().total, 1, 'the cancelled statement did not cost the connection');
    } finally {
      await storage.close();
    }
  });

  test('a statement with no answer at all (a stalled network) is stalled, not a timeout', async () => {
    const target = new URL(url);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const storage = await connect(proxied.toString(), { queryTimeoutMs: 100, poolSize: 1 });
    try {
      await sql`select 1`.execute(storage.db);
      proxy.stall();
      // The server's cancellation at 100 ms never arrives: our side gives up STALL_GRACE_MS later.
      const error = await failureOf(() => sql`select pg_sleep(1)`.execute(storage.db));
      assert.equal(error.message, 'Query read timeout');
      assertOutage(error, 'stalled');
    } finally {
      await proxy.restore();
      await storage.close();
      await proxy.close();
    }
  });

  test('a syntax error and a unique violation are neither timeouts nor outages', async () => {
    const syntax = await failureOf(() => client.query('selec 1'));
    assert.equal(codeOf(syntax), '42601');
    assertQueryError(syntax);
    await client.query('create temporary table u (name text primary key)');
    await client.query(`insert into u values ('taken')`);
    const unique = await failureOf(() => client.query(`insert into u values ('taken')`));
    assert.equal(codeOf(unique), '23505');
    assertQueryError(unique);
  });

  test('a connection the server ended (57P01, as a restart sends), and the dead client after it, are outages', async () => {
    const victim = new pg.Client({ connectionString: url });
    const events: Error[] = [];
    victim.on('error', (error) => events.push(error));
    await victim.connect();
    try {
      const { rows } = await victim.query<{ pid: number }>('select pg_backend_pid() as pid');
      const sleeping = failureOf(() => victim.query('select pg_sleep(5)'));
      await client.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      const ended = await sleeping;
      assertOutage(ended, 'refused');
      assertOutage(await failureOf(() => victim.query('select 1')), 'refused');
      for (const error of events) assertOutage(error, 'refused');
    } finally {
      await victim.end().catch(() => undefined);
    }
  });
});

describe('connection errors', () => {
  test('a refused connection (nothing listens on the port) is an outage, not a timeout', async () => {
    const port = await freePort();
    const refused = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    const error = await failureOf(() => refused.connect());
    assert.equal(codeOf(error), 'ECONNREFUSED', error.message);
    assertOutage(error, 'refused');
  });

  test("the service's own fail-fast UnavailableError is an outage, not a timeout", () => {
    assertOutage(new UnavailableError('database'), 'refused');
  });
});

describe('error.cause', () => {
  test('a timeout wrapped once or twice is still one', async () => {
    const busy = await sqliteBusyError();
    assert.equal(isStatementTimeout(new Error('reading plans', { cause: busy })), true);
    const twice = new Error('the request', { cause: new Error('reading plans', { cause: busy }) });
    assert.equal(isStatementTimeout(twice), true);
    assert.equal(classifyUnavailable(twice), undefined);
  });

  test(
    'a wrapped PostgreSQL cancellation is one too',
    { skip: onPostgres ? false : 'needs DATABASE_URL=postgres://…' },
    async () => {
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL! });
      await client.connect();
      try {
        await client.query('set statement_timeout = 50');
        const cancelled = await failureOf(() => client.query('select pg_sleep(1)'));
        assert.equal(isStatementTimeout(new Error('reading plans', { cause: cancelled })), true);
      } finally {
        await client.end();
      }
    },
  );

  test('wrapped errors that are not timeouts stay not timeouts', async () => {
    const { holder } = sqliteFile();
    const syntax = await failureOf(() => holder.prepare('selec 1'));
    holder.close();
    assert.equal(isStatementTimeout(new Error('reading plans', { cause: syntax })), false);
    const refused = await failureOf(async () => {
      const client = new pg.Client({ host: '127.0.0.1', port: await freePort(), user: 'postgres' });
      await client.connect();
    });
    const wrapped = new Error('reading plans', { cause: refused });
    assert.equal(isStatementTimeout(wrapped), false);
    assert.equal(classifyUnavailable(wrapped), 'refused');
  });

  test('something thrown that is not an Error is not a timeout', () => {
    assert.equal(isStatementTimeout('57014'), false);
    assert.equal(isStatementTimeout(undefined), false);
  });

  test('an error that is its own cause ends the walk instead of looping', () => {
    const loop = new Error('wraps itself');
    (loop as Error & { cause: unknown }).cause = loop;
    assert.equal(isStatementTimeout(loop), false);
    assert.equal(classifyUnavailable(loop), undefined);
  });
});
