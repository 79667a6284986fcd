import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { connect, migrate, type Storage } from '../../src/storage/connect.js';
import { preparedQuery } from '../../src/storage/prepared.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/service.js';

/**
 * The hot paths' prepared queries (storage/prepared.ts) go to PostgreSQL as named statements: parsed and
 * planned once per connection, then only bound and run. One connection here, so the statement the query
 * prepared is the one the session lists.
 */
const skip = onPostgres ? false : 'PostgreSQL only: SQLite caches its prepared statements in process';
let database: TestDatabase;
let storage: Storage;

before(async () => {
  if (!onPostgres) return;
  database = createTestDatabase();
  storage = await connect(database.url, { schema: database.schema!, poolSize: 1 });
  await migrate(storage);
});
after(async () => {
  if (!onPostgres) return;
  await storage.close();
  await database.drop();
});

test(
  'a query prepared with `named` runs as a named statement, prepared once per connection',
  { skip },
  async () => {
    const find = preparedQuery<'hash', { id: string }>(
      storage.db,
      (p) => storage.db.selectFrom('api_keys').select('id').where('key_hash', '=', p('hash')),
      { named: true },
    );
    const prepared = async () =>
      (
        await sql<{ name: string; statement: string }>`
        select name, statement from pg_prepared_statements where statement like '%api_keys%'`.execute(
          storage.db,
        )
      ).rows;
    assert.deepEqual(await prepared(), []);
    for (let i = 0; i < 3; i++) assert.deepEqual((await find({ hash: `absent-${i}` })).rows, []);
    const named = await prepared();
    assert.equal(named.length, 1, JSON.stringify(named));
    assert.match(named[0]!.name, /^oe_\d+$/);
    // Other queries are sent unnamed, as before: one built per call, and a prepared one not asked to be named.
    await storage.db.selectFrom('api_keys').select('name').where('id', '=', 'none').execute();
    const unnamed = preparedQuery<'id', { name: string }>(storage.db, (p) =>
      storage.db.selectFrom('api_keys').select('name').where('id', '=', p('id')),
    );
    await unnamed({ id: 'none' });
    assert.equal((await prepared()).length, 1);
  },
);
