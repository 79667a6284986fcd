import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openTabular } from '../../../src/ingest/sources/tabular.js';
import { xlsxParts, xlsxWorkbook } from '../../helpers/xlsx-fixture.js';
import { ingestSuite } from '../../helpers/ingest-suite.js';
import { ingest } from '../../helpers/shared-data.js';

const suite = ingestSuite('xlsx');

// A HUD ZIP→county workbook whose text is mostly multi-byte UTF-8 (Á, Ñ and é are two bytes each), both
// in the shared strings (the city) and inline in the sheet (the note), so that the inflated parts' chunk
// boundaries fall inside characters many times over.
const HEADER = [
  'ZIP',
  'COUNTY',
  'USPS_ZIP_PREF_CITY',
  'USPS_ZIP_PREF_STATE',
  'RES_RATIO',
  'TOT_RATIO',
  'NOTE',
];
const ROWS = 4000;
const city = (i: number) => `SAN GERMÁN ÑÑÑ é ${i}`;
const note = (i: number) => `${'Ñ'.repeat(i % 7)}SAN GERMÁN ÑÑÑ é — ${i} — ÁÉÍÓÚ`;
const rows = Array.from({ length: ROWS }, (_, i) => [
  String(i + 1).padStart(5, '0'),
  '72125',
  city(i),
  'PR',
  '1',
  '1',
  note(i),
]);
const workbook = () =>
  suite.file('ZIP_COUNTY_utf8.xlsx', xlsxWorkbook([HEADER, ...rows], { inlineColumns: [6] }));

describe('xlsx: multi-byte characters across chunk boundaries', () => {
  it('the fixture is large enough to be read in many chunks (over 64 KiB in each part)', () => {
    const parts = xlsxParts([HEADER, ...rows], { inlineColumns: [6] });
    assert.ok(Buffer.byteLength(parts['xl/sharedStrings.xml']!) > 64 * 1024);
    assert.ok(Buffer.byteLength(parts['xl/worksheets/sheet1.xml']!) > 64 * 1024);
  });

  it('reads every row back exactly, shared and inline strings alike', async () => {
    const source = await openTabular(workbook());
    assert.deepEqual(source.header, HEADER);
    let n = 0;
    for await (const { line, cells } of source.rows) {
      const expected = Object.fromEntries(HEADER.map((name, c) => [name, rows[n]![c]!]));
      assert.deepEqual(cells, expected, `row ${line}`);
      assert.equal(line, n + 2);
      n += 1;
    }
    assert.equal(n, ROWS);
  });

  it('stores the cities exactly through the zip-county ingest', async () => {
    const summary = await ingest(suite.storage, 'zip-county', [workbook()]);
    assert.equal(summary.rejectedCount, 0);
    assert.equal(summary.stored, ROWS);
    const stored = await suite.storage.db
      .selectFrom('geo_zip_counties')
      .select(['zip', 'city'])
      .orderBy('zip')
      .execute();
    assert.deepEqual(
      stored.map((r) => r.city),
      rows.map((_, i) => city(i)),
    );
  });
});
