import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openTabular } from '../../src/ingest/sources/tabular.js';
import { SAMPLE_HEADER } from '../../src/plans/gateway/sample-data.js';
import { SAMPLE_COUNTIES, SAMPLE_ZIP_COUNTIES } from '../../src/plans/sample/geography.js';
import { writeSampleMarket, type SampleFile } from '../../src/plans/sample/files.js';
import { ensureSampleMarket } from '../../src/ingest/sample-market.js';
import { buildSampleMarket, SAMPLE_MARKET_SEED } from '../../src/plans/sample/market.js';
import {
  BENEFITS_COLUMNS,
  PLAN_ATTRIBUTES_COLUMNS,
  SERVICE_AREA_COLUMNS,
} from '../../src/plans/tables/puf-columns.js';
import { OOPC_BENEFIT_NAMES } from '../../src/plans/quote/oopc/services.js';
import { createDatasetStore, isPublicDataset } from '../../src/storage/datasets.js';
import { migrate, type Storage } from '../../src/storage/connect.js';
import { runCli } from '../helpers/cli.js';
import { repoRoot } from '../helpers/processes.js';
import { createTestDatabase, startService, type RunningService } from '../helpers/service.js';
import { ingest, sharedData, skipWithoutSharedData } from '../helpers/shared-data.js';
import { SANDBOX_KEY } from './plan-api.js';

/** The sample is generated for the clock's year. */
const YEAR = new Date().getUTCFullYear();
const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'openenroll-sample-test-'));
  dirs.push(dir);
  return dir;
}
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The kinds of the files the generator writes, in load order. */
const WRITTEN_KINDS = [
  'counties',
  'zip-county',
  'rating-areas',
  'plan-attributes',
  'service-areas',
  'rates',
  'benefits',
  'medicaid',
  'rxnorm',
  'nucc-taxonomy',
  'nppes',
  'mr-puf',
  'opps-addendum-b',
  'asc-addendum-aa',
  'ppl-procedures',
];

async function written(options: { year: number; seed?: number }): Promise<Map<string, string>> {
  const files = await writeSampleMarket(tempDir(), options);
  // RxNorm comes as a directory of RRF files: its RXNCONSO stands for it.
  const text = (path: string) =>
    readFileSync(statSync(path).isDirectory() ? join(path, 'RXNCONSO.RRF') : path, 'utf8');
  return new Map(files.map((f) => [f.kind, text(f.path)]));
}

async function readAll(file: string): Promise<{ header: string[]; rows: Record<string, string>[] }> {
  const source = await openTabular(file);
  const rows: Record<string, string>[] = [];
  for await (const { cells } of source.rows) rows.push(cells);
  return { header: source.header, rows };
}

