import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type MigrationProvider } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { migrations } from './migrations/index.js';
import { capabilitiesOf, type DialectCapabilities } from './dialect.js';

export interface Storage {
  readonly db: Kysely<Database>;
  readonly dialect: DialectCapabilities;
  /** PostgreSQL: the schema the tables live in (the connection's `current_schema()`). */
  readonly schema?: string;
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
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: capabilitiesOf('sqlite'), close: () => db.destroy() };
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
