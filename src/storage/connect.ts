import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  CompiledQuery,
  sql,
  type DatabaseConnection,
  type Driver,
  type DialectAdapter,
  type MigrationLockOptions,
  type MigrationProvider,
  type KyselyConfig,
} from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { migrations } from './migrations/index.js';
import { capabilitiesOf, type DialectCapabilities } from './dialect.js';
import { statementName } from './prepared.js';

export interface Storage {
  readonly db: Kysely<Database>;
  /**
   * What token rotations and code exchanges write through. On PostgreSQL, unless `tokenCommit` is
   * `'flush'`, a pool of its own whose commits do not wait for the WAL flush (`synchronous_commit = off`:
   * durable a fraction of a second later, visible to every instance at once), as SQLite's WAL commits
   * everything here (docs/decisions.md#token-commits). Elsewhere, `db`.
   */
  readonly tokenDb: Kysely<Database>;
  readonly dialect: DialectCapabilities;
  /** PostgreSQL: the schema the tables live in (the connection's `current_schema()`). */
  readonly schema?: string;
  /**
   * SQLite only: a number that changes whenever another connection — another instance, a CLI command —
   * has committed to the database since the last call (`PRAGMA data_version`); this connection's own
   * commits do not change it. Lets a process keep what it read until somebody else writes.
   */
  readonly changeCounter?: () => number;
  /** PostgreSQL only: the pool's connections (open, idle, and requests waiting for one). */
  readonly poolStats?: () => PoolStats;
  /**
   * PostgreSQL only: `listener` is told of every connection error the pool sees, idle connections included
   * (a server restart ends them all). Without listeners they are only dropped, never unhandled.
   */
  readonly onConnectionError?: (listener: (error: Error) => void) => void;
  close(): Promise<void>;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface ConnectOptions {
  /** PostgreSQL only: the schema to use (created when missing); tests isolate themselves this way. */
  schema?: string;
  /** PostgreSQL only: pool size. */
  poolSize?: number;
  /** PostgreSQL only: how long a request waits for a connection (a new one, or a free one) before failing. */
  connectTimeoutMs?: number;
  /**
   * PostgreSQL only: how long one statement may run. The server cancels it then (`statement_timeout`, an
   * error the caller can tell from an outage: unavailable.ts `isStatementTimeout`); a statement still
   * unanswered `STALL_GRACE_MS` later fails on our side and its connection is dropped (a stalled network
   * sends no error of its own). 0: no limit, for long batch work.
   */
  queryTimeoutMs?: number;
  /**
   * PostgreSQL only: whether token rotations and code exchanges commit without waiting for the WAL flush
   * (`'async'`, the default) or as every other write does (`'flush'`); see `Storage.tokenDb`.
   */
  tokenCommit?: 'async' | 'flush';
  /**
   * PostgreSQL only: whether statements requests make at the same time may share one
   * (`DialectCapabilities.batchedStatements`; default true).
   */
  batchStatements?: boolean;
  /**
   * Told the SQL text of every statement the handle sends, `begin` and `commit` included: one call per
   * round trip to PostgreSQL (tests count them per request path, test/storage/round-trips.test.ts), and
   * which handle sent it (`tokens`: `Storage.tokenDb` where it is a pool of its own).
   */
  onStatement?: (sql: string, handle: 'db' | 'tokens') => void;
}

// int8 (count(*), bigint columns) arrives as text from pg; our bigints are epoch milliseconds, well inside 2^53.
pg.types.setTypeParser(20, (value) => Number(value));

/** Opens `sqlite:<path>` (created on demand) or `postgres://…`. */
export async function connect(url: string, options: ConnectOptions = {}): Promise<Storage> {
  if (url.startsWith('sqlite:')) return connectSqlite(url.slice('sqlite:'.length), options);
  return connectPostgres(url, options);
}

/** Kysely's log hook, when somebody listens to the statements. */
function statementLog(options: ConnectOptions, handle: 'db' | 'tokens' = 'db'): Pick<KyselyConfig, 'log'> {
  const listener = options.onStatement;
  return listener ? { log: (event) => listener(event.query.sql, handle) } : {};
}

function connectSqlite(path: string, options: ConnectOptions): Storage {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SqliteDatabase(path);
  // busy_timeout first: switching to WAL needs a lock another instance may briefly hold.
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('cache_size = -131072');
  // A checkpoint copies the WAL into the database and syncs it, on the event loop, and every request in
  // flight waits for it: at the default (every 1,000 pages) those stalls set the token endpoint's p99
  // (figures in bench/RESULTS.md). Ten times fewer, each little longer: the sync, not the copying, is most
  // of one.
  sqlite.pragma('wal_autocheckpoint = 10000');
  const db = new Kysely<Database>({
    dialect: new LockingSqliteDialect({ database: withStatementCache(sqlite) }),
    ...statementLog(options),
  });
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  return {
    db,
    tokenDb: db,
    dialect: capabilitiesOf('sqlite'),
    changeCounter: () => dataVersion.get() as number,
    close: () => db.destroy(),
  };
}

/**
 * Kysely's SQLite adapter migrates outside a transaction and takes no lock, assuming one process. Several
 * instances may share one SQLite file, so migrations run in one transaction that starts with a write:
 * SQLite lets one writer in at a time, and the next reads the migration state only after the first commits.
 */
class LockingSqliteAdapter extends SqliteAdapter {
  /** SQLite runs DDL inside transactions; Kysely's adapter says otherwise and migrates without one. */
  override get supportsTransactionalDdl(): boolean {
    return true;
  }