describe('the generator', () => {
  test('the same year and seed give the same bytes; another seed other plans on the same geography', async () => {
    const first = await written({ year: YEAR, seed: 7 });
    const again = await written({ year: YEAR, seed: 7 });
    assert.deepEqual([...first.keys()], WRITTEN_KINDS);
    for (const [kind, text] of first) assert.equal(again.get(kind), text, kind);

    const other = await written({ year: YEAR, seed: 8 });
    for (const kind of ['counties', 'zip-county', 'rating-areas', 'service-areas']) {
      assert.equal(other.get(kind), first.get(kind), kind);
    }
    assert.notEqual(other.get('plan-attributes'), first.get('plan-attributes'));
    assert.notEqual(other.get('rates'), first.get('rates'));

    const nextYear = await written({ year: YEAR + 1, seed: 7 });
    assert.match(nextYear.get('plan-attributes')!.split('\r\n')[1]!, new RegExp(`^${YEAR + 1},TX,`));
  });

  test('files in the published layouts: Plan Attributes with a BOM and all 151 columns in order', async () => {
    const files = await written({ year: YEAR });
    const planAttributes = files.get('plan-attributes')!;
    assert.ok(planAttributes.startsWith('\ufeffBusinessYear,StateCode,IssuerId,'));
    assert.equal(PLAN_ATTRIBUTES_COLUMNS.length, 151);
    assert.equal(planAttributes.split('\r\n')[0], `\ufeff${PLAN_ATTRIBUTES_COLUMNS.join(',')}`);
    assert.equal(files.get('counties')!.split('\r\n')[0], 'state,statefp,countyfp,countyname,classfp');
    assert.equal(
      files.get('zip-county')!.split('\r\n')[0],
      'ZIP,COUNTY,USPS_ZIP_PREF_CITY,USPS_ZIP_PREF_STATE,RES_RATIO,BUS_RATIO,OTH_RATIO,TOT_RATIO',
    );
    assert.equal(
      files.get('rating-areas')!.split('\r\n')[0],
      'county_fips,state,census_county_name,pe_county_key,rating_area,match',
    );
    assert.equal(files.get('service-areas')!.split('\r\n')[0], SERVICE_AREA_COLUMNS.join(','));
  });

  test('issuers and plans are obviously sample; the market has every metal, type and CSR variant', () => {
    const market = buildSampleMarket(YEAR);
    assert.deepEqual(
      market.issuers.map((i) => i.name),
      [
        'Sample Health Plan A (generated)',
        'Sample Health Plan B (generated)',
        'Sample Health Plan C (generated)',
      ],
    );
    assert.ok(market.plans.length >= 20 && market.plans.length <= 30, `${market.plans.length} plans`);
    for (const plan of market.plans) {
      assert.match(plan.name, /^Sample [ABC] /);
      assert.match(plan.id, /^9999[123]TX\d{7}$/);
    }
    const metals = new Set(market.plans.map((p) => p.spec.metal));
    assert.deepEqual([...metals].sort(), [
      'Bronze',
      'Catastrophic',
      'Expanded Bronze',
      'Gold',
      'Platinum',
      'Silver',
    ]);
    assert.deepEqual([...new Set(market.plans.map((p) => p.spec.type))].sort(), ['EPO', 'HMO', 'PPO']);
    assert.deepEqual([...new Set(market.plans.map((p) => p.spec.design))].sort(), [
      'Design 1',
      'Design 2',
      'Design 3',
      'Not Applicable',
    ]);
    for (const plan of market.plans) {
      const suffixes = plan.variants.map((v) => v.suffix);
      const expected =
        plan.spec.metal === 'Silver'
          ? ['00', '01', '02', '03', '04', '05', '06']
          : plan.spec.metal === 'Catastrophic'
            ? ['00', '01']
            : ['00', '01', '02', '03'];
      assert.deepEqual(suffixes, expected, plan.id);
      // Cost sharing falls as the silver CSR variants rise; MOOP never below the deductible.
      for (const v of plan.variants)
        assert.ok(v.sharing.moop >= v.sharing.deductible, `${plan.id}-${v.suffix}`);
      if (plan.spec.metal === 'Silver') {
        const [, standard, , , csr73, csr87, csr94] = plan.variants.map((v) => v.sharing.moop);
        assert.ok(standard! >= csr73! && csr73! >= csr87! && csr87! >= csr94!, plan.id);
      }
    }
    const hsa = market.plans.filter((p) => p.spec.hsa);
    assert.ok(hsa.length >= 2);
    for (const plan of hsa) {
      assert.match(plan.spec.metal, /Bronze/);
      assert.ok(plan.variants[1]!.sharing.deductible >= 1650 && plan.variants[1]!.sharing.moop <= 8300);
    }
  });

  test('every plan variant has in-network cost sharing for every benefit the out-of-pocket estimate reads', async () => {
    const files = await writeSampleMarket(tempDir(), { year: YEAR });
    const benefitsFile = files.find((f) => f.kind === 'benefits')!;
    const { header, rows } = await readAll(benefitsFile.path);
    assert.deepEqual(header, [...BENEFITS_COLUMNS]);
    const byVariant = new Map<string, Map<string, Record<string, string>>>();
    for (const row of rows) {
      const names = byVariant.get(row.PlanId!) ?? new Map<string, Record<string, string>>();
      names.set(row.BenefitName!, row);
      byVariant.set(row.PlanId!, names);
    }
    const market = buildSampleMarket(YEAR);
    const variants = market.plans.flatMap((p) => p.variants.map((v) => `${p.id}-${v.suffix}`));
    assert.deepEqual([...byVariant.keys()].sort(), variants.sort());
    for (const [variant, names] of byVariant) {
      for (const name of OOPC_BENEFIT_NAMES) {
        const row = names.get(name);
        assert.ok(row, `${variant}: ${name}`);
        if (row.IsCovered === 'Covered') assert.notEqual(row.CopayInnTier1, '', `${variant}: ${name}`);
      }
    }
    // Some of everything the estimate handles: per-stay and per-day inpatient copays, a specialty cap,
    // free visits, copays before the deductible, uncovered adult eye exams.
    const cells = rows.map((r) => `${r.CopayInnTier1} ${r.CoinsInnTier1} ${r.IsCovered}`).join('\n');
    for (const phrase of [/Copay per Stay/, /Copay per Day/, /Coinsurance after deductible/, /Not Covered/])
      assert.match(cells, phrase);
    const planAttributes = (await readAll(files.find((f) => f.kind === 'plan-attributes')!.path)).rows;
    const column = (name: string) => new Set(planAttributes.map((r) => r[name]));
    assert.ok(column('SpecialtyDrugMaximumCoinsurance').size > 1);
    assert.ok(column('InpatientCopaymentMaximumDays').size > 1);
    assert.ok(column('BeginPrimaryCareCostSharingAfterNumberOfVisits').size > 1);
    assert.ok(column('BeginPrimaryCareDeductibleCoinsuranceAfterNumberOfCopays').has('3'));
  });

  test('the generator never reads ../shared: its sources name no outside file', () => {
    const dir = join(repoRoot, 'src/plans/sample');
    for (const file of readdirSync(dir)) {
      const text = readFileSync(join(dir, file), 'utf8');
      assert.doesNotMatch(text, /shared\/data|\.\.\/\.\.\/\.\.\/|readFile|createReadStream/, file);
    }
  });

  test('openenroll sample-market --out writes the same files', async () => {
    const out = join(tempDir(), 'market');
    const database = createTestDatabase();
    const result = await runCli(database.processUrl, [
      'sample-market',
      '--out',
      out,
      '--year',
      '2025',
      '--seed',
      '7',
    ]);
    await database.drop();
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /plan-attributes\s+\d+ rows/);
    const expected = await written({ year: 2025, seed: 7 });
    const files = readdirSync(out).sort();
    // With Texas's published Medicaid limits of 2025, the RxNorm and MR-PUF directories, the price
    // lookup's two addenda and procedure list, and the Benefits and Cost Sharing PUF.
    assert.equal(files.length, 15);
    assert.equal(readFileSync(join(out, 'plan-attributes-puf.csv'), 'utf8'), expected.get('plan-attributes'));
    assert.equal(readFileSync(join(out, 'rate-puf.csv'), 'utf8'), expected.get('rates'));
  });
});

