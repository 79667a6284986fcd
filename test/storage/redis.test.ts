import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/shared/logger.js';
import { buildService } from '../../src/server.js';
import { createRedisCounters } from '../../src/storage/counters.js';
import { startFakeRedis } from '../helpers/fake-redis.js';
import { startServiceWithLogs } from '../helpers/logged-service.js';
import { freePort, spawnServer } from '../helpers/processes.js';
import { createTestDatabase, redisUrl } from '../helpers/service.js';

/** Start-up settings that skip the work these tests do not look at. */
const QUICK = { SANDBOX_ENROLLEES: '1', SAMPLE_MARKET: 'false' };

const TOO_OLD = 'Redis 2.4.18 is too old: openenroll needs Redis 2.6.12 or newer (SET with PX and NX)';

describe('the Redis version at start-up', () => {
  test('a Redis older than 2.6.12 stops the start with the version it needs; nothing keeps running', async () => {
    const redis = await startFakeRedis('2.4.18');
    const database = createTestDatabase();
    const storage = await database.open();
    try {
      const config = loadConfig({ ...QUICK, LOG_LEVEL: 'silent', REDIS_URL: redis.url });
      await assert.rejects(buildService(config, createLogger('silent'), { storage }), {
        variable: 'REDIS_URL',
        message: `REDIS_URL: ${TOO_OLD}`,
      });
    } finally {
      await storage.close();
      await database.drop();
      await redis.close();
    }
  });

  test('openenroll serve exits 2 naming the setting and the version needed', async () => {
    const redis = await startFakeRedis('2.4.18');
    const database = createTestDatabase();
    await (await database.open()).close();
    const server = spawnServer('old redis', await freePort(), {
      DATABASE_URL: database.processUrl,
      REDIS_URL: redis.url,
      ...QUICK,
      LOG_LEVEL: 'warn',
    });
    try {
      const code = await Promise.race([server.exited, sleep(30_000, 'still running', { ref: false })]);
      assert.equal(code, 2, server.output.join(''));
      assert.match(
        server.output.join(''),
        new RegExp(`openenroll: bad setting REDIS_URL: ${TOO_OLD.replace(/[.()]/g, '\\$&')}`),
      );
    } finally {
      server.child.kill('SIGKILL');
      await database.drop();
      await redis.close();
    }
  });

  test('2.6.12 is enough; a Redis that hides its version is used with a warning', async () => {
    for (const [version, info, warned] of [
      ['2.6.12', undefined, false],
      ['7.2.4', '-NOPERM this user has no permissions to run the info command\r\n', true],
    ] as const) {
      const redis = await startFakeRedis(version, info ? { info } : {});
      try {
        const running = await startServiceWithLogs({ ...QUICK, REDIS_URL: redis.url });
        const warnings = running.records().filter((r) => r.event === 'redis_version_unknown');
        await running.close();
        assert.equal(warnings.length, warned ? 1 : 0, version);
        if (warned) assert.match(String(warnings[0]!.reason), /NOPERM/);
      } finally {
        await redis.close();
      }
    }
  });

  test('a Redis that does not answer at start-up still lets the service start, degraded', async () => {
    const running = await startServiceWithLogs({
      ...QUICK,
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
    });
    try {
      assert.equal(running.service.dependencies.redis?.isUp(), false);
    } finally {
      await running.close();
    }
  });
});

/** What the counters must do on any Redis they run on. */
function counterTests(server: () => Promise<{ url: string; close(): Promise<void> }>) {
  let redis: Redis;
  let close: () => Promise<void>;
  const prefix = `test-${randomBytes(6).toString('hex')}:`;
  before(async () => {
    const started = await server();
    redis = new Redis(started.url);
    close = started.close;
  });
  after(async () => {
    try {
      await redis.del(`${prefix}a`, `${prefix}text`);
    } finally {
      redis.disconnect();
      await close();
    }
  });

  test('count within a fixed window, which later hits do not extend, and start again after it', async () => {
    const counters = createRedisCounters(redis, prefix);
    assert.equal(await counters.hit('a', 1, Date.now()), 1);
    const ttl = await redis.pttl(`${prefix}a`);
    assert.ok(ttl > 0 && ttl <= 1000, `the window is on the key: ${ttl} ms`);
    await sleep(600);
    assert.equal(await counters.hit('a', 1, Date.now()), 2);
    assert.equal(await counters.hit('a', 1, Date.now()), 3);
    assert.ok((await redis.pttl(`${prefix}a`)) <= ttl - 500, 'hits keep the expiry of the first');
    assert.equal(await counters.peek('a', Date.now()), 3);
    assert.equal(await counters.peek('b', Date.now()), 0);
    await sleep(500);
    assert.equal(await counters.peek('a', Date.now()), 0, 'the window ended 1 s after its first hit');
    assert.equal(await counters.hit('a', 1, Date.now()), 1);
    await counters.reset('a');
    assert.equal(await counters.peek('a', Date.now()), 0);
  });

  test('a command refused inside the transaction fails the hit (so the caller falls back)', async () => {
    await redis.set(`${prefix}text`, 'not a number');
    await assert.rejects(createRedisCounters(redis, prefix).hit('text', 1, Date.now()), /not an integer/);
  });
}

describe(
  "Redis counters on the suite's Redis",
  { skip: redisUrl ? false : 'needs REDIS_URL=redis://…' },
  () => counterTests(async () => ({ url: redisUrl!, close: async () => {} })),
);

// PEXPIRE's NX option came in Redis 7.0; 6.2 is what many distributions and managed services still run.
describe('Redis counters on a Redis 6.2', () => counterTests(() => startFakeRedis('6.2.14')));
