import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/shared/logger.js';
import { buildService, type Service } from '../../src/server.js';
import { connect, type Storage } from '../../src/storage/connect.js';
import { registerApp, type Registration } from '../../src/auth/oauth/registration.js';

/** The database the suites run on: `DATABASE_URL` when it names PostgreSQL, else a fresh SQLite file. */
export const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? '');
export const redisUrl = process.env.REDIS_URL || undefined;

/**
 * Settings that put a service on the suite's Redis, when there is one, under a key prefix of its own: one
 * Redis serves every suite, and a lock-out counted by one must not leak into another.
 */
export function redisEnv(): Record<string, string> {
  return redisUrl ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `test-${randomBytes(6).toString('hex')}:` } : {};
}

export interface TestDatabase {
  url: string;
  schema: string | undefined;
  /** The URL another process (a server, the CLI) uses: on PostgreSQL the schema travels in `options`. */
  processUrl: string;
  open(): Promise<Storage>;
  drop(): Promise<void>;
}

/** An isolated database: a new PostgreSQL schema or a new SQLite file, removed by `drop()`. */
export function createTestDatabase(): TestDatabase {
  if (onPostgres) {
    const url = process.env.DATABASE_URL!;
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const separator = url.includes('?') ? '&' : '?';
    return {
      url,
      schema,
      processUrl: `${url}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
      open: () => connect(url, { schema }),
      async drop() {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(`drop schema if exists ${schema} cascade`);
        await client.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'openenroll-test-'));
  const url = `sqlite:${join(dir, 'test.db')}`;
  return {
    url,
    schema: undefined,
    processUrl: url,
    open: () => connect(url),
    async drop() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A clock tests can move forward. */
export interface TestClock {
  now(): number;
  advance(ms: number): void;
}

export function createClock(): TestClock {
  let offset = 0;
  return { now: () => Date.now() + offset, advance: (ms) => (offset += ms) };
}

export interface RunningService {
  url: string;
  service: Service;
  clock: TestClock;
  database: TestDatabase;
  close(): Promise<void>;
}

/**
 * Starts the real service on a loopback port over an isolated database: a free one by default, or `port`
 * when the caller must know it before the service starts (e.g. to set `PUBLIC_URL`, the issuer). A caller
 * that prepared the database itself (an upgrade test) passes it in; it is dropped on close all the same.
 */
export async function startService(
  env: Record<string, string> = {},
  port = 0,
  database: TestDatabase = createTestDatabase(),
): Promise<RunningService> {
  const storage = await database.open();
  const clock = createClock();
  const config = loadConfig({
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SANDBOX_ENROLLEES: '5',
    // Every suite signs in from 127.0.0.1, many times a minute; the per-source limits have suites of their own.
    SIGN_IN_PER_MINUTE: '1000000',
    SIGN_IN_PER_HOUR: '1000000',
    LOGIN_MAX_FAILURES: '5',
    ...redisEnv(),
    ...env,
  });
  const service = await buildService(config, createLogger(config.logLevel), { storage, now: clock.now });
  const address = await service.app.listen({ port, host: '127.0.0.1' });
  return {
    url: address,
    service,
    clock,
    database,
    async close() {
      await service.close();
      await storage.close();
      await database.drop();
    },
  };
}

let appCounter = 0;

/** Registers an app straight through the domain function the CLI uses. */
export async function createTestApp(running: RunningService, overrides: Partial<Registration> = {}) {
  appCounter += 1;
  const { app, clientSecret } = await registerApp(
    running.service.deps.apps,
    {
      name: `Test App ${appCounter} ${randomBytes(3).toString('hex')}`,
      redirectUris: ['http://127.0.0.1:3001/callback'],
      dataAccessType: 'THIRTEEN_MONTH',
      requireDemographicScopes: true,
      ...overrides,
    },
    running.clock.now(),
  );
  return { clientId: app.clientId, clientSecret, redirectUri: app.redirectUris[0]!, app };
}
