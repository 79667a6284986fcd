import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { mrPufFormat } from '../../src/ingest/mr-puf/format.js';
import { IngestError } from '../../src/ingest/engine/report.js';
import { runIngest } from '../../src/ingest/engine/run.js';
import { ingestSuite } from '../helpers/ingest-suite.js';
import { sharedData, skipWithoutSharedData } from '../helpers/shared-data.js';

const DATA = ['plans.json', 'drugs-1.json', 'drugs-2.json', 'providers.json'];
const example = (name: string) => sharedData(`mr_puf_examples/${name}`);

/**
 * The example index with its URLs moved to `base` (the test server), and `extra` files added to its
 * formulary list: `gone.json` answers 404, `slow.json` never answers, `flaky.json` answers 503 once.
 */
function indexAt(base: string, extra: string[], plans = 'plans.json') {
  const index = JSON.parse(readFileSync(example('cms-data-index.json'), 'utf8')) as Record<string, string[]>;
  const moved = (urls: string[]) => urls.map((u) => `${base}/${u.split('/').pop()}`);
  return {
    plan_urls: moved(index.plan_urls!).map((u) => u.replace('plans.json', plans)),
    formulary_urls: [...moved(index.formulary_urls!), ...extra.map((e) => `${base}/${e}`)],
    provider_urls: moved(index.provider_urls!),
  };
}

describe(
  'ingest mr-puf --index <url>: the index and its files fetched over HTTP',
  {
    skip: skipWithoutSharedData(
      'mr_puf_examples/cms-data-index.json',
      ...DATA.map((d) => `mr_puf_examples/${d}`),
    ),
  },
  () => {
    const suite = ingestSuite('mr-puf-index');
    let server: Server;
    let base = '';
    const hanging = new Set<ServerResponse>();
    const requests: string[] = [];
    before(async () => {
      server = createServer((request, response) => {
        const [path, query] = request.url!.slice(1).split('?');
        requests.push(path!);
        if (path === 'slow.json') {
          hanging.add(response);
          return;
        }
        if (path === 'flaky.json' && requests.filter((r) => r === 'flaky.json').length === 1) {
          response.statusCode = 503;
          response.end('busy');
          return;
        }
        if (path === 'index.json') {
          const extra = query ? query.split(',') : [];
          const plans = extra.includes('no-plans') ? 'missing-plans.json' : 'plans.json';
          response.end(
            JSON.stringify(
              indexAt(
                base,
                extra.filter((e) => e !== 'no-plans'),
                plans,
              ),
            ),
          );
          return;
        }
        const file = path === 'flaky.json' ? 'drugs-2.json' : path!;
        if (!DATA.includes(file)) {
          response.statusCode = 404;
          response.end('not found');
          return;
        }
        response.setHeader('content-type', 'application/json');
        response.end(readFileSync(example(file)));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => {
      for (const response of hanging) response.destroy();
      server.close();
    });
    const load = (url: string) =>
      runIngest(mrPufFormat({ timeoutMs: 300, attempts: 3 }), [url], suite.storage.db, { now: Date.now() });
    const expectStored = async () => {
      assert.equal(await suite.count('coverage_plans', 2020), 3);
      assert.equal(await suite.count('plan_drugs', 2020), 5);
      assert.equal(await suite.count('network_providers', 2020), 3);
    };

    test('every file of the index is read; a 503 is tried again', async () => {
      const summary = await load(`${base}/index.json?flaky.json`);
      assert.equal(summary.rejectedCount, 0);
      assert.deepEqual(summary.years, [2020]);
      await expectStored();
      assert.equal(requests.filter((r) => r === 'flaky.json').length, 2);
      const [plan] = await suite.storage.db.selectFrom('coverage_plans').select('source').limit(1).execute();
      assert.equal(plan?.source, 'plans.json, drugs-1.json, drugs-2.json, flaky.json, providers.json');
    });

    test('every URL that failed is named (404, no answer), and nothing is stored', async () => {
      requests.length = 0;
      const started = Date.now();
      await assert.rejects(load(`${base}/index.json?gone.json,slow.json`), (error: unknown) => {
        assert.ok(error instanceof IngestError);
        assert.match(error.message, /^2 files could not be read; nothing was stored:/);
        assert.match(error.message, new RegExp(`${base}/gone\\.json: HTTP 404\n`));
        assert.match(
          error.message,
          new RegExp(`${base}/slow\\.json: no answer within 300 ms \\(3 attempts\\)$`),
        );
        return true;
      });
      // 404 is not tried again; the silent URL is, three times, with pauses.
      assert.equal(requests.filter((r) => r === 'gone.json').length, 1);
      assert.equal(requests.filter((r) => r === 'slow.json').length, 3);
      assert.ok(Date.now() - started < 5000);
      await expectStored();
    });

    test('plans.json fails: the other URLs are asked for, and named if they fail too', async () => {
      await assert.rejects(load(`${base}/index.json?no-plans,gone.json`), (error: unknown) => {
        assert.ok(error instanceof IngestError);
        assert.match(error.message, /^2 files could not be read/);
        assert.match(error.message, /missing-plans\.json: HTTP 404/);
        assert.match(error.message, /gone\.json: HTTP 404/);
        return true;
      });
      await expectStored();
    });

    test('the index URL itself fails: named, nothing stored', async () => {
      await assert.rejects(load(`${base}/no-index.json`), /no-index\.json: HTTP 404; nothing was stored/);
      await expectStored();
    });
  },
);
