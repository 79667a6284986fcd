import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { migrate, pendingMigrations } from '../../src/storage/connect.js';
import { migrations } from '../../src/storage/migrations/index.js';
import { createTestDatabase, redisUrl, startService, type RunningService } from '../helpers/service.js';

let running: RunningService;
before(async () => {
  running = await startService();
});
after(() => running.close());

test('liveness and readiness answer 200 with what they checked', async () => {
  const live = await fetch(`${running.url}/health/live`);
  assert.equal(live.status, 200);
  assert.deepEqual(await live.json(), { status: 'ok' });
  assert.equal(live.headers.get('cache-control'), 'no-store');
  for (const path of ['/health/ready', '/health']) {
    const ready = await fetch(`${running.url}${path}`);
    assert.equal(ready.status, 200, path);
    assert.deepEqual(await ready.json(), {
      status: 'ok',
      database: 'up',
      migrations: 'current',
      redis: redisUrl ? 'up' : 'not configured',
    });
  }
});

test('migrations not run are pending, and none after migrate', async () => {
  const database = createTestDatabase();
  const storage = await database.open();
  try {
    assert.deepEqual(await pendingMigrations(storage), Object.keys(migrations));
    await migrate(storage);
    assert.deepEqual(await pendingMigrations(storage), []);
  } finally {
    await storage.close();
    await database.drop();
  }
});

test('while draining, readiness fails with Retry-After and liveness stays up', async () => {
  running.service.startDraining();
  const ready = await fetch(`${running.url}/health/ready`);
  assert.equal(ready.status, 503);
  assert.equal(ready.headers.get('retry-after'), '5');
  assert.equal(((await ready.json()) as { status: string }).status, 'draining');
  assert.equal((await fetch(`${running.url}/health/live`)).status, 200);
  // Requests are still served while draining.
  const key = 'd687412e7b53146b2631dc01974ad0a4';
  assert.equal((await fetch(`${running.url}/api/v1/states?apikey=${key}`)).status, 200);
});
