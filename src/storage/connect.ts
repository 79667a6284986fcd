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
} from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { migrations } from './migrations/index.js';
import { capabilitiesOf, type DialectCapabilities } from './dialect.js';

export interface Storage {
  readonly db: Kysely<Database>;
  readonly dialect: DialectCapabilities;
  /** PostgreSQL: the schema the tables live in (the connection's `current_schema()`). */
  readonly schema?: string;
  /**
   * SQLite only: a number that changes whenever another connection — another instance, a CLI command —
   * has committed to the database since the last call (`PRAGMA data_version`); this connection's own
   * commits do not change it. Lets a process keep what it read until somebody else writes.
   */
  readonly changeCounter?: () => number;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** PostgreSQL only: the schema to use (created when missing); tests isolate themselves this way. */
  schema?: string;
  /** PostgreSQL only: pool size. */
  poolSize?: number;
}

// int8 (count(*), bigint columns) arrives as text from pg; our bigints are epoch milliseconds, well inside 2^53.
pg.types.setTypeParser(20, (value) => Number(value));

/** Opens `sqlite:<path>` (created on demand) or `postgres://…`. */
export async function connect(url: string, options: ConnectOptions = {}): Promise<Storage> {
  if (url.startsWith('sqlite:')) return connectSqlite(url.slice('sqlite:'.length));
  return connectPostgres(url, options);
}

function connectSqlite(path: string): Storage {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SqliteDatabase(path);
  // busy_timeout first: switching to WAL needs a lock another instance may briefly hold.
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({
    dialect: new LockingSqliteDialect({ database: withStatementCache(sqlite) }),
  });
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  return {
    db,
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
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const { rows } = await pool.query<{ schema: string }>('select current_schema() as schema');
  const current = rows[0]?.schema ?? 'public';
  return { db, dialect: capabilitiesOf('postgres'), schema: current, close: () => db.destroy() };
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the schema up to date; safe to run on every start and from several instances at once. */
export async function migrate(storage: Storage): Promise<string[]> {
  // Kysely looks for its bookkeeping tables in every schema unless told which one is ours.
  const migrator = new Migrator({
    db: storage.db,
    provider,
    ...(storage.schema ? { migrationTableSchema: storage.schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
