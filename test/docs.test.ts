import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type RunningService } from './helpers/service.js';

let running: RunningService;
before(async () => {
  running = await startService();
});
after(() => running.close());

test('the OpenAPI document describes the authorization endpoints', async () => {
  const response = await fetch(`${running.url}/openapi.json`);
  assert.equal(response.status, 200);
  const doc = (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
  assert.equal(doc.openapi, '3.1.0');
  for (const path of [
    '/v2/o/authorize',
    '/v2/o/token',
    '/v2/o/revoke',
    '/v2/o/revoke_token',
    '/v2/connect/userinfo',
  ]) {
    assert.ok(doc.paths[path], `${path} is documented`);
  }
  const token = doc.paths['/v2/o/token']!.post as { responses: Record<string, unknown> };
  assert.deepEqual(Object.keys(token.responses).sort(), ['200', '400', '401', '403']);
  assert.equal(doc.paths['/static/pages.css'], undefined, 'internal routes are hidden');
});

test('Swagger UI is served at /docs', async () => {
  const response = await fetch(`${running.url}/docs/static/index.html`);
  assert.equal(response.status, 200);
  assert.match(await response.text(), /swagger/i);
});

test('/health checks the database (readiness)', async () => {
  const response = await fetch(`${running.url}/health`);
  assert.equal(response.status, 200);
  const body = (await response.json()) as Record<string, string>;
  assert.equal(body.status, 'ok');
  assert.equal(body.database, 'up');
  assert.equal(body.migrations, 'current');
});
