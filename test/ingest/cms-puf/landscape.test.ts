import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { IngestError } from '../../../src/ingest/engine/report.js';
import type { CostLimit, PlanDetail, VariantDetail } from '../../../src/plans/store/plan-detail.js';
import { ingestSuite } from '../../helpers/ingest-suite.js';
import { ingest, sharedData, sharedDataDir, skipWithoutSharedData } from '../../helpers/shared-data.js';

const LANDSCAPE = 'premiums/qhp_landscape_2014_2017';
const CENSUS = 'geo/census_2010_national_county_fips.csv';
const CHANGES = 'geo/county_fips_changes_since_2010.csv';

const suite = ingestSuite('landscape');

const landscapeFile = (name: string) => sharedData(`${LANDSCAPE}/${name}`);

async function countyRows(year: number, planId: string) {
  const rows = await suite.storage.db
    .selectFrom('plan_counties')
    .selectAll()
    .where('year', '=', year)
    .where('plan_id', '=', planId)
    .orderBy('fips')
    .execute();
  return rows.map((r) => ({
    fips: r.fips,
    area: Number(r.rating_area),
    premiums: JSON.parse(r.premiums) as Record<string, number>,
  }));
}

const plan = (year: number, planId: string) =>
  suite.storage.db
    .selectFrom('plans')
    .selectAll()
    .where('year', '=', year)
    .where('plan_id', '=', planId)
    .executeTakeFirst();

const realFiles = skipWithoutSharedData(LANDSCAPE, CENSUS, CHANGES);

