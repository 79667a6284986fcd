import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { startService, type RunningService } from '../helpers/service.js';
import { ADDENDUM_B_2025 } from '../helpers/price-fixtures.js';
import { ingest } from '../helpers/shared-data.js';
import { SANDBOX_KEY } from '../plans/plan-api.js';

const here = dirname(fileURLToPath(import.meta.url));
/** CMS ASC Addendum AA, January 2025: its HCPCS Level II rows, verbatim (test/fixtures/PROVENANCE.md). */
const ASC_EXCERPT = join(here, '../fixtures/asc-addendum-aa-cy2025-jan-excerpt.csv');
const PPL_DOCUMENT = resolve(here, '../../../shared/reference/price-lookup-api/openapi.json');

/** A running service with the real ASC rows loaded; `PPL_AMA_LICENSE` as given. */
function pplSuite(env: Record<string, string> = {}) {
  let running: RunningService | undefined;
  before(async () => {
    running = await startService({ SAMPLE_MARKET: 'false', ...env });
    const summary = await ingest(running.service.storage, 'asc-addendum-aa', [ASC_EXCERPT]);
    assert.equal(summary.rejectedCount, 0);
    const dir = mkdtempSync(join(tmpdir(), 'ppl-'));
    const oppsFile = join(dir, '2025_january_web_addendum_b.csv');
    writeFileSync(oppsFile, `${ADDENDUM_B_2025.join('\r\n')}\r\n`);
    assert.equal((await ingest(running.service.storage, 'opps-addendum-b', [oppsFile])).rejectedCount, 0);
    running.service.plans.samples.refresh();
  });
  after(async () => running?.close());
  return {
    get running() {
      return running!;
    },
    get(path: string, headers: Record<string, string> = { apiKey: SANDBOX_KEY, amaLicense: 'test-license' }) {
      return fetch(new URL(`/ppl/api/v1${path}`, running!.url), { headers });
    },
  };
}