  override async acquireMigrationLock(db: Kysely<unknown>, options: MigrationLockOptions): Promise<void> {
    await sql`update ${sql.table(options.lockTable)} set is_locked = 1 where id = ${options.lockRowId}`.execute(
      db,
    );
  }
}

/**
 * Transactions take SQLite's write lock when they begin (`BEGIN IMMEDIATE`): a deferred transaction that
 * reads and then writes fails at once with SQLITE_BUSY when another process wrote in between, while an
 * immediate one waits its turn (busy_timeout).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class LockingSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];

  constructor(config: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }

  override createAdapter(): DialectAdapter {
    return new LockingSqliteAdapter();
  }
}

/**
 * Kysely prepares every query anew; with better-sqlite3, preparing costs about as much as running a short
 * statement. Reusing prepared statements by SQL text is safe because every query here runs to completion
 * (nothing streams rows), and the set of distinct SQL texts is small and bounded.
 */
function withStatementCache(sqlite: SqliteDatabase.Database) {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= 1000) statements.clear();
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}

/**
 * How much longer than `statement_timeout` we wait for the server's own cancellation before taking the
 * database as stalled: enough for the answer to cross a loaded network and event loop.
 */
const STALL_GRACE_MS = 1000;

async function connectPostgres(url: string, options: ConnectOptions): Promise<Storage> {
  const schema = options.schema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema))
    throw new Error(`bad schema name ${schema}`);
  if (schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`create schema if not exists ${schema}`);
    } finally {
      await admin.end();
    }
  }
  const settings = schema ? [`-c search_path=${schema}`] : [];
  const poolOf = (extra: string[]) => {
    return new pg.Pool({
      ...withStartupSettings(url, [...settings, ...extra]),
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      ...(options.queryTimeoutMs
        ? {
            statement_timeout: options.queryTimeoutMs,
            query_timeout: options.queryTimeoutMs + STALL_GRACE_MS,
          }
        : {}),
      keepAlive: true,
    });
  };
  const listeners = new Set<(error: Error) => void>();
  const kyselyOf = (pool: pg.Pool, handle: 'db' | 'tokens') => {
    guardConnections(pool, (error) => {
      for (const listener of listeners) listener(error);
    });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...statementLog(options, handle) });
  };
  const pool = poolOf([]);
  const db = kyselyOf(pool, 'db');
  // A setting given when the connection starts: no statement per request. The pool opens its connections
  // only when token writes need them.
  const tokenDb =
    options.tokenCommit === 'flush' ? db : kyselyOf(poolOf(['-c synchronous_commit=off']), 'tokens');
  const { rows } = await pool.query<{ schema: string }>('select current_schema() as schema');
  const current = rows[0]?.schema ?? 'public';
  return {
    db,
    tokenDb,
    dialect: { ...capabilitiesOf('postgres'), batchedStatements: options.batchStatements ?? true },
    schema: current,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    onConnectionError: (listener) => listeners.add(listener),
    close: async () => {
      await db.destroy();
      if (tokenDb !== db) await tokenDb.destroy();
    },
  };
}

/**
 * The pool's connection string and startup `options` (`-c name=value` settings the server applies for the
 * connection's life): ours after any the URL gives. node-postgres lets a URL's `options` replace the
 * configured ones, so those are moved out of the URL and put first (a later setting wins).
 */
export function withStartupSettings(
  url: string,
  settings: string[],
): { connectionString: string; options?: string } {
  if (settings.length === 0) return { connectionString: url };
  let given: string | null = null;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
    given = parsed.searchParams.get('options');
  } catch {
    // Not a URL node's parser reads (a libpq key=value string): pg reads no options from it either.
  }
  if (given === null || !parsed) return { connectionString: url, options: settings.join(' ') };
  parsed.searchParams.delete('options');
  return { connectionString: parsed.toString(), options: [given, ...settings].join(' ') };
}

type PgClient = pg.PoolClient & { connection?: { stream?: { destroy(): void } } };

/**
 * node-postgres emits `error` on an idle pooled connection when the server ends it (a restart, a
 * failover), and on a checked-out one between two statements of a transaction; with no listener either
 * one ends the process. Every connection gets a listener for its whole life, and the pool one for idle
 * ones. A statement that timed out leaves its connection waiting for an answer that may never come:
 * that connection is dropped (pg then removes it from the pool) rather than handed to the next request.
 * The hot paths' prepared queries (prepared.ts) go out as named statements: PostgreSQL parses and plans
 * each once per connection.
 */
function guardConnections(pool: pg.Pool, onError: (error: Error) => void): void {
  pool.on('error', onError);
  pool.on('connect', (client: PgClient) => {
    client.on('error', onError);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const [text, values] = args;
      const name = typeof text === 'string' && Array.isArray(values) ? statementName(text) : undefined;
      const result = name === undefined ? query(...args) : query({ name, text, values });
      if (result instanceof Promise) {
        result.catch((error: unknown) => {
          if (error instanceof Error && error.message === 'Query read timeout')
            client.connection?.stream?.destroy();
        });
      }
      return result;
    };
  });
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

function migratorOf(storage: Storage): Migrator {
  // Kysely looks for its bookkeeping tables in every schema unless told which one is ours.
  return new Migrator({
    db: storage.db,
    provider,
    ...(storage.schema ? { migrationTableSchema: storage.schema } : {}),
  });
}

/** The migrations this build knows that the database has not run (readiness fails while any are left). */
export async function pendingMigrations(storage: Storage): Promise<string[]> {
  const known = await migratorOf(storage).getMigrations();
  return known.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** Brings the schema up to date; safe to run on every start and from several instances at once. */
export async function migrate(storage: Storage): Promise<string[]> {
  const { error, results } = await migratorOf(storage).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
