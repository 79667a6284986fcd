import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { runCli, type CliResult } from '../../helpers/cli.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../../helpers/service.js';
import { xlsxWorkbook } from '../../helpers/xlsx-fixture.js';

// What `openenroll ingest` and the other commands print when a file or the database refuses: one line
// naming the problem, exit code 1, never a stack trace.

const SQLITE_NOTE =
  'openenroll: note: on SQLite the load holds the write lock until it ends; other writers ' +
  '(a running server\'s logins and token grants, "keys create") wait up to 5 s, then fail, while it runs';
const BUSY =
  'openenroll: the database is busy (an ingest or another writer holds it); try again when it finishes';

let database: TestDatabase;
let dir: string;
before(async () => {
  database = createTestDatabase();
  await (await database.open()).close();
  dir = mkdtempSync(join(tmpdir(), 'cli-errors-'));
});
after(async () => {
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(database.processUrl, args);

/** The lines a failed command wrote to stderr, less the SQLite note an ingest starts with. */
function errorLines(result: CliResult): string[] {
  const lines = result.stderr.split('\n').filter((line) => line !== '');
  return lines[0] === SQLITE_NOTE ? lines.slice(1) : lines;
}

function assertOneLineFailure(result: CliResult, expected: string | RegExp): void {
  assert.equal(result.code, 1, result.stderr);
  const lines = errorLines(result);
  assert.equal(lines.length, 1, `one line, no stack trace:\n${result.stderr}`);
  if (typeof expected === 'string') assert.equal(lines[0], expected);
  else assert.match(lines[0]!, expected);
}

describe('openenroll ingest: files that cannot be loaded', () => {
  test('a directory (EISDIR) is named', async () => {
    assertOneLineFailure(
      await cli(['ingest', 'counties', tmpdir()]),
      `openenroll: counties: ${tmpdir()} is a directory; give the data file in it; nothing was stored`,
    );
  });

  test('a damaged workbook is a malformed workbook', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => [
      String(i + 1).padStart(5, '0'),
      '16001',
      '1',
      '1',
    ]);
    const bytes = xlsxWorkbook([['ZIP', 'COUNTY', 'RES_RATIO', 'TOT_RATIO'], ...rows]);
    const middle = bytes.length >> 1;
    for (let i = middle; i < middle + 64; i++) bytes[i] = bytes[i]! ^ 0x5a;
    const file = join(dir, 'ZIP_COUNTY_damaged.xlsx');
    writeFileSync(file, bytes);
    assertOneLineFailure(
      await cli(['ingest', 'zip-county', file]),
      /^openenroll: zip-county: malformed workbook .+ZIP_COUNTY_damaged\.xlsx: xl\/\S+ is damaged \(.+\); nothing was stored$/,
    );
  });

  test('a file with a header and no rows', async () => {
    const file = join(dir, 'national_county.csv');
    writeFileSync(file, 'state,statefp,countyfp,countyname,classfp\r\n');
    const result = await cli(['ingest', 'counties', file]);
    assertOneLineFailure(result, `openenroll: counties: no data rows in ${file}; nothing was stored`);
    assert.match(result.stdout, /^counties: read 0 rows, wrote 0 table rows, rejected 0\n$/);
  });
});

describe('openenroll ingest on SQLite warns that other writers wait, when a load is long', () => {
  test('a load over within the 5 s busy timeout prints no note; stdout stays JSON', async () => {
    const file = join(dir, 'counties.csv');
    writeFileSync(file, 'state,statefp,countyfp,countyname,classfp\r\nID,16,001,Ada County,H1\r\n');
    const result = await cli(['ingest', 'counties', file, '--json']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
    assert.ok(!result.stderr.includes(SQLITE_NOTE));
    assert.equal((JSON.parse(result.stdout) as { stored: number }).stored, 1, 'stdout stays JSON');
  });
});

describe('openenroll ingest: summaries that add up', () => {
  test('repeated rows are counted and said to be skipped or merged', async () => {
    const file = join(dir, 'counties-repeated.csv');
    writeFileSync(
      file,
      'state,statefp,countyfp,countyname,classfp\r\n' +
        'ID,16,001,Ada County,H1\r\nID,16,001,Ada County,H1\r\nID,16,003,Adams County,H1\r\n',
    );
    const result = await cli(['ingest', 'counties', file]);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.split('\n');
    assert.equal(lines[0], 'counties: read 3 rows, wrote 2 table rows, rejected 0');
    assert.match(
      lines[1]!,
      /^ {2}of the 3 rows read: 2 loaded, 0 rejected, 1 row skipped or merged \(a repeat of an earlier row/,
    );
    const json = JSON.parse((await cli(['ingest', 'counties', file, '--json'])).stdout) as {
      skipped: number;
    };
    assert.equal(json.skipped, 1);
  });
});

describe(
  'a command while another process holds the SQLite write lock',
  { skip: onPostgres && 'SQLite only' },
  () => {
    test('keys create says the database is busy, then works once the lock is released', async () => {
      const holder = new SqliteDatabase(database.processUrl.slice('sqlite:'.length));
      holder.exec('begin immediate');
      let busy: CliResult;
      try {
        busy = await cli(['keys', 'create', '--name', 'during an ingest', '--json']);
      } finally {
        holder.exec('rollback');
        holder.close();
      }
      assertOneLineFailure(busy, BUSY);
      assert.equal(busy.stdout, '');
      const created = await cli(['keys', 'create', '--name', 'after the ingest', '--json']);
      assert.equal(created.code, 0, created.stderr);
      assert.ok((JSON.parse(created.stdout) as { key: string }).key.length >= 16);
    });
  },
);