describe('landscape: the ten real CMS QHP Landscape files (2014–2017)', { skip: realFiles }, () => {
  const files = realFiles ? [] : readdirSync(join(sharedDataDir, LANDSCAPE)).sort();

  it('stops with a clear message when the county list was not loaded first', async () => {
    await assert.rejects(
      ingest(suite.storage, 'landscape', [landscapeFile(files[0]!)]),
      /ingest counties first/,
    );
    assert.equal(await suite.count('plans', 2014), 0);
  });

  it('loads all ten files in one load with no rejects, counties split between rating areas included', async (t) => {
    await ingest(suite.storage, 'counties', [sharedData(CENSUS), sharedData(CHANGES)]);
    const started = performance.now();
    const summary = await ingest(
      suite.storage,
      'landscape',
      files.map((f) => landscapeFile(f)),
    );
    t.diagnostic(`ten landscape files: ${Math.round(performance.now() - started)} ms`);
    assert.equal(files.length, 10);
    assert.equal(summary.read, 12548);
    assert.deepEqual(summary.years, [2014, 2015, 2016, 2017]);
    assert.equal(summary.rejectedCount, 0);
    // Idaho rated by 3-digit ZIP in 2017: Custer County (16037) is in areas 1 and 2, one row per area.
    const custer = await suite.storage.db
      .selectFrom('plan_counties')
      .select('rating_area')
      .where('year', '=', 2017)
      .where('plan_id', '=', '26002ID0010005')
      .where('fips', '=', '16037')
      .orderBy('rating_area')
      .execute();
    assert.deepEqual(
      custer.map((r) => r.rating_area),
      [1, 2],
    );
  });

  it("has each file's plans, one row per plan, and one county row per plan and county", async () => {
    const perState = await suite.storage.db
      .selectFrom('plans')
      .select(['year', 'state'])
      .select((eb) => eb.fn.countAll().as('n'))
      .groupBy(['year', 'state'])
      .orderBy('year')
      .orderBy('state')
      .execute();
    assert.deepEqual(
      perState.map((r) => `${r.year} ${r.state} ${Number(r.n)}`),
      [
        '2014 ID 61',
        '2014 NM 45',
        '2015 NM 88',
        '2015 NV 70',
        '2015 OR 140',
        '2016 HI 21',
        '2016 NM 34',
        '2016 NV 65',
        '2016 OR 111',
        '2017 ID 93',
      ],
    );
    assert.equal(await suite.count('plan_counties', 2014), 1352 + 1282);
    assert.equal(await suite.count('plan_counties', 2017), 1646);
  });

  it('re-loading one state of a year replaces that state only (the files are published one per state)', async () => {
    // Per state: plans, issuers, variants and county rows of 2016 (the plan id carries the state).
    const snapshot = async () => {
      const byState = async (table: 'plans' | 'issuers' | 'plan_variants' | 'plan_counties') => {
        const column = table === 'plan_variants' ? 'variant_id' : table === 'issuers' ? 'state' : 'plan_id';
        const rows = await suite.storage.db
          .selectFrom(table)
          .select(column)
          .where('year', '=', 2016)
          .execute();
        const counts: Record<string, number> = {};
        for (const row of rows as Record<string, string>[]) {
          const value = row[column]!;
          const state = value.length === 2 ? value : value.slice(5, 7);
          counts[state] = (counts[state] ?? 0) + 1;
        }
        return counts;
      };
      return {
        plans: await byState('plans'),
        issuers: await byState('issuers'),
        variants: await byState('plan_variants'),
        counties: await byState('plan_counties'),
      };
    };
    const all = await snapshot();
    assert.deepEqual(all.plans, { HI: 21, NM: 34, NV: 65, OR: 111 });
    const others = (s: Awaited<ReturnType<typeof snapshot>>) =>
      Object.fromEntries(
        Object.entries(s).map(([k, v]) => [k, Object.entries(v).filter(([state]) => state !== 'HI')]),
      );

    // Hawaii alone, cut to its first four rows (four plans in Hawaii County): Hawaii shrinks to them,
    // New Mexico, Nevada and Oregon keep every row.
    const hawaii = landscapeFile('2016_QHP_Landscape_HI_Individual_Market_Medical.csv');
    const lines = readFileSync(hawaii, 'utf8').split(/\r?\n/);
    const firstRows = suite.lines('2016_QHP_Landscape_HI_first_rows.csv', lines.slice(0, 5));
    const cut = await ingest(suite.storage, 'landscape', [firstRows]);
    assert.deepEqual([cut.years, cut.rejectedCount], [[2016], 0]);
    const partial = await snapshot();
    assert.deepEqual(others(partial), others(all));
    assert.deepEqual([partial.plans.HI, partial.counties.HI], [4, 4]);

    // The whole Hawaii file again: Hawaii is back exactly as it was, once (no duplicates), the rest kept.
    await ingest(suite.storage, 'landscape', [hawaii]);
    assert.deepEqual(await snapshot(), all);
    assert.equal(await suite.count('plans', 2015), 88 + 70 + 140);
    const dataset = await suite.storage.db
      .selectFrom('plan_datasets')
      .select('source')
      .where('kind', '=', 'landscape')
      .where('year', '=', 2016)
      .executeTakeFirstOrThrow();
    assert.match(dataset.source, /2016_QHP_Landscape_NM_Individual_Market_Medical\.csv/);
    assert.match(dataset.source, /2016_QHP_Landscape_HI_Individual_Market_Medical\.csv/);
  });

  it('2014 Idaho: SelectHealth Preference Gold 250 in "ADA" county (no FIPS in 2014) → 16001, area 6', async () => {
    const row = await plan(2014, '26002ID0010001');
    assert.ok(row);
    assert.equal(row.name, 'SelectHealth Preference Gold 250');
    assert.equal(row.metal_level, 'Gold');
    assert.equal(row.plan_type, 'POS');
    assert.equal(row.issuer_id, '26002');
    assert.equal(row.market, 'Individual');
    assert.equal(row.source, 'landscape');
    assert.equal(row.ehb_pct, null); // 2014 does not publish it
    const detail = JSON.parse(row.detail) as PlanDetail;
    assert.equal(detail.issuer_name, 'SelectHealth');
    assert.equal(detail.benefits_url, 'http://selecthealth.org/sbc');
    assert.equal(detail.brochure_url, 'http://reform.selecthealth.org/product-detail/?id=26002ID0010001-00');
    const issuer = await suite.storage.db
      .selectFrom('issuers')
      .selectAll()
      .where('year', '=', 2014)
      .where('issuer_id', '=', '26002')
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      [issuer.name, issuer.state, issuer.toll_free, issuer.tty],
      ['SelectHealth', 'ID', '1-800-538-5038', null],
    );

    const ada = (await countyRows(2014, '26002ID0010001')).find((c) => c.fips === '16001');
    assert.ok(ada, 'ADA resolved to Ada County, 16001');
    assert.equal(ada.area, 6);
    assert.equal(ada.premiums.child, 13476);
    assert.equal(ada.premiums.adult_21, 21222);
    assert.equal(ada.premiums.adult_60, 57597);
    assert.equal(ada.premiums.couple_60, 115194);
    assert.equal(ada.premiums.individual_3_children_50, 78330);
    assert.equal(Object.keys(ada.premiums).length, 1 + 6 + 5 + 6 * 4);
    // "BEAR LAKE" → Bear Lake County.
    assert.ok((await countyRows(2014, '26002ID0010001')).some((c) => c.fips === '16007'));
  });

  it('2014 Idaho: a plan with no drug deductible amount keeps the published text', async () => {
    const variant = await suite.storage.db
      .selectFrom('plan_variants')
      .selectAll()
      .where('year', '=', 2014)
      .where('variant_id', '=', '26002ID0010001-01')
      .executeTakeFirstOrThrow();
    const detail = JSON.parse(variant.detail) as VariantDetail;
    assert.equal(variant.csr_type, 'Exchange variant (no CSR)');
    const find = (list: CostLimit[], type: string, family: string) =>
      list.find((d) => d.type === type && d.family_cost === family);
    assert.deepEqual(find(detail.deductibles, 'Medical EHB Deductible', 'Individual'), {
      type: 'Medical EHB Deductible',
      amount: 250,
      csr: 'Exchange variant (no CSR)',
      network_tier: 'In-Network',
      family_cost: 'Individual',
      individual: true,
      family: false,
      display_string: '$250',
    });
    assert.equal(
      find(detail.deductibles, 'Drug EHB Deductible', 'Family')?.display_string,
      'See Plan Brochure',
    );
    assert.equal(find(detail.deductibles, 'Drug EHB Deductible', 'Family')?.amount, null);
    const moop = find(detail.moops, 'Maximum Out of Pocket for Medical EHB Benefits', 'Family');
    assert.deepEqual([moop?.amount, moop?.display_string], [10000, '$10,000']);
    assert.equal(
      find(detail.moops, 'Maximum Out of Pocket for Drug EHB Benefits', 'Individual')?.display_string,
      'Included in Medical',
    );
  });

  it('2016 Hawaii: HMSA Platinum with "97.4%" EHB, Honolulu in area 1 with its premiums', async () => {
    const row = await plan(2016, '18350HI0880001');
    assert.ok(row);
    assert.equal(row.metal_level, 'Platinum');
    assert.equal(row.ehb_pct, 0.974);
    assert.deepEqual(
      (await countyRows(2016, '18350HI0880001')).map((c) => [
        c.fips,
        c.area,
        c.premiums.child,
        c.premiums.adult_21,
        c.premiums.adult_60,
      ]),
      [
        ['15001', 1, 21681, 34143, 92665], // Hawaii
        ['15003', 1, 21681, 34143, 92665], // Honolulu
        ['15007', 1, 21681, 34143, 92665], // Kauai
        ['15009', 1, 21681, 34143, 92665], // Maui
      ],
    );
  });

  it('2016 Oregon: a silver plan has the 73/87/94 % CSR variants with their own deductibles', async () => {
    const variants = await suite.storage.db
      .selectFrom('plan_variants')
      .selectAll()
      .where('year', '=', 2016)
      .where('plan_id', '=', '10091OR0360005')
      .orderBy('variant_id')
      .execute();
    assert.deepEqual(
      variants.map((v) => [v.variant_id, v.csr_type]),
      [
        ['10091OR0360005-01', 'Exchange variant (no CSR)'],
        ['10091OR0360005-04', '73% AV Level Silver Plan CSR'],
        ['10091OR0360005-05', '87% AV Level Silver Plan CSR'],
        ['10091OR0360005-06', '94% AV Level Silver Plan CSR'],
      ],
    );
    const individual = (v: (typeof variants)[number], limit: 'deductibles' | 'moops') =>
      (JSON.parse(v.detail) as VariantDetail)[limit].find((d) => d.family_cost === 'Individual')?.amount;
    assert.equal(individual(variants[0]!, 'deductibles'), 2500);
    assert.equal(individual(variants[3]!, 'deductibles'), 100);
    assert.equal(individual(variants[3]!, 'moops'), 750);
  });

  it('2017 Idaho: FIPS column, bare-number premiums and EHB "1"; a split county has a row per area', async () => {
    assert.equal((await plan(2017, '26002ID0010005'))?.ehb_pct, 1);
    const rows = await countyRows(2017, '26002ID0010005');
    const bannock = rows.find((c) => c.fips === '16005');
    assert.deepEqual(
      [bannock?.area, bannock?.premiums.child, bannock?.premiums.adult_21, bannock?.premiums.adult_60],
      [1, 19076, 30041, 81531],
    );
    // Custer County is listed in areas 1 and 2, with the premiums of each area (2: adult 21 $289.07).
    const custer = rows.filter((c) => c.fips === '16037').sort((a, b) => a.area - b.area);
    assert.deepEqual(
      custer.map((c) => [c.area, c.premiums.adult_21]),
      [
        [1, 30041],
        [2, 28907],
      ],
    );
  });

  it('a plan the Plan Attributes PUF already has for the year keeps the PUF row; its counties still load', async () => {
    await suite.storage.db
      .deleteFrom('plans')
      .where('year', '=', 2016)
      .where('plan_id', '=', '18350HI0880001')
      .execute();
    await suite.storage.db
      .deleteFrom('issuers')
      .where('year', '=', 2016)
      .where('issuer_id', '=', '18350')
      .execute();
    const puf = (await plan(2016, '18350HI0880007'))!;
    await suite.storage.db
      .insertInto('plans')
      .values({ ...puf, plan_id: '18350HI0880001', source: 'plan-attributes', name: 'from the PUF' })
      .execute();
    await suite.storage.db
      .insertInto('issuers')
      .values({ year: 2016, issuer_id: '18350', state: 'HI', name: 'HMSA (PUF)', source: 'plan-attributes' })
      .execute();
    const hawaii = landscapeFile('2016_QHP_Landscape_HI_Individual_Market_Medical.csv');
    const summary = await ingest(suite.storage, 'landscape', [hawaii]);
    assert.equal(summary.rejectedCount, 0);
    assert.equal((await plan(2016, '18350HI0880001'))?.name, 'from the PUF');
    assert.equal((await countyRows(2016, '18350HI0880001')).length, 4);
    const issuer = await suite.storage.db
      .selectFrom('issuers')
      .select(['name', 'source'])
      .where('year', '=', 2016)
      .where('issuer_id', '=', '18350')
      .executeTakeFirst();
    assert.deepEqual(issuer, { name: 'HMSA (PUF)', source: 'plan-attributes' });

    // The load replaced Hawaii 2016 and kept New Mexico, Nevada and Oregon (21 + 34 + 65 + 111 plans, the
    // PUF's among them); a second run changes nothing.
    const counts = async () => [
      await suite.count('plans', 2016),
      await suite.count('plan_counties', 2016),
      await suite.count('plan_variants', 2016),
    ];
    const first = await counts();
    assert.equal(first[0], 21 + 34 + 65 + 111);
    await ingest(suite.storage, 'landscape', [hawaii]);
    assert.deepEqual(await counts(), first);
  });
});

