import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { ConfigError, loadConfig } from '../../src/config.js';
import { connect, withStartupSettings, type Storage } from '../../src/storage/connect.js';
import { createTestDatabase, onPostgres } from '../helpers/service.js';

/**
 * Token rotations and code exchanges commit without waiting for PostgreSQL's WAL flush, on connections of
 * their own (docs/decisions.md#token-commits); every other write waits for it.
 */
async function setting(db: Storage['db'], name: string): Promise<string> {
  const { rows } = await sql<{ value: string }>`select current_setting(${name}) as value`.execute(db);
  return rows[0]!.value;
}

describe('the token writes’ connections', () => {
  test('startup settings go after those the URL gives, which leave the URL', () => {
    assert.deepEqual(withStartupSettings('postgres://u@h:5432/d', []), {
      connectionString: 'postgres://u@h:5432/d',
    });
    assert.deepEqual(withStartupSettings('postgres://u@h:5432/d', ['-c synchronous_commit=off']), {
      connectionString: 'postgres://u@h:5432/d',
      options: '-c synchronous_commit=off',
    });
    const merged = withStartupSettings(
      `postgres://u:p%40ss@h:5432/d?sslmode=disable&options=${encodeURIComponent('-c search_path=s1')}`,
      ['-c synchronous_commit=off'],
    );
    assert.equal(merged.options, '-c search_path=s1 -c synchronous_commit=off');
    const left = new URL(merged.connectionString);
    assert.equal(left.searchParams.get('options'), null);
    assert.equal(left.searchParams.get('sslmode'), 'disable');
    assert.equal(decodeURIComponent(left.password), 'p@ss');
  });

  test('DB_TOKEN_COMMIT is async unless set to flush; anything else is refused', () => {
    const base = { DATABASE_URL: 'sqlite::memory:' };
    assert.equal(loadConfig(base).dbTokenCommit, 'async');
    assert.equal(loadConfig({ ...base, DB_TOKEN_COMMIT: 'flush' }).dbTokenCommit, 'flush');
    assert.throws(() => loadConfig({ ...base, DB_TOKEN_COMMIT: 'off' }), ConfigError);
  });

  test('SQLite: one handle (its WAL commits every write alike)', { skip: onPostgres }, async () => {
    const database = createTestDatabase();
    const storage = await database.open();
    try {
      assert.equal(storage.tokenDb, storage.db);
    } finally {
      await storage.close();
      await database.drop();
    }
  });

  test(
    'PostgreSQL: token writes commit asynchronously on their own pool, others wait for the flush',
    { skip: !onPostgres },
    async () => {
      const database = createTestDatabase();
      // The schema as a server process gets it: in the URL's own options.
      const storage = await connect(database.processUrl);
      const flushed = await connect(database.processUrl, { tokenCommit: 'flush' });
      try {
        assert.notEqual(storage.tokenDb, storage.db);
        assert.equal(await setting(storage.tokenDb, 'synchronous_commit'), 'off');
        assert.equal(await setting(storage.db, 'synchronous_commit'), 'on');
        // The URL's settings still hold on the token pool.
        assert.equal(await setting(storage.tokenDb, 'search_path'), database.schema);
        assert.equal(flushed.tokenDb, flushed.db);
        assert.equal(await setting(flushed.tokenDb, 'synchronous_commit'), 'on');
      } finally {
        await storage.close();
        await flushed.close();
        await database.drop();
      }
    },
  );
});
