import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startService, type RunningService } from '../helpers/service.js';

describe('GET /', () => {
  let running: RunningService;
  before(async () => {
    running = await startService({ SAMPLE_MARKET: 'false', PUBLIC_URL: 'http://localhost:8000' });
  });
  after(() => running.close());

  test('a browser is sent to the Swagger UI', async () => {
    const response = await fetch(`${running.url}/`, {
      redirect: 'manual',
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    assert.equal(response.status, 302);
    assert.equal(response.headers.get('location'), '/docs');
    assert.match(response.headers.get('vary') ?? '', /accept/i);
    const docs = await fetch(`${running.url}/docs`);
    assert.ok(docs.status < 400, String(docs.status));
  });

  test('a JSON client gets the index of the APIs, and every URL in it answers', async () => {
    for (const accept of [undefined, 'application/json', '*/*']) {
      const response = await fetch(`${running.url}/`, accept ? { headers: { accept } } : {});
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      const index = (await response.json()) as {
        apis: { base: string; docs: string; openapi: string; discovery?: string[] }[];
        health: string;
      };
      assert.deepEqual(
        index.apis.map((a) => a.base),
        ['http://localhost:8000/v2', 'http://localhost:8000/api/v1', 'http://localhost:8000/ppl/api/v1'],
      );
      if (accept) continue;
      const urls = [
        index.health,
        ...index.apis.flatMap((a) => [a.docs, a.openapi, ...(a.discovery ?? [])]),
      ].map((u) => u.replace('http://localhost:8000', running.url));
      for (const url of urls) {
        const answer = await fetch(url);
        await answer.arrayBuffer();
        assert.ok(answer.status < 400, `${url}: ${answer.status}`);
      }
    }
  });
});
