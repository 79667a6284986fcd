import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startService, type RunningService } from '../helpers/service.js';
import { SANDBOX_KEY } from './plan-api.js';

// Errors fastify raises before a route is known (a path that is not valid percent-encoding) or where no
// route's config says how to render them (a path no route serves) still answer in the plan API's shape
// under /api/v1, and in the authorization service's shape elsewhere.

let running: RunningService;
before(async () => {
  running = await startService({ SAMPLE_MARKET: 'false' });
});
after(() => running.close());

interface Answer {
  status: number;
  contentType: string;
  nosniff: string | null;
  body: unknown;
}

async function send(path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(`${running.url}${path}`, { redirect: 'manual', ...init });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    nosniff: response.headers.get('x-content-type-options'),
    body: JSON.parse(text) as unknown,
  };
}

/** The plan API's 400 body: `{code,status,message,error}`, every value a string, nothing else. */
function assertPlanInputError(answer: Answer, error: RegExp, label: string): void {
  assert.equal(answer.status, 400, label);
  assert.match(answer.contentType, /^application\/json/, label);
  const body = answer.body as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'message', 'status'], label);
  for (const [name, value] of Object.entries(body)) assert.equal(typeof value, 'string', `${label}: ${name}`);
  assert.equal(body.code, '1003', label);
  assert.equal(body.status, '400', label);
  assert.equal(body.message, 'invalid input', label);
  assert.match(String(body.error), error, label);
}

const key = `apikey=${SANDBOX_KEY}`;

describe('malformed requests under /api/v1 answer in the plan API shape', () => {
  test('a path that is not valid percent-encoding (refused before routing)', async () => {
    for (const path of [
      `/api/v1/counties/%zz?${key}`,
      '/api/v1/counties/%zz',
      `/api/v1/states/%E0%A4%A?${key}`,
      `/api/v1/no-such-endpoint/%zz?${key}`,
      '/api/v1/%ff',
    ]) {
      const answer = await send(path);
      assertPlanInputError(answer, /^Malformed URL: the path is not valid percent-encoded UTF-8\.$/, path);
      assert.equal(answer.nosniff, 'nosniff', `${path}: the kernel's headers`);
    }
  });

  test('a query string that is not valid percent-encoding, on a route and on a path no route serves', async () => {
    for (const path of [
      `/api/v1/states?${key}&x=%zz`,
      `/api/v1/counties/by/zip/83702?${key}&year=%E0%A4%A`,
      `/api/v1/no-such-endpoint?${key}&x=%zz`,
      '/api/v1?x=%zz',
      // Refused before the key is checked: a malformed request says so whatever its key.
      '/api/v1/states?apikey=%zz',
    ]) {
      assertPlanInputError(await send(path), /^Malformed percent-encoding in the query string\.$/, path);
    }
  });

  test('a body that does not parse, sent to a path no route serves', async () => {
    const answer = await send(`/api/v1/no-such-endpoint?${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"broken":',
    });
    assertPlanInputError(answer, /not valid JSON/, 'POST broken JSON');
  });

  test('a path a route serves under another method: 405 before the body is read', async () => {
    const answer = await send(`/api/v1/households/pcfpl?${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"broken":',
    });
    assert.equal(answer.status, 405);
    assert.deepEqual(answer.body, {
      code: '1003',
      status: '405',
      message: 'invalid input',
      error: 'Method "POST" not allowed.',
    });
  });

  test('well-formed requests are unchanged: a path no route serves still gets the gateway 404', async () => {
    const answer = await send(`/api/v1/no-such-endpoint?${key}`);
    assert.equal(answer.status, 404);
    assert.deepEqual(answer.body, { message: 'no Route matched with those values' });
    assert.equal((await send(`/api/v1/states?${key}`)).status, 200);
  });
});

describe('outside /api/v1 the kernel keeps its own shape', () => {
  test('the root, and a look-alike prefix', async () => {
    for (const path of ['/%zz', '/api/v10/%zz', '/api/v1x/%zz']) {
      const answer = await send(path);
      assert.equal(answer.status, 400, path);
      assert.equal(answer.nosniff, 'nosniff', path);
      assert.deepEqual(
        answer.body,
        { status_code: 400, message: 'Malformed URL: the path is not valid percent-encoded UTF-8.' },
        path,
      );
    }
    assert.deepEqual((await send('/no-such-page?x=%zz')).body, {
      status_code: 400,
      message: 'Malformed percent-encoding in the query string.',
    });
  });
  test('a path of the authorization service answers in its route’s shape (an HTML page for authorize)', async () => {
    const response = await fetch(`${running.url}/v2/o/authorize/%zz/`);
    assert.equal(response.status, 400);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await response.text(), /Malformed URL: the path is not valid percent-encoded UTF-8\./);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
  });
});
