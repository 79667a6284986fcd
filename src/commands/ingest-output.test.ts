import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { IngestSummary } from '../ingest/engine/report.js';
import { byteScale, estimate, noteIfLong, progressLine, summaryLines } from './ingest-output.js';

test('the byte counter suits the file: kB below 10 MB, three significant digits of the total', () => {
  assert.equal(byteScale(1_000_000)(523_456), '523');
  assert.equal(byteScale(5_000)(1_234), '1.23');
  assert.equal(byteScale(45_000_000)(12_345_678), '12.3');
  assert.equal(byteScale(2_500_000_000)(1_000_000_000), '1000');
  assert.equal(
    progressLine('counties', 500_000, 1_000_000, 2000),
    `counties [${'█'.repeat(15)}${'░'.repeat(15)}] 50.0% | 500/1000 kB | ETA 2s`,
  );
  assert.match(
    progressLine('plan-attributes', 12_345_678, 45_000_000, 0),
    /27\.4% \| 12\.3\/45\.0 MB \| ETA …$/,
  );
});

test('the ETA is "…" until there is a rate, never INF or NULL', () => {
  assert.equal(estimate(0, 1000, 5000), '…');
  assert.equal(estimate(10, 1000, 200), '…', 'under a second in');
  assert.equal(estimate(0, 0, 5000), '…');
  assert.equal(estimate(250, 1000, 1000), '3s');
  assert.equal(estimate(100, 1000, 20_000), '3m 00s');
  assert.equal(estimate(1, 1000, 10_000), '2h 46m');
  assert.equal(estimate(1000, 1000, 10_000), '0s');
  for (const [done, total, ms] of [
    [0, 0, 0],
    [0, 10, 0],
    [5, 0, 10],
  ] as const) {
    assert.doesNotMatch(progressLine('k', done, total, ms), /INF|NULL|NaN|Infinity/);
  }
});

const summary = (over: {
  read: number;
  skipped?: number;
  stored: number;
  warnings?: string[];
}): IngestSummary => ({
  kind: 'counties',
  files: [],
  years: [2025],
  skipped: 0,
  rejected: [],
  rejectedTruncated: false,
  rejectedCount: 0,
  ...over,
});

test('a summary whose numbers add up is one line', () => {
  assert.deepEqual(summaryLines(summary({ read: 10, stored: 10 })), [
    'counties: read 10 rows, wrote 10 table rows for 2025, rejected 0',
  ]);
});

test('skipped or merged rows, and rows that fill several tables, are counted and explained', () => {
  const [first, skipped] = summaryLines(summary({ read: 3252, skipped: 4, stored: 3248 }));
  assert.equal(first, 'counties: read 3252 rows, wrote 3248 table rows for 2025, rejected 0');
  assert.match(skipped!, /^ {2}of the 3252 rows read: 3248 loaded, 0 rejected, 4 rows skipped or merged \(/);
  // A kind that writes only when the file ends (networks, business rules): not "0 loaded".
  assert.deepEqual(summaryLines(summary({ read: 937, skipped: 937, stored: 764 })).slice(1), [
    '  the 937 accepted rows were gathered into the 764 table rows written at the end of the load (rows of one plan or issuer become one)',
  ]);
  const several = summaryLines(summary({ read: 10, stored: 30 }));
  assert.equal(
    several[1],
    '  the 10 loaded rows made 30 table rows (a row can fill several tables, and totals are written once per group)',
  );
});

test('warnings follow the summary', () => {
  assert.deepEqual(summaryLines(summary({ read: 1, stored: 1, warnings: ['no rating areas for 2025'] })), [
    'counties: read 1 rows, wrote 1 table rows for 2025, rejected 0',
    'warning: no rating areas for 2025',
  ]);
});

test('the lock note waits for a long load and is cancelled by a short one', async () => {
  let noted = 0;
  noteIfLong(20, () => (noted += 1));
  const cancel = noteIfLong(20, () => (noted += 100));
  cancel();
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal(noted, 1);
});