describe('landscape: malformed files', () => {
  const counties = [
    'state,statefp,countyfp,countyname,classfp',
    'NM,35,001,Bernalillo County,H1',
    'NM,35,013,Dona Ana County,H1',
    'MD,24,005,Baltimore County,H1',
    'MD,24,510,Baltimore city,C7',
    'AK,02,110,Juneau City and Borough,H6',
    'LA,22,059,La Salle Parish,H1',
  ];
  const header =
    'State Code,County Name,Metal Level,Issuer Name,Plan ID (Standard Component),Plan Marketing Name,Plan Type,' +
    'Rating Area,Premium Child,Premium Adult Individual Age 21,"Medical Deductible - Individual - Standard",' +
    'Drug Deductible - Individual - Standard';
  const row = (state: string, county: string, planId: string, area = 'Rating Area 1') =>
    `${state},${county},Silver,Issuer A,${planId},Plan A,HMO,${area},$100.00,"$1,200.50","$5,500",Included in Medical`;
  const good = [
    header,
    row('NM', 'BERNALILLO', '12345NM0010001'),
    row('NM', 'Doña Ana', '12345NM0010001', 'Rating Area 3'),
  ];

  before(async () => {
    await ingest(suite.storage, 'counties', [suite.lines('counties.csv', counties)]);
  });

  it('refuses a file without Plan Type, naming the column', async () => {
    const file = suite.lines('2040_no_type.csv', [
      header.replace('Plan Type,', 'Kind,'),
      row('NM', 'Bernalillo', '12345NM0010001'),
    ]);
    await assert.rejects(ingest(suite.storage, 'landscape', [file]), /missing column "plan type"/);
  });

  it('needs a year from --year or the file name', async () => {
    await assert.rejects(
      ingest(suite.storage, 'landscape', [suite.lines('landscape.csv', good)]),
      /give --year/,
    );
  });

  it('resolves county names in their spellings: endings, case, accents, cities', async () => {
    const file = suite.lines('2040_QHP_Landscape_names.csv', [
      ...good,
      row('MD', 'Baltimore', '22222MD0010001'),
      row('MD', 'Baltimore City', '22222MD0010001'),
      row('AK', 'Juneau', '33333AK0010001'),
      row('LA', 'LaSalle', '44444LA0010001'),
    ]);
    const summary = await ingest(suite.storage, 'landscape', [file]);
    assert.equal(summary.rejectedCount, 0);
    const fips = await suite.storage.db
      .selectFrom('plan_counties')
      .select(['fips', 'rating_area', 'premiums'])
      .where('year', '=', 2040)
      .orderBy('fips')
      .execute();
    assert.deepEqual(
      fips.map((r) => r.fips),
      ['02110', '22059', '24005', '24510', '35001', '35013'],
    );
    assert.equal(fips[5]?.rating_area, 3);
    assert.deepEqual(JSON.parse(fips[0]!.premiums), { child: 10000, adult_21: 120050 });
    const variant = await suite.storage.db
      .selectFrom('plan_variants')
      .select('detail')
      .where('variant_id', '=', '12345NM0010001-01')
      .executeTakeFirstOrThrow();
    const [medical, drug] = (JSON.parse(variant.detail) as VariantDetail).deductibles;
    assert.deepEqual([medical?.amount, medical?.display_string], [5500, '$5,500']);
    assert.deepEqual([drug?.amount, drug?.display_string], [null, 'Included in Medical']);
  });

  it('fails on an unknown county or a bad FIPS with file and line, leaving the earlier data', async () => {
    const before = await suite.count('plan_counties', 2040);
    const bad = suite.lines('2040_QHP_Landscape_bad.csv', [
      ...good,
      row('NM', 'Atlantis', '12345NM0010001'),
      row('NM', 'Bernalillo', '12345NM001000X'),
      row('NM', 'Bernalillo', '12345NM0010002', 'Area Six'),
      row('NM', 'Bernalillo', '12345NV0010002'),
    ]);
    await assert.rejects(ingest(suite.storage, 'landscape', [bad]), (error: Error) => {
      assert.ok(error instanceof IngestError);
      assert.deepEqual(
        error.summary?.rejected.map((r) => [r.file, r.line, r.reason]),
        [
          [bad, 4, 'county "Atlantis" is not a county of NM (geo_counties)'],
          [bad, 5, 'Plan ID "12345NM001000X" is not a 14-character HIOS plan id'],
          [bad, 6, 'Rating Area "Area Six" is not a rating area'],
          [bad, 7, 'Plan ID 12345NV0010002 is not a plan of NM'],
        ],
      );
      return true;
    });
    assert.equal(await suite.count('plan_counties', 2040), before);

    const withFips = suite.lines('2041_QHP_Landscape_fips.csv', [
      'state_code,fips_county_code,county_name,metal_level,issuer_name,hios_issuer_id,plan_id_standard_component,plan_marketing_name,plan_type,rating_area,premium_adult_individual_age_21',
      'NM,35001,Bernalillo County,Gold,Issuer B,55555,55555NM0010001,Plan B,PPO,1,250.5',
      'NM,35999,Nowhere County,Gold,Issuer B,55555,55555NM0010001,Plan B,PPO,1,250.5',
      'NM,35013,Dona Ana County,Gold,Issuer B,55556,55555NM0010001,Plan B,PPO,3,250.5',
    ]);
    await assert.rejects(ingest(suite.storage, 'landscape', [withFips]), (error: Error) => {
      assert.ok(error instanceof IngestError);
      assert.deepEqual(
        error.summary?.rejected.map((r) => [r.line, r.reason]),
        [
          [3, 'FIPS County Code "35999" is not a county of NM'],
          [4, 'HIOS Issuer ID 55556 is not the issuer of plan 55555NM0010001'],
        ],
      );
      return true;
    });
  });

  it('stores the good rows when rejects are allowed, and a re-run replaces rather than duplicates', async () => {
    const bad = suite.lines('2042_QHP_Landscape_some_bad.csv', [
      ...good,
      row('NM', 'Atlantis', '12345NM0010001'),
    ]);
    for (let run = 0; run < 2; run++) {
      const summary = await ingest(suite.storage, 'landscape', [bad], { allowRejects: 1 });
      assert.equal(summary.rejectedCount, 1);
      assert.equal(await suite.count('plan_counties', 2042), 2);
      assert.equal(await suite.count('plans', 2042), 1);
      assert.equal(await suite.count('issuers', 2042), 1);
      assert.equal(await suite.count('plan_variants', 2042), 1);
    }
  });
});
