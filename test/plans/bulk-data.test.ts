import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { Ajv } from 'ajv';
import { runCli } from '../helpers/cli.js';
import { closeObjects, readCmsDocument } from '../helpers/cms-document.js';
import { startService, type RunningService } from '../helpers/service.js';
import { ingest, sharedData, skipWithoutSharedData } from '../helpers/shared-data.js';
import { REAL, SANDBOX_KEY, filesOf, fictionalPlanRow, planApiSuite } from './plan-api.js';

// Real Census county names, HUD ZIP→county 2023Q1, the 2025 rating-area table (Los Angeles split by
// 3-digit ZIP) and the Medicaid/CHIP limits; a Plan Attributes row of 2026 (fictional issuer 99999) makes
// 2026 the current market year, so the served years are 2025 and 2026 whatever today's date.
const loads = [REAL.counties, REAL.zipCounty, REAL.ratingAreas2025, REAL.medicaid];
const skip =
  skipWithoutSharedData(...filesOf(...loads)) ||
  (skipWithoutSharedData('../reference/marketplace-api/openapi.json') && 'the CMS document is absent');

/** Plan ID Crosswalk PUF rows (layout of the 2025→2026 PUF) for the fictional issuer. */
const crosswalkRow = (zip: string, next: string, level: string, reason: string) => ({
  State: 'TX',
  PlanID_2025: '99999TX0010001',
  FIPSCode: '48201',
  ZipCode: zip,
  CrosswalkLevel: level,
  ReasonForCrosswalk: reason,
  PlanID_2026: next,
  AgeOffPlanID_2026: '',
});

/**
 * A decile mapping in the CMS `DecileMapping` shape. Test fixture: the deciles are a pattern made up for
 * the test, not CMS's mapping (which has no public source).
 */
function decileFixture(): Record<string, Record<string, Record<string, string>>> {
  const ages = ['6', '18', '26', '35', '45', '55', '999'];
  const mapping: Record<string, Record<string, Record<string, string>>> = {};
  ['low', 'medium', 'high'].forEach((utilization, u) => {
    mapping[utilization] = {};
    ['male', 'femaile'].forEach((gender, g) => {
      mapping[utilization]![gender] = Object.fromEntries(
        ages.map((age, a) => [age, `Decile ${((u * 3 + g * 2 + a) % 10) + 1}`]),
      );
    });
  });
  return mapping;
}

