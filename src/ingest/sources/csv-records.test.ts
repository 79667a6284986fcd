import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { CsvError, CsvRecordParser, type CsvRecord } from './csv-records.js';

/** Feeds `text` in chunks of `size` characters. */
function records(text: string, size = text.length || 1): CsvRecord[] {
  const parser = new CsvRecordParser();
  const out: CsvRecord[] = [];
  for (let i = 0; i < text.length; i += size) out.push(...parser.push(text.slice(i, i + size)));
  out.push(...parser.end());
  return out;
}

const cellsOf = (text: string, size?: number) => records(text, size).map((r) => r.record);

describe('CsvRecordParser', () => {
  it('reads quoted cells, escaped quotes, embedded commas and line breaks', () => {
    assert.deepEqual(records('a,"b, c","say ""hi"""\r\n1,"x\ny",\n'), [
      { record: ['a', 'b, c', 'say "hi"'], line: 1 },
      { record: ['1', 'x\ny', ''], line: 3 },
    ]);
  });

  it('drops a leading byte order mark and empty lines, and counts lines like csv-parse', () => {
    assert.deepEqual(records('\uFEFFh1,h2\n\n1,2\r\n\r\n3,4'), [
      { record: ['h1', 'h2'], line: 1 },
      { record: ['1', '2'], line: 3 },
      { record: ['3', '4'], line: 5 },
    ]);
  });

  it('treats a lone CR as a line end', () => {
    assert.deepEqual(cellsOf('a,b\r1,2\r'), [
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('reports malformed quotes with csv-parse’s codes', () => {
    const code = (text: string) => {
      try {
        records(text);
      } catch (error) {
        assert.ok(error instanceof CsvError);
        return error.code;
      }
      return 'no error';
    };
    assert.equal(code('a,"b\n'), 'CSV_QUOTE_NOT_CLOSED');
    assert.equal(code('a,"b"c\n'), 'CSV_INVALID_CLOSING_QUOTE');
    assert.equal(code('a,b"c\n'), 'CSV_INVALID_OPENING_QUOTE');
  });

  it('splits lines whose every cell is quoted (the NPPES layout) as csv-parse does', () => {
    let seed = 11;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const pieces = ['', '', '', '1234567890', 'SUITE 100', 'SMITH, JR.', '","', 'say "hi"', '"', 'x\ny', 'é'];
    for (let round = 0; round < 200; round++) {
      const rows = Array.from({ length: 1 + Math.floor(random() * 5) }, () =>
        Array.from(
          { length: 1 + Math.floor(random() * 8) },
          () => pieces[Math.floor(random() * pieces.length)]!,
        ),
      );
      const eol = random() < 0.5 ? '\n' : '\r\n';
      const text = rows.map((row) => row.map((v) => `"${v.replace(/"/g, '""')}"`).join(',')).join(eol) + eol;
      const expected = parse(text, { relax_column_count: true, skip_empty_lines: true }) as string[][];
      assert.deepEqual(expected, rows, 'csv-parse reads the rows back');
      for (const size of [1, 5, 64, text.length])
        assert.deepEqual(cellsOf(text, size), expected, JSON.stringify(text));
    }
  });

  it('gives the records csv-parse gives, whatever the chunking (random CMS-like files)', () => {
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const pieces = ['a', 'Bronze', '$4,500', '', ' ', 'x"y', 'No, really', 'line\nbreak', '"', '100%', 'é'];
    for (let round = 0; round < 200; round++) {
      const rows: string[][] = [];
      for (let r = 0; r < 1 + Math.floor(random() * 6); r++) {
        const row: string[] = [];
        for (let c = 0; c < 1 + Math.floor(random() * 5); c++)
          row.push(pieces[Math.floor(random() * pieces.length)]!);
        rows.push(row);
      }
      const eol = random() < 0.5 ? '\n' : '\r\n';
      const text = rows
        .map((row) =>
          row.map((v) => (/[",\n ]/.test(v) || v === '' ? `"${v.replace(/"/g, '""')}"` : v)).join(','),
        )
        .join(eol);
      const expected = parse(text, { relax_column_count: true, skip_empty_lines: true }) as string[][];
      for (const size of [1, 2, 3, 7, 64])
        assert.deepEqual(cellsOf(text, size), expected, JSON.stringify(text));
    }
  });
});
