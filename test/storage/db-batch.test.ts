import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { connect } from '../../src/storage/connect.js';
import { createTestDatabase, onPostgres } from '../helpers/service.js';

/**
 * `DB_BATCH`: on PostgreSQL, reads by id and refresh rotations made at the same time share a statement
 * unless it is `off` (docs/decisions.md#batched-statements); SQLite runs one statement per request. What the
 * batches send is counted in test/storage/round-trips.test.ts and test/fhir/fhir-paging.test.ts.
 */
test('DB_BATCH is on unless set to off; anything else is refused', () => {
  const base = { DATABASE_URL: 'sqlite::memory:' };
  assert.equal(loadConfig(base).dbBatch, 'on');
  assert.equal(loadConfig({ ...base, DB_BATCH: 'off' }).dbBatch, 'off');
  assert.throws(() => loadConfig({ ...base, DB_BATCH: 'yes' }), ConfigError);
});

test('the storage batches on PostgreSQL unless told not to, never on SQLite', async () => {
  const database = createTestDatabase();
  const batching = await connect(database.processUrl);
  const single = await connect(database.processUrl, { batchStatements: false });
  try {
    assert.equal(batching.dialect.batchedStatements, onPostgres);
    assert.equal(single.dialect.batchedStatements, false);
  } finally {
    await batching.close();
    await single.close();
    await database.drop();
  }
});
