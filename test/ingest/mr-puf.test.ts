import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { mrPufFormat } from '../../src/ingest/mr-puf/format.js';
import { IngestError } from '../../src/ingest/report.js';
import { runStreamIngest } from '../../src/ingest/streamed.js';
import { createDatasetStore } from '../../src/plans/store/datasets.js';
import { failedIngest, ingestSuite } from '../helpers/ingest-suite.js';
import { ingest, sharedData, skipWithoutSharedData } from '../helpers/shared-data.js';

const example = (name: string) => sharedData(`mr_puf_examples/${name}`);
const DATA = ['plans.json', 'drugs-1.json', 'drugs-2.json', 'providers.json'];

describe(
  'ingest mr-puf (the CMS QHP provider and formulary schema examples)',
  {
    skip: skipWithoutSharedData(...DATA.map((d) => `mr_puf_examples/${d}`)),
  },
  () => {
    const suite = ingestSuite('mr-puf');
    const db = () => suite.storage.db;
    const expectStored = async () => {
      assert.equal(await suite.count('coverage_plans', 2020), 3);
      assert.equal(await suite.count('plan_drugs', 2020), 5);
      assert.equal(await suite.count('issuer_drugs', 2020), 2);
      assert.equal(await suite.count('network_providers', 2020), 3);
    };

    test('data files in any order: formularies, networks with tiers, providers as listed', async () => {
      const summary = await ingest(suite.storage, 'mr-puf', [...DATA].reverse().map(example));
      assert.equal(summary.rejectedCount, 0);
      assert.deepEqual(summary.years, [2020]);
      await expectStored();
      const zithromax = await db()
        .selectFrom('plan_drugs')
        .selectAll()
        .where('rxcui', '=', '248656')
        .orderBy('plan_id')
        .execute();
      assert.deepEqual(
        zithromax.map((r) => [r.plan_id, r.drug_tier, r.quantity_limit]),
        [
          ['12345XX9876542', 'GENERIC', 0],
          ['12345XX9876543', 'GENERIC', 1],
        ],
      );
      const vanNostrand = await db()
        .selectFrom('network_providers')
        .select(['plan_ids', 'network_tiers'])
        .where('npi', '=', '1234567893')
        .executeTakeFirstOrThrow();
      assert.equal(vanNostrand.plan_ids, '12345XX9876543,12345XX9876542');
      assert.deepEqual(JSON.parse(vanNostrand.network_tiers), {
        '12345XX9876543': ['PREFERRED', 'NON-PREFERRED'],
        '12345XX9876542': ['PREFERRED', 'NON-PREFERRED'],
      });
      const tylenol = await db()
        .selectFrom('issuer_drugs')
        .select('plan_ids')
        .where('rxcui', '=', '209459')
        .executeTakeFirstOrThrow();
      assert.deepEqual(tylenol.plan_ids.split(',').sort(), [
        '12345XX9876541',
        '12345XX9876542',
        '12345XX9876543',
      ]);
      const hospital = await db()
        .selectFrom('network_providers')
        .selectAll()
        .where('npi', '=', '1234567891')
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        [hospital.type, hospital.name, JSON.parse(hospital.facility_types), hospital.accepting],
        ['Facility', 'New York City Hospital', ['Hospital'], 'unknown'],
      );
      const plans = await db().selectFrom('coverage_plans').selectAll().orderBy('plan_id').execute();
      assert.deepEqual(
        plans.map((p) => [p.plan_id, Number(p.drugs), Number(p.providers)]),
        [
          ['12345XX9876541', 2, 1],
          ['12345XX9876542', 4, 2],
          ['12345XX9876543', 4, 2],
        ],
      );
    });

    test('a truncated file or an element that breaks the schema: a clear error, the previous load intact', async () => {
      const text = readFileSync(example('providers.json'), 'utf8');
      const truncated = suite.file('providers.json', text.slice(0, text.length / 2));
      const cut = await failedIngest(suite.storage, 'mr-puf', [example('plans.json'), truncated]);
      assert.match(cut.message, /providers\.json: malformed JSON/);
      await expectStored();

      const drugs = JSON.parse(readFileSync(example('drugs-1.json'), 'utf8')) as Record<string, unknown>[];
      drugs[1] = { ...drugs[1], rxnorm_id: 'Zithromax' };
      drugs.push({
        rxnorm_id: '198440',
        plans: [{ plan_id: '67890XX0000001', drug_tier: 'GENERIC', years: [2020] }],
      });
      const bad = suite.file('drugs-bad.json', JSON.stringify(drugs));
      const refused = await failedIngest(suite.storage, 'mr-puf', [example('plans.json'), bad]);
      assert.deepEqual(refused.summary?.rejected, [
        { file: bad, line: 2, reason: 'rxnorm_id "Zithromax" is not an RxCUI' },
        { file: bad, line: 3, reason: 'drug 198440: plan 67890XX0000001 is not in the plans file' },
      ]);
      await expectStored();
      const notArray = await failedIngest(suite.storage, 'mr-puf', [
        example('plans.json'),
        suite.file('x.json', '[1]'),
      ]);
      assert.match(notArray.message, /x\.json: neither plans, drugs nor providers/);
    });

    test('a year plans.json does not give: nothing stored, said so', async () => {
      const error = await failedIngest(suite.storage, 'mr-puf', DATA.map(example), { year: 2019 });
      assert.match(error.message, /no plans for 2019/);
      await expectStored();
    });

    describe('--index URL: the files fetched over HTTP', () => {
      let server: Server;
      let base = '';
      const hanging = new Set<import('node:http').ServerResponse>();
      before(async () => {
        server = createServer((request, response) => {
          const name = request.url!.slice(1);
          if (name === 'slow.json') {
            hanging.add(response);
            return; // never answers
          }
          if (name === 'index.json' || name === 'index-broken.json') {
            const lists = {
              plan_urls: [`${base}/plans.json`],
              formulary_urls: [`${base}/drugs-1.json`, `${base}/drugs-2.json`],
              provider_urls: [`${base}/providers.json`],
            };
            if (name === 'index-broken.json')
              lists.formulary_urls.push(`${base}/gone.json`, `${base}/slow.json`);
            response.setHeader('content-type', 'application/json');
            response.end(JSON.stringify(lists));
            return;
          }
          if (!DATA.includes(name)) {
            response.statusCode = 404;
            response.end('not found');
            return;
          }
          response.setHeader('content-type', 'application/json');
          response.end(readFileSync(example(name)));
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      });
      after(() => {
        for (const response of hanging) response.destroy();
        server.close();
      });
      const load = (url: string) =>
        runStreamIngest(
          mrPufFormat({ timeoutMs: 300, attempts: 2 }),
          [url],
          createDatasetStore(suite.storage.db),
          {
            now: Date.now(),
          },
        );

      test('every file of the index is read', async () => {
        const summary = await load(`${base}/index.json`);
        assert.equal(summary.rejectedCount, 0);
        await expectStored();
      });

      test('every URL that failed is named (404, no answer), and nothing is stored', async () => {
        await assert.rejects(load(`${base}/index-broken.json`), (error: unknown) => {
          assert.ok(error instanceof IngestError);
          assert.match(error.message, /2 files could not be read; nothing was stored/);
          assert.match(error.message, /gone\.json: HTTP 404/);
          assert.match(error.message, /slow\.json: no answer within 300 ms \(2 attempts\)/);
          return true;
        });
        await expectStored();
      });
    });
  },
);
