import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { openZipEntry } from '../../../src/ingest/sources/zip-entry.js';
import { migrate, type Storage } from '../../../src/storage/connect.js';
import { repoRoot } from '../../helpers/processes.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../../helpers/service.js';
import { ingest, sharedData, skipWithoutSharedData } from '../../helpers/shared-data.js';

// An ingest killed (SIGKILL: no handler runs, nothing is cleaned up) in the middle of its load leaves
// exactly the data of the load before it: the load is one transaction, and a transaction that never
// committed is rolled back by the database (SQLite ignores its frames in the WAL; PostgreSQL aborts it
// when the connection drops).

const ZIP = 'marketplace_puf/2025/plan-attributes-puf.zip';
// The real PY2025 PUF in full (see plan-attributes.test.ts).
const FULL = { plans: 5734, plan_variants: 24527, issuers: 405 };

/** The first `lines` lines of the real PUF (header included): a smaller earlier load of the same kind and year. */
async function realCsvHead(lines: number): Promise<string> {
  const entry = await openZipEntry(sharedData(ZIP), /\.csv$/i);
  const decoder = new StringDecoder('utf8');
  let text = '';
  for await (const chunk of entry.stream) {
    text += decoder.write(chunk as Buffer);
    if (text.split('\n').length > lines) break;
  }
  entry.stream.destroy();
  return text.split('\n').slice(0, lines).join('\n') + '\n';
}

interface State {
  plans: number;
  plan_variants: number;
  issuers: number;
  dataset: { rows: number; loaded_at: number; source: string } | undefined;
}

async function stateOf(storage: Storage): Promise<State> {
  const count = async (table: 'plans' | 'plan_variants' | 'issuers') =>
    Number(
      (
        await storage.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('year', '=', 2025)
          .where('source', '=', 'plan-attributes')
          .executeTakeFirstOrThrow()
      ).n,
    );
  const dataset = await storage.db
    .selectFrom('plan_datasets')
    .select(['rows', 'loaded_at', 'source'])
    .where('kind', '=', 'plan-attributes')
    .where('year', '=', 2025)
    .executeTakeFirst();
  return {
    plans: await count('plans'),
    plan_variants: await count('plan_variants'),
    issuers: await count('issuers'),
    dataset: dataset && {
      rows: Number(dataset.rows),
      loaded_at: Number(dataset.loaded_at),
      source: dataset.source,
    },
  };
}

/** A clean environment for the CLI (no test-runner settings) on `databaseUrl`. */
function cliEnv(databaseUrl: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith('NODE_TEST') || k === 'NODE_OPTIONS') continue;
    env[k] = v;
  }
  return { ...env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', REDIS_URL: '' };
}

/**
 * True once the load has written rows into its open transaction: on PostgreSQL its connection (found by
 * application name) has a transaction id (given at a transaction's first write, the delete of the dataset
 * it replaces) and is sending inserts; on SQLite the WAL holds more than 1 MB, which only the load's
 * uncommitted pages, spilled from a full page cache, put there (the CLI's own start writes a few KiB).
 * False when the process exits first or a minute passes.
 */
async function writingStarted(database: TestDatabase, applicationName: string, exited: () => boolean) {
  const deadline = Date.now() + 60_000;
  const client = onPostgres ? new pg.Client({ connectionString: database.url }) : undefined;
  await client?.connect();
  try {
    while (!exited() && Date.now() < deadline) {
      if (client) {
        const { rows } = await client.query<{ n: string }>(
          `select count(*) as n from pg_stat_activity
            where application_name = $1 and backend_xid is not null and query ilike 'insert into%'`,
          [applicationName],
        );
        if (Number(rows[0]?.n) > 0) return true;
      } else {
        const wal = `${database.processUrl.slice('sqlite:'.length)}-wal`;
        let size = 0;
        try {
          size = statSync(wal).size;
        } catch {
          /* no WAL yet */
        }
        if (size > 1 << 20) return true;
      }
      await sleep(25);
    }
    return false;
  } finally {
    await client?.end();
  }
}

describe('an ingest killed in the middle of its load', { skip: skipWithoutSharedData(ZIP) }, () => {
  let database: TestDatabase;
  let dir: string;
  let earlier: State;
  before(async () => {
    database = createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'interrupted-'));
    const storage = await database.open();
    try {
      await migrate(storage);
      const csv = join(dir, 'plan-attributes-puf-head.csv');
      writeFileSync(csv, await realCsvHead(30));
      await ingest(storage, 'plan-attributes', [csv], { now: 1_000_000 });
      earlier = await stateOf(storage);
    } finally {
      // Closed, so that on SQLite the WAL is checkpointed away and only the child's writes fill it.
      await storage.close();
    }
    assert.ok(
      earlier.plans > 0 && earlier.plans < FULL.plans,
      `a smaller earlier load: ${earlier.plans} plans`,
    );
    assert.equal(earlier.dataset?.loaded_at, 1_000_000);
  });
  after(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('leaves exactly the earlier load (never part of the new one)', async (t) => {
    const applicationName = `interrupted-${randomBytes(4).toString('hex')}`;
    const url = onPostgres
      ? `${database.processUrl}&application_name=${applicationName}`
      : database.processUrl;
    const child = spawn(
      process.execPath,
      ['bin/openenroll.js', 'ingest', 'plan-attributes', sharedData(ZIP)],
      {
        cwd: repoRoot,
        env: cliEnv(url),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const output: string[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    let exited = false;
    void exit.then(() => (exited = true));

    const spawnedAt = Date.now();
    const started = await writingStarted(database, applicationName, () => exited);
    if (!exited) child.kill('SIGKILL');
    t.diagnostic(
      `killed ${Date.now() - spawnedAt} ms after the start (the whole ingest takes several seconds)`,
    );
    const { code, signal } = await exit;
    assert.ok(started || code === 0, `the load never started writing (exit ${code}):\n${output.join('')}`);

    const storage = await database.open();
    try {
      const after = await stateOf(storage);
      if (signal === 'SIGKILL' && after.dataset?.loaded_at === earlier.dataset?.loaded_at) {
        assert.deepEqual(after, earlier, 'exactly the earlier data');
      } else {
        // The load committed before the kill landed (or before the signal was seen): then all of it.
        t.diagnostic(`the load finished before it was killed (exit ${code ?? signal}); checked it is whole`);
        assert.deepEqual(
          { plans: after.plans, plan_variants: after.plan_variants, issuers: after.issuers },
          FULL,
        );
        assert.equal(after.dataset?.rows, FULL.plans + FULL.plan_variants + FULL.issuers);
        assert.notEqual(after.dataset?.loaded_at, earlier.dataset?.loaded_at);
      }
      if (!onPostgres) {
        const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(storage.db);
        assert.deepEqual(check.rows, [{ integrity_check: 'ok' }]);
      }
      // The database takes the next load: no lock was left behind.
      const again = await ingest(storage, 'plan-attributes', [join(dir, 'plan-attributes-puf-head.csv')], {
        now: 2_000_000,
      });
      assert.equal(again.rejectedCount, 0);
      assert.deepEqual(
        { ...(await stateOf(storage)), dataset: undefined },
        { ...earlier, dataset: undefined },
      );
    } finally {
      await storage.close();
    }
  });
});