describe('bulk data /data/* (real HUD, Census, rating-area and Medicaid files)', { skip }, () => {
  const api = planApiSuite(loads);
  let dir = '';

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulk-data-'));
    // A plan of 2026 (fictional issuer 99999), so that 2026 is the current market year.
    await api.loadFixture('plan-attributes', api.csv('plan-attributes.csv', [fictionalPlanRow(2026, '01')]));
    await api.loadFixture(
      'crosswalk',
      api.csv('crosswalk.csv', [
        crosswalkRow('77002', '99999TX0010007', '3', '2'),
        crosswalkRow('77003', '99999TX0010007', '3', '2'),
        crosswalkRow('77004', '', '4', '8'),
      ]),
    );
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(new URL(`/api/v1${path}${path.includes('?') ? '&' : '?'}apikey=${SANDBOX_KEY}`, api.running.url), {
      headers,
    });

  describe('the year window: current and previous market year only', () => {
    for (const year of [2024, 2027]) {
      test(`year=${year} → 400 1003 naming the served years`, async () => {
        const response = await get(`/data/county-zips?year=${year}`);
        assert.equal(response.status, 400);
        assert.deepEqual(await response.json(), {
          code: '1003',
          status: '400',
          message: 'invalid bulk data request',
          error: 'year: bulk data is served for the current and the previous market year, 2026 and 2025',
        });
      });
    }

    test('no year → 400 1003', async () => {
      const response = await get('/data/apt');
      assert.equal(response.status, 400);
      const body = (await response.json()) as { code: string; error: string };
      assert.equal(body.code, '1003');
      assert.match(body.error, /year/);
    });

    test('2025 and 2026 are served', async () => {
      for (const year of [2025, 2026]) assert.equal((await get(`/data/apt?year=${year}`)).status, 200);
    });
  });

  describe('county-zips', () => {
    test('agrees with /counties/by/zip for every ZIP of Delaware', async () => {
      const document = (await (await get('/data/county-zips?year=2026')).json()) as {
        state: string;
        counties: { name: string; fips: string; zips: string[] }[];
      }[];
      const delaware = document.find((s) => s.state === 'DE');
      assert.ok(delaware, 'Delaware is in the document');
      assert.deepEqual(
        delaware.counties.map((c) => `${c.fips} ${c.name}`),
        ['10001 Kent County', '10003 New Castle County', '10005 Sussex County'],
      );
      const byZip = new Map<string, string[]>();
      for (const county of delaware.counties) {
        for (const zip of county.zips) byZip.set(zip, [...(byZip.get(zip) ?? []), county.fips]);
      }
      assert.ok(byZip.size > 60, `${byZip.size} ZIPs`);
      for (const [zip, fipsList] of byZip) {
        const answer = await api.json<{ counties: { fips: string; state: string }[] }>(
          `/counties/by/zip/${zip}`,
        );
        const inDelaware = answer.counties.filter((c) => c.state === 'DE').map((c) => c.fips);
        assert.deepEqual([...inDelaware].sort(), [...fipsList].sort(), zip);
      }
    });

    test('every ZIP–county pair of the HUD file is in the document once', async () => {
      const document = (await (await get('/data/county-zips?year=2025')).json()) as {
        counties: { fips: string; zips: string[] }[];
      }[];
      const pairs = document.flatMap((s) => s.counties.flatMap((c) => c.zips.map((z) => `${z} ${c.fips}`)));
      assert.equal(new Set(pairs).size, pairs.length);
      // 54,447 rows in ZIP_COUNTY_032023.csv, of which the ingest keeps 54,444 (three rows name no county).
      assert.equal(pairs.length, 54_444);
    });
  });

  describe('rate-areas', () => {
    test('agrees with /rate-areas for every ZIP of Delaware', async () => {
      const document = (await (await get('/data/rate-areas?year=2026')).json()) as {
        state: string;
        rateAreas: { rateArea: number; counties: { fips: string; zips: string[] }[] }[];
      }[];
      const delaware = document.find((s) => s.state === 'DE')!;
      let checked = 0;
      for (const { rateArea, counties } of delaware.rateAreas) {
        for (const county of counties) {
          for (const zip of county.zips) {
            const answer = await api.json<{ area: number }>(
              `/rate-areas?state=DE&fips=${county.fips}&zipcode=${zip}&year=2026`,
            );
            assert.equal(answer.area, rateArea, `${zip} in ${county.fips}`);
            checked += 1;
          }
        }
      }
      assert.ok(checked > 60);
    });

    test('Los Angeles County is split by 3-digit ZIP: each of its ZIPs in the area the ZIP3 table gives', async () => {
      const document = (await (await get('/data/rate-areas?year=2025')).json()) as {
        state: string;
        rateAreas: { rateArea: number; counties: { fips: string; zips: string[] }[] }[];
      }[];
      // ca_los_angeles_zip3_rating_area.csv: zip3,rating_area,effective
      const table = new Map(
        readFileSync(sharedData('premiums/policyengine_derived/ca_los_angeles_zip3_rating_area.csv'), 'utf8')
          .trim()
          .split('\n')
          .slice(1)
          .map((line) => line.split(',') as [string, string]),
      );
      const california = document.find((s) => s.state === 'CA')!;
      const seen = new Map<number, number>();
      for (const { rateArea, counties } of california.rateAreas) {
        for (const zip of counties.find((c) => c.fips === '06037')?.zips ?? []) {
          // A 3-digit ZIP the table does not list takes the county's own area (16 in the 2025 county table).
          assert.equal(String(rateArea), table.get(zip.slice(0, 3)) ?? '16', `Los Angeles ${zip}`);
          seen.set(rateArea, (seen.get(rateArea) ?? 0) + 1);
        }
      }
      assert.deepEqual([...seen.keys()].sort(), [15, 16]);
      assert.ok((seen.get(15) ?? 0) > 100 && (seen.get(16) ?? 0) > 100, JSON.stringify([...seen]));
    });
  });

  test('apt: the 2026 table of Rev. Proc. 2025-25', async () => {
    assert.deepEqual(await (await get('/data/apt?year=2026')).json(), {
      market_year: 2026,
      tiers: [
        { pctFPL: { min: 0, max: 133 }, pctPremium: { min: 2.1, max: 2.1 } },
        { pctFPL: { min: 133, max: 150 }, pctPremium: { min: 3.14, max: 4.19 } },
        { pctFPL: { min: 150, max: 200 }, pctPremium: { min: 4.19, max: 6.6 } },
        { pctFPL: { min: 200, max: 250 }, pctPremium: { min: 6.6, max: 8.44 } },
        { pctFPL: { min: 250, max: 300 }, pctPremium: { min: 8.44, max: 9.96 } },
        { pctFPL: { min: 300, max: 400 }, pctPremium: { min: 9.96, max: 9.96 } },
      ],
    });
  });

  test('state-medicaid: the quarters of the year, each state as /states/{abbrev}/medicaid answers it', async () => {
    const document = (await (await get('/data/state-medicaid?year=2025')).json()) as {
      fiscal_year: number;
      fiscal_quarter: number;
      states: { abbrev: string }[];
    }[];
    assert.ok(document.length >= 1);
    const latest = document.at(-1)!;
    assert.equal(latest.fiscal_year, 2025);
    assert.ok(latest.states.length >= 50, `${latest.states.length} states`);
    for (const abbrev of ['KS', 'TX', 'NY']) {
      const state = latest.states.find((s) => s.abbrev === abbrev);
      assert.deepEqual(state, await api.json(`/states/${abbrev}/medicaid?year=2025`), abbrev);
    }
  });

  test('crosswalk: the PUF into 2026, rows of one mapping grouped with their ZIPs', async () => {
    const document = (await (await get('/data/crosswalk?year=2026')).json()) as Record<string, unknown>;
    assert.deepEqual(document.data, [
      {
        state: 'TX',
        previous_plan_id: '99999TX0010001',
        new_plan_id: '',
        fips: '48201',
        level: 4,
        reason: 8,
        zipcodes: ['77004'],
      },
      {
        state: 'TX',
        previous_plan_id: '99999TX0010001',
        new_plan_id: '99999TX0010007',
        fips: '48201',
        level: 3,
        reason: 2,
        zipcodes: ['77002', '77003'],
      },
    ]);
    assert.deepEqual(
      (document.reasons as { code: number }[]).map((r) => r.code),
      [2, 8],
    );
    const missing = await get('/data/crosswalk?year=2025');
    assert.equal(missing.status, 404);
    assert.match(
      ((await missing.json()) as { error: string }).error,
      /no Plan ID Crosswalk PUF into that year/,
    );
  });

  describe('decile-mapping: only from a file an operator loads', () => {
    test('none loaded → 404 saying so', async () => {
      const response = await get('/data/decile-mapping?year=2026');
      assert.equal(response.status, 404);
      const body = (await response.json()) as { message: string; error: string };
      assert.equal(body.message, 'bulk data not found');
      assert.match(
        body.error,
        /no public source: load the file you hold with `openenroll ingest decile-mapping/,
      );
    });

    test('a complete mapping loads and is served as loaded; an incomplete one is refused, the previous kept', async () => {
      const good = join(dir, 'decile.json');
      writeFileSync(good, JSON.stringify(decileFixture()));
      await api.loadFixture('decile-mapping', good, 2026);
      assert.deepEqual(await (await get('/data/decile-mapping?year=2026')).json(), decileFixture());

      const broken = decileFixture();
      delete broken.high!.femaile!['999'];
      broken.low!.male!['6'] = 'Decile 11';
      const bad = join(dir, 'decile-bad.json');
      writeFileSync(bad, JSON.stringify(broken));
      await assert.rejects(
        ingest(api.running.service.storage, 'decile-mapping', [bad], { year: 2026 }),
        /not a complete decile mapping \(low\.male\.6: "Decile 11" is not "Decile 1"\.\."Decile 10"; high\.female\.999: null/,
      );
      api.running.service.plans.samples.refresh();
      assert.deepEqual(await (await get('/data/decile-mapping?year=2026')).json(), decileFixture());
    });
  });

  describe('stored once per load, served with a strong ETag, gzip and 304', () => {
    test('gzip when accepted (the stored bytes), plain JSON otherwise, the same document', async () => {
      const plain = await get('/data/county-zips?year=2026', { 'accept-encoding': 'identity' });
      assert.equal(plain.headers.get('content-encoding'), null);
      const text = await plain.text();
      assert.equal(Number(plain.headers.get('content-length')), Buffer.byteLength(text));
      // fetch would inflate by itself; node's http shows the bytes as sent.
      const raw = await rawGet(api.running.url, '/api/v1/data/county-zips?year=2026', {
        'accept-encoding': 'gzip',
      });
      assert.equal(raw.headers['content-encoding'], 'gzip');
      assert.equal(Number(raw.headers['content-length']), raw.body.length);
      assert.ok(raw.body.length < Buffer.byteLength(text) / 2);
      assert.equal(gunzipSync(raw.body).toString(), text);
      assert.equal(raw.headers.etag, plain.headers.get('etag'));
      assert.match(plain.headers.get('etag')!, /^"[A-Za-z0-9_-]{43}"$/);
      assert.equal(plain.headers.get('vary'), 'accept-encoding');
    });

    test('If-None-Match with the current tag (or W/ it, or *) → 304 without a body', async () => {
      const first = await get('/data/rate-areas?year=2026');
      const etag = first.headers.get('etag')!;
      await first.arrayBuffer();
      for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const again = await get('/data/rate-areas?year=2026', { 'if-none-match': header });
        assert.equal(again.status, 304, header);
        assert.equal(again.headers.get('etag'), etag);
        assert.equal(await again.text(), '');
      }
      const stale = await get('/data/rate-areas?year=2026', { 'if-none-match': '"other"' });
      assert.equal(stale.status, 200);
      await stale.arrayBuffer();
    });

    test('requests read the stored document; a load of its data builds it again, with a new tag', async () => {
      const db = api.running.service.storage.db;
      const before = await db
        .selectFrom('bulk_documents')
        .select(['etag', 'built_at'])
        .where('name', '=', 'crosswalk')
        .where('year', '=', 2026)
        .executeTakeFirstOrThrow();
      for (let i = 0; i < 3; i++) await (await get('/data/crosswalk?year=2026')).arrayBuffer();
      const same = await db
        .selectFrom('bulk_documents')
        .select(['etag', 'built_at'])
        .where('name', '=', 'crosswalk')
        .where('year', '=', 2026)
        .executeTakeFirstOrThrow();
      assert.deepEqual(same, before);
      await api.loadFixture(
        'crosswalk',
        api.csv('crosswalk-2.csv', [crosswalkRow('77002', '99999TX0010008', '3', '2')]),
      );
      const response = await get('/data/crosswalk?year=2026', { 'if-none-match': before.etag });
      assert.equal(response.status, 200);
      assert.notEqual(response.headers.get('etag'), before.etag);
      const document = (await response.json()) as { data: { new_plan_id: string }[] };
      assert.deepEqual(
        document.data.map((d) => d.new_plan_id),
        ['99999TX0010008'],
      );
    });
  });

  test('every document matches its CMS definition (302 schema of /data/*, objects closed)', async () => {
    type Doc = {
      definitions: Record<string, unknown>;
      paths: Record<string, { get: { responses: Record<string, unknown> } }>;
    };
    const doc = readCmsDocument<Doc>();
    closeObjects(doc.definitions);
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema(doc as unknown as Record<string, unknown>, 'cms');
    for (const name of [
      'apt',
      'decile-mapping',
      'state-medicaid',
      'rate-areas',
      'county-zips',
      'crosswalk',
    ]) {
      const pointer = encodeURIComponent(`/data/${name}`.replace(/\//g, '~1'));
      const validate = ajv.compile({ $ref: `cms#/paths/${pointer}/get/responses/302/schema` });
      const year = name === 'crosswalk' || name === 'decile-mapping' ? 2026 : 2025;
      const body: unknown = await (await get(`/data/${name}?year=${year}`)).json();
      assert.ok(validate(body), `${name}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
    }
  });

  test('openenroll export bulk writes what the service serves, with a manifest', async () => {
    const out = join(dir, 'export');
    const result = await runCli(api.running.database.processUrl, [
      'export',
      'bulk',
      '--out',
      out,
      '--year',
      '2026',
    ]);
    assert.equal(result.code, 0, result.stderr);
    const served = await (await get('/data/county-zips?year=2026')).text();
    assert.equal(readFileSync(join(out, '2026', 'county-zips.json'), 'utf8'), served);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
      path: string;
      etag: string;
    }[];
    const entry = manifest.find((m) => m.path === '2026/county-zips.json')!;
    assert.equal(entry.etag, (await get('/data/county-zips?year=2026')).headers.get('etag'));
    const refused = await runCli(api.running.database.processUrl, [
      'export',
      'bulk',
      '--out',
      out,
      '--year',
      '2020',
    ]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /bulk data is served for 2025 and 2026 only/);
  });
});

describe('bulk data with BULK_DATA_URL: 302 to the uploaded files', () => {
  let running: RunningService | undefined;
  before(async () => {
    running = await startService({ SAMPLE_MARKET: 'false', BULK_DATA_URL: 'https://cdn.example.org/bulk/' });
  });
  after(async () => running?.close());

  test('302 to <url>/<year>/<name>.json inside the window; 400 outside it', async () => {
    const year = new Date().getUTCFullYear();
    const url = `${running!.url}/api/v1/data/county-zips?year=${year}&apikey=${SANDBOX_KEY}`;
    const response = await fetch(url, { redirect: 'manual' });
    assert.equal(response.status, 302);
    assert.equal(response.headers.get('location'), `https://cdn.example.org/bulk/${year}/county-zips.json`);
    const outside = await fetch(url.replace(`year=${year}`, `year=${year - 2}`), { redirect: 'manual' });
    assert.equal(outside.status, 400);
  });
});

/** A GET through node's http client, body as sent (fetch would decode gzip itself). */
async function rawGet(
  base: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const { request } = await import('node:http');
  const url = new URL(path, base);
  url.searchParams.set('apikey', SANDBOX_KEY);
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}
