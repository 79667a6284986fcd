import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IngestError } from '../../../src/ingest/engine/report.js';
import { ingestSuite } from '../../helpers/ingest-suite.js';
import { ingest, sharedData, skipWithoutSharedData } from '../../helpers/shared-data.js';

const CSV = 'geo/ZIP_COUNTY_032023.csv';
const XLSX = 'geo/ZIP_COUNTY_032023.xlsx';

const suite = ingestSuite('zip-county');

const allRows = () =>
  suite.storage.db.selectFrom('geo_zip_counties').selectAll().orderBy('zip').orderBy('fips').execute();
const zipRows = (zip: string) =>
  suite.storage.db
    .selectFrom('geo_zip_counties')
    .selectAll()
    .where('zip', '=', zip)
    .orderBy('fips')
    .execute();

// PostgreSQL `real` is a 4-byte float (about 7 digits); SQLite REAL is a double.
const close = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-6, `${actual} ≈ ${expected}`);

describe('zip-county: the real HUD 2023Q1 crosswalk', { skip: skipWithoutSharedData(CSV, XLSX) }, () => {
  it('loads the CSV with HUD\'s three "99999" (no county) rows left out and nothing rejected', async () => {
    const summary = await ingest(suite.storage, 'zip-county', [sharedData(CSV)]);
    assert.equal(summary.read, 54447);
    assert.equal(summary.stored, 54444);
    assert.equal(summary.rejectedCount, 0);
    assert.deepEqual(
      await suite.storage.db.selectFrom('geo_zip_counties').selectAll().where('fips', '=', '99999').execute(),
      [],
    );
  });

  it('keeps every county of a ZIP that spans three: 02467 Chestnut Hill, MA', async () => {
    const rows = await zipRows('02467');
    assert.deepEqual(
      rows.map((r) => [r.fips, r.state, r.city]),
      [
        ['25017', 'MA', 'CHESTNUT HILL'], // Middlesex
        ['25021', 'MA', 'CHESTNUT HILL'], // Norfolk
        ['25025', 'MA', 'CHESTNUT HILL'], // Suffolk
      ],
    );
    close(rows[0]!.res_ratio, 0.30378096479791394);
    close(rows[1]!.res_ratio, 0.532464146023468);
    close(rows[2]!.res_ratio, 0.163754889178618);
    close(rows[2]!.tot_ratio, 0.16370227710433896);
  });

  it('keeps the ZIP\'s USPS state for a county across the line (20001 DC; 03104 reads "9.43E-4"-style ratios)', async () => {
    const manchester = await zipRows('03104');
    assert.deepEqual(
      manchester.map((r) => r.fips),
      ['33011', '33013', '33015'],
    );
    close(manchester[1]!.res_ratio, 6.633939233116624e-5);
    assert.deepEqual(
      (await zipRows('20001')).map((r) => [r.fips, r.state, r.res_ratio]),
      [['11001', 'DC', 1]],
    );
  });

  it('loads the published .xlsx to exactly the same rows as the CSV', async () => {
    const fromCsv = await allRows();
    const summary = await ingest(suite.storage, 'zip-county', [sharedData(XLSX)]);
    assert.equal(summary.stored, 54444);
    assert.equal(summary.rejectedCount, 0);
    assert.deepEqual(await allRows(), fromCsv);
  });
});

describe('zip-county: malformed files', () => {
  const good = ['ZIP,COUNTY,USPS_ZIP_PREF_CITY,USPS_ZIP_PREF_STATE,RES_RATIO,BUS_RATIO,OTH_RATIO,TOT_RATIO'];
  good.push('99001,53063,SPOKANE,WA,1.0,1.0,1.0,1.0', '02467,25017,CHESTNUT HILL,MA,0.3,0.5,0.2,0.31');

  it('refuses a file without RES_RATIO, naming the column', async () => {
    const file = suite.lines('no-ratio.csv', ['ZIP,COUNTY,TOT_RATIO', '99001,53063,1.0']);
    await assert.rejects(ingest(suite.storage, 'zip-county', [file]), (error: Error) => {
      assert.ok(error instanceof IngestError);
      assert.match(error.message, /missing column "RES_RATIO"/);
      return true;
    });
  });

  it('fails a load with a bad county FIPS, reporting file and line, and leaves the earlier data', async () => {
    await ingest(suite.storage, 'zip-county', [suite.lines('good.csv', good)]);
    const before = await allRows();
    assert.equal(before.length, 2);
    const bad = suite.lines('bad.csv', [
      ...good,
      '99002,530630,SPOKANE,WA,1.0,1.0,1.0,1.0',
      '99003,53063,X,WA,1.5,0,0,1',
      '99004,98063,X,WA,1,1,1,1',
    ]);
    await assert.rejects(ingest(suite.storage, 'zip-county', [bad]), (error: Error) => {
      assert.ok(error instanceof IngestError);
      assert.match(error.message, /3 rows rejected \(allowed: 0\); nothing was stored/);
      assert.deepEqual(error.summary?.rejected, [
        {
          file: bad,
          line: 4,
          reason: 'COUNTY "530630" is not a county FIPS code (state code and three digits)',
        },
        { file: bad, line: 5, reason: 'RES_RATIO "1.5" is not a ratio from 0 to 1' },
        {
          file: bad,
          line: 6,
          reason: 'COUNTY "98063" is not a county FIPS code (state code and three digits)',
        },
      ]);
      return true;
    });
    assert.deepEqual(await allRows(), before);
  });

  it('stores the good rows when rejects are allowed, and a re-run replaces rather than adds', async () => {
    const bad = suite.lines('bad2.csv', [...good, '9900A,53063,SPOKANE,WA,1.0,1.0,1.0,1.0']);
    const summary = await ingest(suite.storage, 'zip-county', [bad], { allowRejects: 1 });
    assert.equal(summary.stored, 2);
    assert.equal(summary.rejected[0]?.reason, 'ZIP "9900A" is not five digits');
    await ingest(suite.storage, 'zip-county', [bad], { allowRejects: 1 });
    assert.equal((await allRows()).length, 2);
  });

  it('reads an older vintage: lower-case names, no city or state, ZIPs that lost their leading zero', async () => {
    const file = suite.lines('zip_county_2012.csv', [
      'zip,county,res_ratio,bus_ratio,oth_ratio,tot_ratio',
      '683,72125,0.94,1,0.97,0.94',
    ]);
    await ingest(suite.storage, 'zip-county', [file], { year: 2012 });
    assert.deepEqual(await allRows(), [
      { zip: '00683', fips: '72125', state: 'PR', city: '', res_ratio: 0.94, tot_ratio: 0.94 },
    ]);
  });
});
