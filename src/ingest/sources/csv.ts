import { isAscii } from 'node:buffer';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { CsvRecordParser, type CsvRecord } from './csv-records.js';
import type { SourceRow, TabularSource } from './tabular-source.js';

/**
 * A function that makes a row's cells (by header name; '' for a short row's missing ones) from its record,
 * whose cells are those of `header` in order, or, when the reader picks, those of `header`'s columns at
 * `positions` from the record's second element on (CsvRecordParser.pick).
 * It is written as one object literal for the file's header, as d3-dsv does: V8 builds such an object from
 * a template with every property in place, where a loop of 330 keyed stores (the NPPES file) turns the
 * object into a hash table, far slower (figures in bench/RESULTS.md). The names
 * enter the code only as JSON string literals, which no header can escape; a duplicate name keeps its
 * last column, and a `__proto__` column (a string) is ignored, as plain assignment did before.
 */
function cellsBuilder(
  header: string[],
  positions: readonly number[] | undefined,
): (record: string[]) => Record<string, string> {
  const properties = positions
    ? positions.map((column, i) => `${JSON.stringify(header[column])}: r[${i + 1}] ?? ''`)
    : header.map((name, i) => `${JSON.stringify(name)}: r[${i}] ?? ''`);
  return new Function('r', `return {${properties.join(', ')}};`) as (
    record: string[],
  ) => Record<string, string>;
}

/**
 * Reads a CSV stream: the header (names trimmed) once the first record is in, then the rows. One async
 * generator per file, not one per layer: an await per row is most of the cost of a 2-million-row PUF.
 * With `columns`, rows carry only those cells, and records are split no further than the last of them.
 */
export async function openCsv(
  input: Readable,
  columns?: readonly string[],
  isHeader?: (cells: string[]) => boolean,
): Promise<TabularSource> {
  // The CMS files start with a UTF-8 byte order mark (the parser drops it); rows may be short or long so
  // that a bad row is reported by the row's validator instead of aborting the whole file.
  const decoder = new StringDecoder('utf8');
  // Chunks of plain ASCII (most of every CMS file) become text by a copy, much cheaper than UTF-8
  // decoding; from the first chunk that is not, the decoder takes over (it holds a character cut in two).
  let ascii = true;
  const decode = (chunk: Buffer) => {
    if (ascii && isAscii(chunk)) return chunk.toString('latin1');
    ascii = false;
    return decoder.write(chunk);
  };
  const parser = new CsvRecordParser();
  const chunks = (input as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  let pending: CsvRecord[] = [];
  let ended = false;
  const more = async () => {
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      pending = [...parser.push(decoder.end()), ...parser.end()];
    } else {
      pending = parser.push(decode(next.value));
    }
  };
  while (pending.length === 0 && !ended) await more();
  let first = pending.shift();
  // Files that open with title lines (the CMS addenda): the header is the first record `isHeader` takes.
  while (first && isHeader && !isHeader(first.record.map((cell) => cell.trim()))) {
    while (pending.length === 0 && !ended) await more();
    first = pending.shift();
  }
  if (!first) return { header: [], rows: (async function* () {})() };
  const header = first.record.map((name) => name.trim());
  // A reader that names its columns gets those cells alone (the records already read are cut the same way).
  const wanted = columns && new Set(columns);
  const positions = wanted && header.flatMap((name, i) => (wanted.has(name) ? [i] : []));
  const picking = positions && positions.length > 0 ? positions : undefined;
  if (picking) {
    parser.pick(picking);
    pending = pending.map(({ record, line }) => ({ record: parser.picked(record), line }));
  }
  const cellsOf = cellsBuilder(header, picking);
  async function* rows(): AsyncGenerator<SourceRow> {
    try {
      for (;;) {
        const batch = pending;
        pending = [];
        for (const { record, line } of batch) yield { line, cells: cellsOf(record) };
        if (ended) return;
        await more();
      }
    } finally {
      // A load that stops early (a missing column, too many rejects) closes the file or archive entry.
      if (!ended) await chunks.return?.();
    }
  }
  return { header, rows: rows() };
}
