import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { createApiKeyStore } from '../../src/plans/store/api-keys.js';
import { ensureSandboxApiKey, SANDBOX_KEY_ID } from '../../src/plans/sandbox-key.js';
import type { Storage } from '../../src/storage/connect.js';
import { migrate } from '../../src/storage/connect.js';
import { startServiceWithLogs } from '../helpers/logged-service.js';
import { createTestDatabase, startService, type TestDatabase } from '../helpers/service.js';
import { SANDBOX_KEY } from './plan-api.js';

describe('the sandbox key follows the settings on every start', () => {
  let database: TestDatabase;
  let storage: Storage;
  const keys = () => createApiKeyStore(storage.db);
  const live = async (key: string) => {
    const found = await keys().findKey(key);
    return found !== undefined && found.revokedAt === null;
  };

  before(async () => {
    database = createTestDatabase();
    storage = await database.open();
    await migrate(storage);
  });
  after(async () => {
    await storage.close();
    await database.drop();
  });

  it('sandbox mode stores the public key with the configured limits', async () => {
    await ensureSandboxApiKey(keys(), loadConfig({ API_RATE_PER_SECOND: '7' }), Date.now());
    assert.equal(await live(SANDBOX_KEY), true);
    assert.equal((await keys().findKey(SANDBOX_KEY))?.perSecond, 7);
  });

  it('a changed SANDBOX_API_KEY replaces the old key, and new limits apply', async () => {
    const config = loadConfig({ SANDBOX_API_KEY: 'another-public-test-key', API_RATE_PER_SECOND: '3' });
    await ensureSandboxApiKey(keys(), config, Date.now());
    assert.equal(await live(SANDBOX_KEY), false);
    assert.equal(await live('another-public-test-key'), true);
    assert.equal((await keys().findKey('another-public-test-key'))?.perSecond, 3);
  });

  it('production mode, or an empty SANDBOX_API_KEY, leaves no public key behind', async () => {
    await ensureSandboxApiKey(keys(), loadConfig({}), Date.now());
    await ensureSandboxApiKey(keys(), loadConfig({ OPENENROLL_MODE: 'production' }), Date.now());
    assert.equal(await live(SANDBOX_KEY), false);
    assert.equal(
      (await keys().listKeys()).some((k) => k.id === SANDBOX_KEY_ID),
      false,
    );
    await ensureSandboxApiKey(keys(), loadConfig({}), Date.now());
    await ensureSandboxApiKey(keys(), loadConfig({ SANDBOX_API_KEY: '' }), Date.now());
    assert.equal(await live(SANDBOX_KEY), false);
  });
});

describe('a production service refuses the public key', () => {
  it('answers 401 for the sandbox key after the database ran as a sandbox', async () => {
    const sandbox = await startService({ SAMPLE_MARKET: 'false' });
    try {
      assert.equal((await fetch(`${sandbox.url}/api/v1/market-years?apikey=${SANDBOX_KEY}`)).status, 200);
      // The same database, now opened by a production configuration.
      const { buildService } = await import('../../src/server.js');
      const { createLogger } = await import('../../src/shared/logger.js');
      const config = loadConfig({
        OPENENROLL_MODE: 'production',
        LOG_LEVEL: 'silent',
        PUBLIC_URL: 'https://example.org',
      });
      const production = await buildService(config, createLogger('silent'), {
        storage: sandbox.service.storage,
      });
      try {
        const response = await production.app.inject({ url: `/api/v1/market-years?apikey=${SANDBOX_KEY}` });
        assert.equal(response.statusCode, 401);
        assert.deepEqual(response.json(), { message: 'Invalid authentication credentials' });
      } finally {
        await production.app.close();
      }
    } finally {
      await sandbox.close();
    }
  });
});

describe('plan-API keys never reach the logs', () => {
  it('redacts the apikey query parameter and header in request logs', async () => {
    const running = await startServiceWithLogs({ SAMPLE_MARKET: 'false' });
    try {
      await fetch(`${running.url}/api/v1/market-years?apikey=${SANDBOX_KEY}`);
      await fetch(`${running.url}/api/v1/market-years`, { headers: { apikey: SANDBOX_KEY } });
      const text = running.lines.join('');
      assert.equal(text.includes(SANDBOX_KEY), false);
      assert.match(text, /apikey=%5Bredacted%5D|apikey=\[redacted\]/);
    } finally {
      await running.close();
    }
  });
});

describe('the plan API document describes its key', () => {
  it('has an apiKey security scheme in the query and every /api/v1 operation requires it', async () => {
    const running = await startService({ SAMPLE_MARKET: 'false' });
    try {
      const doc = (await (await fetch(`${running.url}/api/v1/openapi.json`)).json()) as {
        components: { securitySchemes: Record<string, { type: string; in: string; name: string }> };
        paths: Record<string, Record<string, { security?: unknown }>>;
      };
      assert.deepEqual(
        { ...doc.components.securitySchemes.apikey, description: undefined },
        { type: 'apiKey', in: 'query', name: 'apikey', description: undefined },
      );
      const operations = Object.values(doc.paths).flatMap((methods) => Object.values(methods));
      assert.ok(operations.length >= 10);
      for (const operation of operations) assert.deepEqual(operation.security, [{ apikey: [] }]);
    } finally {
      await running.close();
    }
  });
});
