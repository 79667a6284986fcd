import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openTabular } from '../../../src/ingest/sources/csv.js';
import { ingestSuite } from '../../helpers/ingest-suite.js';

const suite = ingestSuite('csv-cells');

/** What each row's cells were before they were built by a generated literal: one assignment per column. */
function assigned(header: string[], record: string[]): Record<string, string> {
  const cells: Record<string, string> = {};
  for (let i = 0; i < header.length; i++) cells[header[i]!] = record[i] ?? '';
  return cells;
}

describe('openTabular: the cells of a row by header name', () => {
  it('any header name is a plain property name, never code; duplicates keep the last column', async () => {
    const header = [
      'NPI',
      'Provider Organization Name (Legal Business Name)',
      `x'}); process.exit(3); ({'`,
      'back\\slash "quoted"',
      'line\u2028separator',
      '__proto__',
      'constructor',
      '7',
      'NPI',
      'é ü',
    ];
    const records = [
      ['1', 'ORG', 'a', 'b', 'c', 'd', 'e', 'f', '2', 'g'],
      ['3', 'SHORT'],
    ];
    const line = (cells: string[]) => cells.map((c) => `"${c.replace(/"/g, '""')}"`).join(',');
    const file = suite.file('names.csv', [header, ...records].map(line).join('\n') + '\n');
    const source = await openTabular(file);
    assert.deepEqual(source.header, header);
    const rows = [];
    for await (const { cells } of source.rows) rows.push(cells);
    assert.deepEqual(
      rows,
      records.map((record) => assigned(header, record)),
    );
    assert.equal(Object.getPrototypeOf(rows[0]), Object.prototype);
    assert.equal(rows[1]!.NPI, '', 'a short row has empty cells for its missing columns');
  });
});