describe('the geography is real (checked against ../shared/data when present)', () => {
  const hud = 'geo/ZIP_COUNTY_032023.csv';
  const policyEngine = 'premiums/policyengine_derived/county_rating_area_2025_policyengine.csv';
  const census = 'geo/census_2010_national_county_fips.csv';
  const puf = 'marketplace_puf/2025/plan-attributes-puf.zip';
  const serviceAreas = 'marketplace_puf/2025/service-area-puf.csv';
  const fipsSet = new Set(SAMPLE_COUNTIES.map((c) => c.fips));

  test(
    'ZIPs: every HUD 2023Q1 row of the three counties, verbatim',
    { skip: skipWithoutSharedData(hud) },
    async () => {
      const { rows } = await readAll(sharedData(hud));
      const real = rows
        .filter((r) => fipsSet.has(r.COUNTY!))
        .map((r) => [
          r.ZIP,
          r.COUNTY,
          r.USPS_ZIP_PREF_CITY,
          Number(r.RES_RATIO),
          Number(r.BUS_RATIO),
          Number(r.OTH_RATIO),
          Number(r.TOT_RATIO),
        ]);
      const sort = (a: unknown[], b: unknown[]) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`);
      assert.deepEqual(SAMPLE_ZIP_COUNTIES.map((z) => [...z]).sort(sort), real.sort(sort));
      for (const row of rows.filter((r) => fipsSet.has(r.COUNTY!)))
        assert.equal(row.USPS_ZIP_PREF_STATE, 'TX');
      const counties = new Map<string, Set<string>>();
      for (const [zip, fips] of SAMPLE_ZIP_COUNTIES)
        counties.set(zip, (counties.get(zip) ?? new Set()).add(fips));
      assert.ok(
        [...counties.values()].some((set) => set.size >= 2),
        'a ZIP spans two sample counties',
      );
    },
  );

  test('county names and rating areas', { skip: skipWithoutSharedData(policyEngine, census) }, async () => {
    const areas = (await readAll(sharedData(policyEngine))).rows.filter((r) => fipsSet.has(r.county_fips!));
    const names = (await readAll(sharedData(census))).rows.filter((r) =>
      fipsSet.has(`${r.statefp}${r.countyfp}`),
    );
    for (const county of SAMPLE_COUNTIES) {
      const area = areas.find((r) => r.county_fips === county.fips)!;
      assert.equal(Number(area.rating_area), county.ratingArea, county.fips);
      assert.equal(area.census_county_name, county.name);
      const name = names.find((r) => `${r.statefp}${r.countyfp}` === county.fips)!;
      assert.equal(name.countyname, county.name);
      assert.equal(name.classfp, county.classfp);
    }
  });

  test(
    'the Plan Attributes header is the real PY2025 one; no real issuer uses the sample issuer ids',
    { skip: skipWithoutSharedData(puf, serviceAreas) },
    async () => {
      const source = await openTabular(sharedData(puf));
      assert.deepEqual(source.header, [...PLAN_ATTRIBUTES_COLUMNS]);
      const realIssuers = new Set<string>();
      for await (const { cells } of source.rows) realIssuers.add(cells.IssuerId!);
      assert.ok(realIssuers.size > 300);
      for (const issuer of buildSampleMarket(YEAR).issuers)
        assert.ok(!realIssuers.has(issuer.spec.id), issuer.spec.id);
      assert.deepEqual((await openTabular(sharedData(serviceAreas))).header, [...SERVICE_AREA_COLUMNS]);
    },
  );
});

describe('loading the sample market', () => {
  let running: RunningService;
  let storage: Storage;
  let summaries: Awaited<ReturnType<typeof ensureSampleMarket>>;

  before(async () => {
    running = await startService({ SAMPLE_MARKET: 'false' });
    storage = running.service.storage;
    summaries = await ensureSampleMarket(storage, running.clock.now());
    running.service.plans.samples.refresh();
  });
  after(() => running.close());

  async function versions() {
    const response = await fetch(`${running.url}/api/v1/versions?apikey=${SANDBOX_KEY}`);
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as Record<string, unknown>[],
    };
  }

  test('every generated file loads through the ingest formats with zero rejects', () => {
    assert.ok(summaries);
    assert.equal(summaries.year, new Date(running.clock.now()).getUTCFullYear());
    assert.deepEqual(
      summaries.summaries.map((s) => s.kind),
      // The bundled ZIP points (real data) come last.
      [...WRITTEN_KINDS, 'zip-locations'],
    );
    for (const s of summaries.summaries) {
      assert.equal(s.rejectedCount, 0, `${s.kind}: ${JSON.stringify(s.rejected)}`);
      assert.ok(s.read > 0 && s.stored >= s.read, s.kind);
    }
  });

  test('the rates follow the federal default age curve; tobacco loads are 1.2 to 1.5', async () => {
    const rows = await storage.db
      .selectFrom('plan_rates')
      .select(['plan_id', 'rating_area', 'age', 'tobacco', 'individual_rate', 'tobacco_rate'])
      .where('year', '=', summaries!.year)
      .execute();
    const market = buildSampleMarket(summaries!.year, SAMPLE_MARKET_SEED);
    assert.equal(rows.length, market.plans.reduce((n, p) => n + p.rate21.size, 0) * 51);
    const at = new Map(rows.map((r) => [`${r.plan_id}|${r.rating_area}|${r.age}`, r]));
    // 45 CFR 147.102; CMS default age curve (docs/decisions.md#age-rating), written out here independently.
    const curve: [string, number][] = [
      ['0-14', 0.765],
      ['15', 0.833],
      ['20', 0.97],
      ['30', 1.135],
      ['40', 1.278],
      ['50', 1.786],
      ['60', 2.714],
      ['63', 2.952],
      ['64 and over', 3],
    ];
    for (const plan of market.plans) {
      for (const area of plan.rate21.keys()) {
        const base = Number(at.get(`${plan.id}|${area}|21`)!.individual_rate);
        for (const age of ['22', '23', '24'])
          assert.equal(Number(at.get(`${plan.id}|${area}|${age}`)!.individual_rate), base);
        for (const [age, factor] of curve) {
          const rate = Number(at.get(`${plan.id}|${area}|${age}`)!.individual_rate);
          assert.ok(
            Math.abs(rate - base * factor) <= 0.5,
            `${plan.id} area ${area} age ${age}: ${rate} vs ${base}×${factor}`,
          );
        }
        const row = at.get(`${plan.id}|${area}|40`)!;
        if (plan.issuer.tobaccoFactor === null) {
          assert.equal(row.tobacco, 'No Preference');
          assert.equal(row.tobacco_rate, null);
        } else {
          assert.equal(row.tobacco, 'Tobacco User/Non-Tobacco User');
          const load = Number(row.tobacco_rate) / Number(row.individual_rate);
          assert.ok(load >= 1.199 && load <= 1.501, `tobacco load ${load}`);
        }
      }
    }
    assert.ok(
      market.issuers.some((i) => i.tobaccoFactor !== null) &&
        market.issuers.some((i) => i.tobaccoFactor === null),
    );
    // Two rating areas, so a plan's premium differs between Hays (3) and Comal/Guadalupe (18).
    assert.deepEqual(
      [...new Set(rows.map((r) => Number(r.rating_area)))].sort((a, b) => a - b),
      [3, 18],
    );
  });

  test('/versions lists every generated dataset as sample, and its answer carries the sample header', async () => {
    const answer = await versions();
    assert.equal(answer.status, 200);
    const kinds = answer.body.map((d) => d.kind).sort();
    assert.deepEqual(kinds, [
      'asc-addendum-aa',
      'benefits',
      'counties',
      'medicaid',
      'mr-puf',
      'nppes',
      'nucc-taxonomy',
      'opps-addendum-b',
      'plan-attributes',
      'ppl-procedures',
      'rates',
      'rating-areas',
      'rxnorm',
      'service-areas',
      'zip-county',
      'zip-locations',
    ]);
    for (const dataset of answer.body) {
      // The ZIP points are real (the Census 2021 Gazetteer, bundled), not sample.
      const real = dataset.kind === 'zip-locations';
      assert.equal(dataset.sample, !real, String(dataset.kind));
      if (!real) assert.match(String(dataset.name), /\(sample\)$/);
    }
    assert.match(answer.headers.get(SAMPLE_HEADER) ?? '', /sample/);
  });

  test('a second start loads nothing more', async () => {
    const before = await createDatasetStore(storage.db).listDatasets();
    assert.equal(await ensureSampleMarket(storage, running.clock.now()), undefined);
    assert.deepEqual(await createDatasetStore(storage.db).listDatasets(), before);
  });
});

describe('two instances starting at once', () => {
  test('load the sample market once', async () => {
    const database = createTestDatabase();
    const first = await database.open();
    await migrate(first);
    const second = await database.open();
    try {
      const now = Date.now();
      const results = await Promise.all([ensureSampleMarket(first, now), ensureSampleMarket(second, now)]);
      assert.equal(results.filter((r) => r !== undefined).length, 1, 'exactly one instance loads');
      const datasets = await createDatasetStore(first.db).listDatasets();
      assert.equal(datasets.length, 16);
      const plans = await first.db
        .selectFrom('plans')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(plans.n), buildSampleMarket(new Date(now).getUTCFullYear()).plans.length);
    } finally {
      await first.close();
      await second.close();
      await database.drop();
    }
  });
});

describe('real data is never labelled', () => {
  let running: RunningService;
  let files: SampleFile[];

  before(async () => {
    running = await startService({ SAMPLE_MARKET: 'false' });
    files = await writeSampleMarket(tempDir(), { year: YEAR });
  });
  after(() => running.close());

  test('geography loaded from real files is kept: the sample brings only what is missing', async () => {
    const storage = running.service.storage;
    const counties = files.find((f) => f.kind === 'counties')!;
    await ingest(storage, 'counties', [counties.path]);
    const loaded = await ensureSampleMarket(storage, running.clock.now());
    assert.ok(loaded);
    assert.ok(!loaded.summaries.some((s) => s.kind === 'counties'));
    const datasets = await createDatasetStore(storage.db).listDatasets();
    assert.equal(datasets.find((d) => d.kind === 'counties')?.sample, false);
    assert.equal(datasets.find((d) => d.kind === 'plan-attributes')?.sample, true);
  });

  test('after a real ingest of plans (SAMPLE_MARKET=false), answers carry no sample label', async () => {
    const storage = running.service.storage;
    for (const file of files)
      await ingest(storage, file.kind, [file.path], {
        year: file.kind === 'rating-areas' ? YEAR : undefined,
      });
    running.service.plans.samples.refresh();
    const all = await createDatasetStore(storage.db).listDatasets();
    // Each ingest replaced its kind's dataset: no plan or price data is sample any more. The sandbox's
    // synthetic claims stay sample, and are no plan data (the plan API does not list them).
    const datasets = all.filter(isPublicDataset);
    assert.ok(
      datasets.every((d) => !d.sample),
      JSON.stringify(datasets),
    );
    assert.deepEqual(
      all.filter((d) => !isPublicDataset(d)).map((d) => [d.kind, d.sample]),
      [['rif', true]],
    );
    const response = await fetch(`${running.url}/api/v1/versions?apikey=${SANDBOX_KEY}`);
    const body = (await response.json()) as { name: string; sample: boolean }[];
    assert.equal(response.status, 200);
    assert.equal(response.headers.get(SAMPLE_HEADER), null);
    assert.ok(body.length > 0 && body.every((d) => !d.sample && !d.name.includes('(sample)')));
  });
});
