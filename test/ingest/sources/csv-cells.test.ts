import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openTabular } from '../../../src/ingest/sources/tabular.js';
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

describe('openTabular with named columns: only those cells, the same values', () => {
  const header = ['A', 'B', 'C', 'D', 'E', 'F'];
  const wanted = ['B', 'D'];
  const picked = (cells: Record<string, string>) =>
    Object.fromEntries(wanted.map((name) => [name, cells[name]]));
  const quoted = (cells: string[]) => cells.map((c) => `"${c.replace(/"/g, '""')}"`).join(',');
  // Every shape a line can take: all cells quoted (the NPPES fast path), unquoted, quotes inside a picked
  // cell and inside one that is not, a line break inside a cell after the picked ones, a short row, CRLF.
  const shapes = (n: number) => [
    quoted([`a${n}`, `b${n}`, 'c', `d${n}`, 'e', 'f']),
    [`a${n}`, `b${n}`, 'c', `d${n}`, 'e', 'f'].join(','),
    quoted([`a${n}`, `b "${n}"`, 'c', `d${n}`, 'e', 'f']),
    quoted([`a${n}`, `b${n}`, 'c "q"', `d${n}`, 'e', 'f']),
    quoted([`a${n}`, `b${n}`, 'c', `d${n}`, 'two\nlines', 'f']),
    quoted([`a${n}`, `b,${n}`]),
    quoted([`a${n}`, `b${n}`, 'c', `d${n}`, 'e', 'f']) + '\r',
  ];

  async function rows(file: string, columns?: string[]) {
    const source = await openTabular(file, undefined, columns);
    const out: { line: number; cells: Record<string, string> }[] = [];
    for await (const row of source.rows) out.push(row);
    return out;
  }

  for (const [what, count] of [
    ['a file read in one chunk', 10],
    ['a file of several chunks (records cut once the header is read, and those read before)', 20_000],
  ] as const) {
    it(what, async () => {
      const lines = [quoted(header)];
      for (let n = 0; lines.length <= count * 7; n++) lines.push(...shapes(n));
      const file = suite.file(`picked-${count}.csv`, lines.join('\n') + '\n');
      const all = await rows(file);
      const some = await rows(file, wanted);
      assert.equal(some.length, all.length);
      assert.deepEqual(
        some,
        all.map(({ line, cells }) => ({ line, cells: picked(cells) })),
      );
      assert.deepEqual(some[2]!.cells, { B: 'b "0"', D: 'd0' });
      assert.deepEqual(some[5]!.cells, { B: 'b,0', D: '' });
      assert.equal(some[5]!.line, 8, 'the line break inside a cell counts');
    });
  }

  it('names no column of the header: rows carry every cell', async () => {
    const file = suite.file('none.csv', `${quoted(header)}\n${quoted(['1', '2', '3', '4', '5', '6'])}\n`);
    assert.deepEqual((await rows(file, ['Z']))[0]!.cells, { A: '1', B: '2', C: '3', D: '4', E: '5', F: '6' });
  });
});