describe('procedure price lookup /ppl/api/v1 (real ASC Addendum AA CY 2025 rows)', () => {
  const ppl = pplSuite();

  test('GET /costs/{code}: one cost per facility type; cost = total − copay', async () => {
    const response = await ppl.get('/costs/C9600');
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), [
      { code: 'C9600', facilityType: 'ASC', cost: 5649.81, copay: 1412.45, total: 7062.26 },
    ]);
    // Hospital outpatient (OPPS, CY 2025): G0463 in APC 5012, $128.87 with a $25.78 copayment.
    assert.deepEqual(await (await ppl.get('/costs/G0463')).json(), [
      { code: 'G0463', facilityType: 'HOPD', cost: 103.09, copay: 25.78, total: 128.87 },
    ]);
    assert.deepEqual(await (await ppl.get('/costs/71046')).json(), [
      { code: '71046', facilityType: 'HOPD', cost: 70.44, copay: 17.61, total: 88.05 },
    ]);
    // A preventive service (**): no coinsurance.
    assert.deepEqual(await (await ppl.get('/costs/g0105')).json(), [
      { code: 'G0105', facilityType: 'ASC', cost: 489.47, copay: 0, total: 489.47 },
    ]);
  });

  test('GET /costs: every code, by code then facility type; limit', async () => {
    const all = (await (await ppl.get('/costs')).json()) as { code: string }[];
    assert.equal(all.length, 88);
    assert.deepEqual(
      all.map((c) => c.code),
      [...all.map((c) => c.code)].sort(),
    );
    const two = (await (await ppl.get('/costs?limit=2')).json()) as { code: string }[];
    assert.deepEqual(
      two.map((c) => c.code),
      ['71046', 'C5271'],
    );
  });

  test("GET /codes: the term matches a code's start or a description's words, case-insensitively", async () => {
    assert.deepEqual(await (await ppl.get('/codes?term=colon')).json(), [
      { code: 'G0121', description: 'Colon ca scrn not hi rsk ind', frequency: 0 },
    ]);
    const byCode = (await (await ppl.get('/codes?term=c97&limit=3')).json()) as { code: string }[];
    assert.deepEqual(
      byCode.map((c) => c.code),
      ['C9725', 'C9727', 'C9728'],
    );
    assert.deepEqual(await (await ppl.get('/codes?term=100%25')).json(), []);
    assert.equal(((await (await ppl.get('/codes')).json()) as unknown[]).length, 88);
  });

  test('GET /codes/{code}', async () => {
    assert.deepEqual(await (await ppl.get('/codes/G0260')).json(), {
      code: 'G0260',
      description: 'Inj for sacroiliac jt anesth',
      frequency: 0,
    });
  });

  test('400 for a code that is not 5 characters or a bad limit; 404 for an unknown code', async () => {
    for (const [path, status] of [
      ['/codes/C96', 400],
      ['/costs/C96000', 400],
      ['/costs?limit=0', 400],
      ['/codes?limit=ten', 400],
      ['/codes/C5272', 404], // packaged: no cost, and no procedure list names it
      ['/costs/Z9999', 404],
    ] as const) {
      const response = await ppl.get(path);
      assert.equal(response.status, status, path);
      const body = (await response.json()) as { message: string };
      assert.equal(typeof body.message, 'string', path);
    }
    assert.deepEqual(await (await ppl.get('/costs/Z9999')).json(), {
      message: 'Cost information for the given code not found: Z9999',
    });
  });

  test('401 without or with an unknown apiKey; 403 without amaLicense; limits in every answer', async () => {
    const none = await ppl.get('/costs/C9600', { amaLicense: 'x' });
    assert.equal(none.status, 401);
    assert.deepEqual(await none.json(), { message: 'No API key found in request' });
    const unknown = await ppl.get('/costs/C9600', { apiKey: 'not-a-key-at-all-0000', amaLicense: 'x' });
    assert.equal(unknown.status, 401);
    assert.deepEqual(await unknown.json(), { message: 'Invalid authentication credentials' });
    const noLicense = await ppl.get('/costs/C9600', { apiKey: SANDBOX_KEY });
    assert.equal(noLicense.status, 403);
    assert.deepEqual(await noLicense.json(), { message: 'Missing or invalid amaLicense' });
    const ok = await ppl.get('/costs/C9600');
    assert.ok(Number(ok.headers.get('x-ratelimit-remaining-minute')) >= 0);
    assert.ok(ok.headers.get('ratelimit-limit'));
    await ok.arrayBuffer();
  });

  test('a procedure list, once loaded, is what is offered: its codes, descriptions and frequencies', async () => {
    const dir = ppl.running.service.storage;
    const file = join(mkdtempSync(join(tmpdir(), 'ppl-list-')), 'procedures.csv');
    writeFileSync(
      file,
      'code,description,frequency\r\nG0105,Colorectal cancer screening colonoscopy (high risk),5000\r\n' +
        'C9600,Drug-eluting coronary stent,900\r\nG0104,Flexible sigmoidoscopy screening,12000\r\n',
    );
    await ingest(dir, 'ppl-procedures', [file]);
    ppl.running.service.plans.samples.refresh();
    assert.deepEqual(
      ((await (await ppl.get('/codes')).json()) as { code: string; frequency: number }[]).map((c) => [
        c.code,
        c.frequency,
      ]),
      [
        ['G0104', 12000],
        ['G0105', 5000],
        ['C9600', 900],
      ],
    );
    assert.deepEqual(
      ((await (await ppl.get('/costs')).json()) as { code: string }[]).map((c) => c.code),
      ['C9600', 'G0104', 'G0105'],
    );
    assert.equal((await ppl.get('/costs/G0260')).status, 404);
    assert.deepEqual(
      ((await (await ppl.get('/codes?term=SCREENING')).json()) as { code: string }[]).map((c) => c.code),
      ['G0104', 'G0105'],
    );
  });

  test('its own OpenAPI document: the four paths, both headers required', async () => {
    const document = (await (await fetch(new URL('/ppl/api/v1/openapi.json', ppl.running.url))).json()) as {
      paths: Record<string, { get: { security: Record<string, unknown>[] } }>;
      components: { securitySchemes: Record<string, { in: string; name: string }> };
    };
    assert.deepEqual(Object.keys(document.paths).sort(), [
      '/ppl/api/v1/codes',
      '/ppl/api/v1/codes/{code}',
      '/ppl/api/v1/costs',
      '/ppl/api/v1/costs/{code}',
    ]);
    assert.deepEqual(document.paths['/ppl/api/v1/costs']!.get.security, [{ apiKey: [], amaLicense: [] }]);
    assert.equal(document.components.securitySchemes.amaLicense!.name, 'amaLicense');
    assert.equal(document.components.securitySchemes.apiKey!.in, 'header');
  });

  test("answers match the CMS document's Code and Cost schemas", async () => {
    const cms = JSON.parse(readFileSync(PPL_DOCUMENT, 'utf8')) as {
      components: { schemas: Record<string, object> };
    };
    const ajv = new Ajv({ strict: false });
    const code = ajv.compile(cms.components.schemas.Code!);
    const cost = ajv.compile(cms.components.schemas.Cost!);
    for (const item of (await (await ppl.get('/codes')).json()) as unknown[])
      assert.ok(code(item), JSON.stringify(code.errors));
    assert.ok(code(await (await ppl.get('/codes/C9600')).json()));
    for (const item of (await (await ppl.get('/costs')).json()) as unknown[])
      assert.ok(cost(item), JSON.stringify(cost.errors));
  });
});

