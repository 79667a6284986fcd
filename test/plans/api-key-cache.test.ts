import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApiKeyStore } from '../../src/plans/store/api-keys.js';
import { connect, migrate, type Storage } from '../../src/storage/connect.js';
import { createTestDatabase, type TestDatabase } from '../helpers/service.js';

const LIMITS = { perSecond: 10, perMinute: 100, expiresAt: null };

/**
 * The key lookup keeps what it read on SQLite until somebody else commits (api-keys.ts): these check that
 * a revocation is seen at once however it is made — by another connection (another instance, the CLI),
 * through another store over the same connection, or through the same store.
 */
describe('API keys kept between lookups are never stale', () => {
  let database: TestDatabase;
  let first: Storage;
  let second: Storage;

  before(async () => {
    database = createTestDatabase();
    first = await database.open();
    await migrate(first);
    second = await database.open();
  });
  after(async () => {
    await first.close();
    await second.close();
    await database.drop();
  });

  it('SQLite has the change counter, PostgreSQL does not (a key is kept there for a lease)', () => {
    assert.equal(typeof first.changeCounter, database.url.startsWith('sqlite:') ? 'function' : 'undefined');
  });

  it('a key revoked through another connection is refused by the next lookup', async () => {
    const reader = createApiKeyStore(first.db, first.changeCounter);
    const writer = createApiKeyStore(second.db, second.changeCounter);
    const { key, record } = await writer.createKey({ name: 'other connection', ...LIMITS }, 1_000);
    assert.equal((await reader.findKey(key))?.revokedAt, null);
    assert.equal((await reader.findKey(key))?.revokedAt, null);
    assert.equal(await writer.revokeKey(record.id, 2_000), true);
    assert.equal((await reader.findKey(key))?.revokedAt, 2_000);
  });

  it('a key created elsewhere after a failed lookup is found (unknown keys are not kept past a write)', async () => {
    const reader = createApiKeyStore(first.db, first.changeCounter);
    const writer = createApiKeyStore(second.db, second.changeCounter);
    const chosen = 'a-key-chosen-by-the-test-0001';
    assert.equal(await reader.findKey(chosen), undefined);
    await writer.createKey({ name: 'late', key: chosen, ...LIMITS }, 1_000);
    assert.equal((await reader.findKey(chosen))?.name, 'late');
  });

  it('a write through another store over the same connection is seen, as is a write through the same one', async () => {
    const reader = createApiKeyStore(first.db, first.changeCounter);
    const writer = createApiKeyStore(first.db, first.changeCounter);
    const { key, record } = await reader.createKey({ name: 'same connection', ...LIMITS }, 1_000);
    assert.equal((await reader.findKey(key))?.revokedAt, null);
    assert.equal(await writer.revokeKey(record.id, 3_000), true);
    assert.equal((await reader.findKey(key))?.revokedAt, 3_000);
    await reader.deleteKey(record.id);
    assert.equal(await reader.findKey(key), undefined);
  });

  it('a key found is read once, and its revocation elsewhere returns only once the reader refuses it', async () => {
    // A reader that notes its statements: after the first lookup the key comes from what it kept.
    const noted: string[] = [];
    const counted = await connect(database.url, {
      ...(database.schema === undefined ? {} : { schema: database.schema }),
      onStatement: (sql) => noted.push(sql),
    });
    try {
      const reader = createApiKeyStore(counted.db, counted.changeCounter);
      const writer = createApiKeyStore(second.db, second.changeCounter);
      const { key, record } = await writer.createKey({ name: 'kept', ...LIMITS }, 1_000);
      assert.equal((await reader.findKey(key))?.revokedAt, null);
      const before = noted.length;
      assert.equal((await reader.findKey(key))?.revokedAt, null);
      assert.equal(noted.length, before, 'the second lookup sent nothing');
      // The reader kept the live row; the revocation is confirmed only once the reader can no longer use it.
      assert.equal(await writer.revokeKey(record.id, 2_000), true);
      assert.equal((await reader.findKey(key))?.revokedAt, 2_000);
    } finally {
      await counted.close();
    }
  });
});
