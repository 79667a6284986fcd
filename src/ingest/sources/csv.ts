import { isAscii } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { CsvRecordParser, type CsvRecord } from './csv-records.js';
import { ArchiveError, openZipEntry } from './zip-entry.js';
import { readXlsxRows } from './xlsx.js';

/** One data row: its 1-based line in the file (the header is line 1) and its cells by header name. */
export interface SourceRow {
  line: number;
  cells: Record<string, string>;
}

/** A tabular source being read: its header (names trimmed) and its rows, streamed. */
export interface TabularSource {
  header: string[];
  rows: AsyncIterable<SourceRow>;
}

/** Counts the bytes that pass, so a progress bar can follow a stream of unknown row count. */
function byteCounter(onBytes: (n: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      onBytes(chunk.length);
      done(null, chunk);
    },
  });
}

/**
 * `input` through a byte counter. `pipe` does not pass a source's error on, so a read or inflate error
 * would leave the reader waiting forever (or crash the process as an unhandled 'error'): it is handed
 * to the counter, where the reader sees it.
 */
function counted(input: Readable, onBytes: (n: number) => void, wrap = (e: Error) => e): Readable {
  const counter = byteCounter(onBytes);
  input.on('error', (error: Error) => counter.destroy(wrap(error)));
  // A reader that stops early destroys the counter: the file (or archive entry) behind it is released.
  counter.on('close', () => input.destroy());
  return input.pipe(counter);
}

/**
 * Size in bytes of what `openTabular` will read (the archive's size for a ZIP), for progress. A directory
 * fails here, as an `EISDIR` error naming it, rather than on the first read.
 */
export async function sourceSize(file: string): Promise<number> {
  const info = await stat(file);
  if (info.isDirectory()) {
    throw Object.assign(new Error(`EISDIR: illegal operation on a directory, open '${file}'`), {
      code: 'EISDIR',
      syscall: 'open',
      path: file,
    });
  }
  return info.size;
}

/**
 * A function that makes a row's cells (by header name; '' for a short row's missing ones) from its record,
 * whose cells are those of `header` in order, or, when the reader picks, those of `header`'s columns at
 * `positions` from the record's second element on (CsvRecordParser.pick).
 * It is written as one object literal for the file's header, as d3-dsv does: V8 builds such an object from
 * a template with every property in place, where a loop of 330 keyed stores (the NPPES file) turns the
 * object into a hash table, ten times slower (10 s of a 26 s load of 200,000 NPPES rows). The names
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
async function openCsv(
  input: Readable,
  columns?: readonly string[],
  isHeader?: (cells: string[]) => boolean,
): Promise<TabularSource> {
  // The CMS files start with a UTF-8 byte order mark (the parser drops it); rows may be short or long so
  // that a bad row is reported by the row's validator instead of aborting the whole file.
  const decoder = new StringDecoder('utf8');
  // Chunks of plain ASCII (most of every CMS file) become text by a copy, several times faster than UTF-8
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

/**
 * Opens a CSV file, a ZIP holding a CSV (the CMS archives), or an `.xlsx` workbook's first sheet, and
 * streams its rows. `onBytes` hears how many bytes of the file on disk were consumed. `columns`: the
 * only cells a CSV's rows need to carry (a workbook's rows carry all of theirs).
 */
export async function openTabular(
  file: string,
  onBytes: (n: number) => void = () => {},
  columns?: readonly string[],
  isHeader?: (cells: string[]) => boolean,
): Promise<TabularSource> {
  if (/\.zip$/i.test(file)) {
    const entry = await openZipEntry(file, /\.csv$/i);
    // Progress follows the archive: count compressed bytes as the entry inflates, scaled.
    const total = (await stat(file)).size;
    const scale = entry.size > 0 ? total / entry.size : 0;
    const damaged = (e: Error) => new ArchiveError(`damaged ZIP archive (${e.message})`);
    return openCsv(
      counted(entry.stream, (n) => onBytes(n * scale), damaged),
      columns,
      isHeader,
    );
  }
  if (!/\.xlsx$/i.test(file)) {
    return openCsv(counted(createReadStream(file, { highWaterMark: 1 << 20 }), onBytes), columns, isHeader);
  }
  const items = readXlsxRows(file, onBytes);
  const first = await items.next();
  if (first.done || !('header' in first.value)) {
    return { header: [], rows: (async function* () {})() };
  }
  const header = first.value.header;
  return {
    header,
    rows: (async function* () {
      for await (const item of items) if (!('header' in item)) yield item;
    })(),
  };
}
