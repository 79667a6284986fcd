import assert from 'node:assert/strict';
import { chmodSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { before, describe, it } from 'node:test';
import { fileErrorMessage } from '../../../src/ingest/engine/run.js';
import { failedIngest, ingestSuite } from '../../helpers/ingest-suite.js';
import { ingest } from '../../helpers/shared-data.js';
import { xlsxWorkbook } from '../../helpers/xlsx-fixture.js';
import { zipArchive } from '../../helpers/zip-writer.js';

// Files that cannot be read as data fail the load with a message that names them and says nothing was
// stored, and the data of the previous load stays exactly as it was.

const suite = ingestSuite('unreadable-files');

const COUNTY_HEADER = ['state', 'statefp', 'countyfp', 'countyname', 'classfp'];
const ZIP_HEADER = ['ZIP', 'COUNTY', 'USPS_ZIP_PREF_CITY', 'USPS_ZIP_PREF_STATE', 'RES_RATIO', 'TOT_RATIO'];

/** A HUD ZIP→county workbook of `n` rows (ZIPs 00001…), big enough to be read in many chunks. */
const zipCountyRows = (n: number) =>
  Array.from({ length: n }, (_, i) => [
    String(i + 1).padStart(5, '0'),
    '72125',
    `SAN GERMÁN ${i}`,
    'PR',
    String((i % 100) / 100),
    '1',
  ]);

interface Snapshot {
  counties: number;
  zips: number;
  loadedAt: Record<string, number>;
}

async function snapshot(): Promise<Snapshot> {
  const datasets = await suite.storage.db.selectFrom('plan_datasets').select(['kind', 'loaded_at']).execute();
  return {
    counties: await suite.count('geo_counties'),
    zips: await suite.count('geo_zip_counties'),
    loadedAt: Object.fromEntries(datasets.map((d) => [d.kind, Number(d.loaded_at)])),
  };
}

describe('unreadable files leave the previous data intact', () => {
  let previous: Snapshot;
  before(async () => {
    const counties = suite.csv(
      'national_county.csv',
      [
        { state: 'PR', statefp: '72', countyfp: '125', countyname: 'San Germán Municipio', classfp: 'H1' },
        { state: 'ID', statefp: '16', countyfp: '001', countyname: 'Ada County', classfp: 'H1' },
      ],
      { header: COUNTY_HEADER },
    );
    await ingest(suite.storage, 'counties', [counties], { now: 1_000 });
    const workbook = suite.file('ZIP_COUNTY_good.xlsx', xlsxWorkbook([ZIP_HEADER, ...zipCountyRows(3)]));
    await ingest(suite.storage, 'zip-county', [workbook], { now: 2_000 });
    previous = await snapshot();
    assert.deepEqual(previous, { counties: 2, zips: 3, loadedAt: { counties: 1_000, 'zip-county': 2_000 } });
  });

  async function assertPreviousDataIntact(): Promise<void> {
    assert.deepEqual(await snapshot(), previous);
  }

  describe('a damaged .xlsx workbook', () => {
    const good = xlsxWorkbook([ZIP_HEADER, ...zipCountyRows(20_000)]);

    it('bytes corrupted in the middle: a malformed workbook, nothing stored', async () => {
      const bytes = Buffer.from(good);
      const middle = bytes.length >> 1;
      for (let i = middle; i < middle + 64; i++) bytes[i] = bytes[i]! ^ 0x5a;
      const file = suite.file('ZIP_COUNTY_damaged.xlsx', bytes);
      const error = await failedIngest(suite.storage, 'zip-county', [file]);
      assert.match(
        error.message,
        /^malformed workbook \/.+\/ZIP_COUNTY_damaged\.xlsx: xl\/(worksheets\/sheet1|sharedStrings)\.xml is damaged \(.+\); nothing was stored$/,
      );
      await assertPreviousDataIntact();
    });

    it('a sheet that does not inflate: a malformed workbook, nothing stored', async () => {
      const bytes = Buffer.from(good);
      const name = 'xl/worksheets/sheet1.xml';
      // The entry's deflate data starts right after its local header's name (no extra field): a first
      // byte of 0xFF is a final block of the reserved type 3.
      bytes[bytes.indexOf(name) + name.length] = 0xff;
      const file = suite.file('ZIP_COUNTY_inflate.xlsx', bytes);
      const error = await failedIngest(suite.storage, 'zip-county', [file]);
      assert.match(
        error.message,
        /^malformed workbook \/.+\/ZIP_COUNTY_inflate\.xlsx: xl\/worksheets\/sheet1\.xml is damaged \(invalid block type\); nothing was stored$/,
      );
      await assertPreviousDataIntact();
    });

    it('a ZIP that is not a workbook, and an empty .xlsx: said so, nothing stored', async () => {
      const notWorkbook = suite.file(
        'not-a-workbook.xlsx',
        zipArchive([{ name: 'zips.csv', data: 'ZIP\r\n' }]),
      );
      const error = await failedIngest(suite.storage, 'zip-county', [notWorkbook]);
      assert.equal(
        error.message,
        `malformed workbook ${notWorkbook}: it has no first sheet (xl/worksheets/sheet1.xml); nothing was stored`,
      );
      const empty = await failedIngest(suite.storage, 'zip-county', [suite.file('empty.xlsx', '')]);
      assert.match(empty.message, /^not a readable ZIP archive \(.+\); nothing was stored$/);
      await assertPreviousDataIntact();
    });
  });

  describe('a path the filesystem refuses', () => {
    it('a directory (EISDIR): named, nothing stored', async () => {
      const dir = join(dirname(suite.file('placeholder.txt', '')), 'a-directory.csv');
      mkdirSync(dir, { recursive: true });
      for (const kind of ['counties', 'zip-county', 'plan-attributes']) {
        const error = await failedIngest(suite.storage, kind, [dir]);
        assert.equal(error.message, `${dir} is a directory; give the data file in it; nothing was stored`);
      }
      // The same when it comes after a good file of the same load.
      const good = suite.csv('counties-ok.csv', [
        { state: 'ID', statefp: '16', countyfp: '003', countyname: 'Adams County', classfp: 'H1' },
      ]);
      const error = await failedIngest(suite.storage, 'counties', [good, dir]);
      assert.match(error.message, /a-directory\.csv is a directory/);
      await assertPreviousDataIntact();
    });

    it('a file that does not exist (ENOENT), also inside an archive path: named, nothing stored', async () => {
      for (const name of ['missing.csv', 'missing.zip', 'missing.xlsx']) {
        const path = join(dirname(suite.file('placeholder.txt', '')), name);
        const error = await failedIngest(suite.storage, 'zip-county', [path]);
        assert.equal(error.message, `no such file: ${path}; nothing was stored`);
      }
      await assertPreviousDataIntact();
    });

    it(
      'a file without read permission (EACCES): named, nothing stored',
      { skip: process.getuid?.() === 0 ? 'running as root: permissions do not stop reading' : false },
      async () => {
        for (const name of ['locked.csv', 'locked.zip', 'locked.xlsx']) {
          const file = suite.file(name, 'state,statefp,countyfp,countyname\r\nID,16,001,Ada County\r\n');
          chmodSync(file, 0o000);
          const error = await failedIngest(suite.storage, 'counties', [file]);
          assert.equal(error.message, `cannot read ${file}: permission denied; nothing was stored`);
        }
        await assertPreviousDataIntact();
      },
    );

    it('names the file for every filesystem refusal, whichever call made it', () => {
      const errno = (code: string, syscall: string, path?: string) =>
        Object.assign(new Error(`${code}: something, ${syscall}`), {
          code,
          syscall,
          ...(path ? { path } : {}),
        });
      assert.equal(
        fileErrorMessage(errno('EACCES', 'open', '/data/a.csv'), '/x'),
        'cannot read /data/a.csv: permission denied',
      );
      assert.equal(
        fileErrorMessage(errno('EPERM', 'open'), '/data/b.zip'),
        'cannot read /data/b.zip: permission denied',
      );
      assert.equal(
        fileErrorMessage(errno('EISDIR', 'read'), '/data'),
        '/data is a directory; give the data file in it',
      );
      assert.equal(fileErrorMessage(errno('ENOENT', 'stat', '/nope.csv'), '/x'), 'no such file: /nope.csv');
      assert.equal(
        fileErrorMessage(errno('EIO', 'read'), '/data/c.csv'),
        'cannot read /data/c.csv (EIO: something, read)',
      );
      assert.equal(fileErrorMessage(new Error('not a filesystem error'), '/x'), undefined);
      assert.equal(
        fileErrorMessage(Object.assign(new Error('x'), { code: 'CSV_QUOTE_NOT_CLOSED' }), '/x'),
        undefined,
      );
    });
  });

  describe('a file with no data rows', () => {
    it('a header and no rows, an empty file, blank lines only: nothing stored, previous data kept', async () => {
      const files = [
        suite.lines('header-only.csv', [COUNTY_HEADER.join(',')], '\r\n'),
        suite.file('header-only-bom.csv', `\uFEFF${COUNTY_HEADER.join(',')}`),
        suite.file('empty.csv', ''),
        suite.file('blank-lines.csv', '\r\n\r\n\n'),
      ];
      for (const file of files) {
        const error = await failedIngest(suite.storage, 'counties', [file]);
        assert.equal(error.message, `no data rows in ${file}; nothing was stored`);
      }
      await assertPreviousDataIntact();
    });

    it('a workbook with a header row only, or no rows at all', async () => {
      for (const [name, rows] of [
        ['header-only.xlsx', [ZIP_HEADER]],
        ['no-rows.xlsx', []],
      ] as const) {
        const file = suite.file(name, xlsxWorkbook(rows.map((r) => [...r])));
        const error = await failedIngest(suite.storage, 'zip-county', [file]);
        assert.equal(error.message, `no data rows in ${file}; nothing was stored`);
      }
      await assertPreviousDataIntact();
    });

    it('one such file in a load of several fails the whole load', async () => {
      const good = suite.csv('more-counties.csv', [
        { state: 'ID', statefp: '16', countyfp: '005', countyname: 'Bannock County', classfp: 'H1' },
      ]);
      const headerOnly = suite.lines('changes-header-only.csv', ['fips,usps,name,change']);
      const error = await failedIngest(suite.storage, 'counties', [good, headerOnly]);
      assert.equal(error.message, `no data rows in ${headerOnly}; nothing was stored`);
      await assertPreviousDataIntact();
    });
  });
});
