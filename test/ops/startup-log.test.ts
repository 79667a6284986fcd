import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { freePort, spawnServer, stopServer, waitHealthy } from '../helpers/processes.js';

// The default start's line (100 enrollees, the sample market, the published key) is checked by
// test/readme-examples.test.ts on the service the README examples run against.
test('the ready line says what was prepared, and never shows a key the operator chose', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'openenroll-startup-'));
  const ownKey = 'my-own-sandbox-key-0123456789';
  const server = spawnServer('startup', await freePort(), {
    DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
    LOG_LEVEL: 'info',
    SANDBOX_ENROLLEES: '2',
    SAMPLE_MARKET: 'false',
    SANDBOX_API_KEY: ownKey,
  });
  try {
    await waitHealthy(server);
    const output = server.output.join('');
    assert.ok(!output.includes(ownKey), 'the chosen sandbox key was logged');
    const ready = output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((r) => r.event === 'ready');
    assert.ok(ready, output);
    assert.equal(ready.enrollees, 2);
    assert.ok(Number(ready.claimsResources) > 0);
    assert.equal(ready.sandboxApiKey, '(set by SANDBOX_API_KEY)');
    assert.deepEqual(ready.sampleMarketYears, []);
    assert.match(String(ready.msg), /^ready at http:\/\/127\.0\.0\.1:\d+: 2 enrollees/);
    assert.match(String(ready.msg), /plan data: none loaded/);
    assert.match(String(ready.msg), /docs http:\/\/127\.0\.0\.1:\d+\/docs/);
  } finally {
    await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
  }
});
