import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IngestError } from '../../src/ingest/engine/report.js';
import { ingestSuite } from '../helpers/ingest-suite.js';
import { ingest, sharedData, skipWithoutSharedData } from '../helpers/shared-data.js';

const LIMITS = 'medicaid/medicaid_chip_income_limits_pct_fpl.csv';

const suite = ingestSuite('medicaid');
// The limits file is written with CRLF line ends, as the published one is.
const crlfLines = (name: string, lines: string[]) => suite.lines(name, lines, '\r\n');

async function limit(year: number, state: string, category: string, program = 'medicaid') {
  const row = await suite.storage.db
    .selectFrom('medicaid_limits')
    .select(['quarter', 'pct_fpl'])
    .where('year', '=', year)
    .where('state', '=', state)
    .where('program', '=', program)
    .where('category', '=', category)
    .executeTakeFirst();
  return row && { quarter: Number(row.quarter), pct: row.pct_fpl === null ? null : Number(row.pct_fpl) };
}

const count = (year?: number) => suite.count('medicaid_limits', year);

describe('medicaid: the real limits file (CRLF, 2014–2026)', { skip: skipWithoutSharedData(LIMITS) }, () => {
  it('loads every year the file holds, each as its own dataset', async () => {
    const summary = await ingest(suite.storage, 'medicaid', [sharedData(LIMITS)]);
    assert.equal(summary.read, 5515);
    assert.equal(summary.stored, 5515);
    assert.equal(summary.rejectedCount, 0);
    assert.deepEqual(
      summary.years,
      [2014, 2015, 2016, 2017, 2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025, 2026],
    );
    assert.equal(await count(2014), 346);
    assert.equal(await count(2025), 459);
  });

  it('keeps an expansion state\'s adult limit and a non-expansion state\'s "not covered" as null', async () => {
    assert.deepEqual(await limit(2025, 'NM', 'adult_19_64_expansion'), { quarter: 1, pct: 138 });
    assert.deepEqual(await limit(2025, 'TX', 'adult_19_64_expansion'), { quarter: 1, pct: null });
    assert.deepEqual(await limit(2014, 'ID', 'adult_19_64_expansion'), { quarter: 1, pct: null });
    assert.deepEqual(await limit(2014, 'MI', 'adult_19_64_expansion'), { quarter: 1, pct: 138 });
    assert.deepEqual(await limit(2025, 'WI', 'adult_19_64_expansion'), { quarter: 1, pct: 100 });
    // Kansas 2025, the API document's example state: parents 38, infants 171, separate CHIP 255.
    assert.deepEqual(await limit(2025, 'KS', 'parent_caretaker'), { quarter: 1, pct: 38 });
    assert.deepEqual(await limit(2025, 'KS', 'infant_0_1'), { quarter: 1, pct: 171 });
    assert.deepEqual(await limit(2025, 'KS', 'child', 'chip_separate'), { quarter: 1, pct: 255 });
    // No row = unknown (the 2014–2017 young-adult gap), not "not covered".
    assert.equal(await limit(2016, 'KS', 'young_adult_19_20'), undefined);
  });

  it('with --year loads only that year and leaves the others', async () => {
    const summary = await ingest(suite.storage, 'medicaid', [sharedData(LIMITS)], { year: 2025 });
    assert.equal(summary.stored, 459);
    assert.equal(summary.rejectedCount, 0);
    assert.equal(await count(), 5515);
  });

  it('refuses a --year the file does not cover rather than emptying it', async () => {
    await assert.rejects(
      ingest(suite.storage, 'medicaid', [sharedData(LIMITS)], { year: 2030 }),
      /no rows for 2030/,
    );
  });
});

describe('medicaid: malformed files', () => {
  const header = 'as_of_year_jan1,state,program,category,income_limit_pct_fpl,pe_parameter';
  const good = [
    header,
    '2040,NM,medicaid,adult_19_64_expansion,138.0,x',
    '2040,TX,medicaid,adult_19_64_expansion,,x',
  ];

  it('refuses a file without the limit column', async () => {
    const file = crlfLines('nolimit.csv', [
      'as_of_year_jan1,state,program,category',
      '2040,NM,medicaid,adult',
    ]);
    await assert.rejects(ingest(suite.storage, 'medicaid', [file]), /missing column "income_limit_pct_fpl"/);
  });

  it('fails on bad rows with file and line, keeps the earlier data; allowRejects stores the good rows', async () => {
    await ingest(suite.storage, 'medicaid', [crlfLines('good.csv', good)]);
    assert.equal(await count(2040), 2);
    const bad = crlfLines('bad.csv', [
      ...good,
      '2040,XX,medicaid,adult,138,x',
      '2040,KS,medicaid,infant_0_1,high,x',
      '2040,NM,medicaid,adult_19_64_expansion,140,x',
      '20x0,KS,medicaid,infant_0_1,171,x',
    ]);
    await assert.rejects(ingest(suite.storage, 'medicaid', [bad]), (error: Error) => {
      assert.ok(error instanceof IngestError);
      assert.deepEqual(
        error.summary?.rejected.map((r) => [r.line, r.reason]),
        [
          [4, 'state "XX" is not a state code'],
          [5, 'income_limit_pct_fpl "high" is not a percentage of FPL'],
          [6, 'NM medicaid/adult_19_64_expansion for 2040 appears twice'],
          [7, 'the year column is not a year'],
        ],
      );
      assert.equal(error.summary?.rejected[0]?.file, bad);
      return true;
    });
    assert.equal(await count(2040), 2);
    const summary = await ingest(suite.storage, 'medicaid', [bad], { allowRejects: 4 });
    assert.equal(summary.stored, 2);
    await ingest(suite.storage, 'medicaid', [bad], { allowRejects: 4 });
    assert.equal(await count(2040), 2);
  });
});