describe('price lookup: PPL_AMA_LICENSE', () => {
  describe('listed values', () => {
    const ppl = pplSuite({ PPL_AMA_LICENSE: 'lic-001,lic-002' });
    test('only a listed value passes', async () => {
      assert.equal(
        (await ppl.get('/costs/C9600', { apiKey: SANDBOX_KEY, amaLicense: 'lic-002' })).status,
        200,
      );
      assert.equal(
        (await ppl.get('/costs/C9600', { apiKey: SANDBOX_KEY, amaLicense: 'lic-003' })).status,
        403,
      );
    });
  });
  describe('none', () => {
    const ppl = pplSuite({ PPL_AMA_LICENSE: 'none' });
    test('no header is needed', async () => {
      assert.equal((await ppl.get('/costs/C9600', { apiKey: SANDBOX_KEY })).status, 200);
    });
  });
});

describe('price lookup on the zero-setup start: generated sample prices, labelled', () => {
  let running: RunningService | undefined;
  before(async () => {
    running = await startService({ SAMPLE_MARKET: 'true' });
  });
  after(async () => running?.close());

  test('sample codes and costs, each answer labelled as sample', async () => {
    const headers = { apiKey: SANDBOX_KEY, amaLicense: 'x' };
    const codes = await fetch(new URL('/ppl/api/v1/codes?limit=3', running!.url), { headers });
    assert.equal(codes.status, 200);
    assert.match(codes.headers.get('x-openenroll-sample-data') ?? '', /generated sample prices/);
    for (const code of (await codes.json()) as { code: string; description: string }[]) {
      assert.match(code.code, /^Z\d{4}$/);
      assert.match(code.description, /generated; not a real code/);
    }
    const costs = await fetch(new URL('/ppl/api/v1/costs/Z9001', running!.url), { headers });
    assert.match(costs.headers.get('x-openenroll-sample-data') ?? '', /generated sample prices/);
    const list = (await costs.json()) as {
      facilityType: string;
      cost: number;
      copay: number;
      total: number;
    }[];
    assert.deepEqual(
      list.map((c) => c.facilityType),
      ['ASC', 'HOPD'],
    );
    for (const c of list) assert.equal(Math.round((c.cost + c.copay) * 100), Math.round(c.total * 100));
  });

  test('real price data, once loaded, is served alone: the sample list and years no longer apply', async () => {
    await ingest(running!.service.storage, 'asc-addendum-aa', [ASC_EXCERPT]);
    running!.service.plans.samples.refresh();
    const headers = { apiKey: SANDBOX_KEY, amaLicense: 'x' };
    const costs = await fetch(new URL('/ppl/api/v1/costs/C9600', running!.url), { headers });
    assert.equal(costs.status, 200);
    assert.equal(costs.headers.get('x-openenroll-sample-data'), null);
    assert.equal(((await costs.json()) as unknown[]).length, 1);
    const sample = await fetch(new URL('/ppl/api/v1/costs/Z9001', running!.url), { headers });
    assert.equal(sample.status, 404);
    await sample.arrayBuffer();
    const codes = (await (
      await fetch(new URL('/ppl/api/v1/codes', running!.url), { headers })
    ).json()) as unknown[];
    assert.equal(codes.length, 86);
  });
});
