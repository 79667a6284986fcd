import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { CsvRecordParser, type CsvRecord } from './csv-records.js';
import { openZipEntry } from './zip-entry.js';
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

/** Size in bytes of what `openTabular` will read (the archive's size for a ZIP), for progress. */
export async function sourceSize(file: string): Promise<number> {
  return (await stat(file)).size;
}

async function* csvRows(input: Readable): AsyncGenerator<SourceRow | { header: string[] }> {
  // The CMS files start with a UTF-8 byte order mark (the parser drops it); rows may be short or long so
  // that a bad row is reported by the row's validator instead of aborting the whole file.
  const decoder = new StringDecoder('utf8');
  const parser = new CsvRecordParser();
  let header: string[] | undefined;
  const rows = function* (records: CsvRecord[]): Generator<SourceRow | { header: string[] }> {
    for (const { record, line } of records) {
      if (!header) {
        header = record.map((name) => name.trim());
        yield { header };
        continue;
      }
      const cells: Record<string, string> = {};
      for (let i = 0; i < header.length; i++) cells[header[i]!] = record[i] ?? '';
      yield { line, cells };
    }
  };
  for await (const chunk of input as AsyncIterable<Buffer>) yield* rows(parser.push(decoder.write(chunk)));
  yield* rows([...parser.push(decoder.end()), ...parser.end()]);
}

/**
 * Opens a CSV file, a ZIP holding a CSV (the CMS archives), or an `.xlsx` workbook's first sheet, and
 * streams its rows. `onBytes` hears how many bytes of the file on disk were consumed.
 */
export async function openTabular(
  file: string,
  onBytes: (n: number) => void = () => {},
): Promise<TabularSource> {
  let items: AsyncGenerator<SourceRow | { header: string[] }>;
  if (/\.xlsx$/i.test(file)) {
    items = readXlsxRows(file, onBytes);
  } else if (/\.zip$/i.test(file)) {
    const entry = await openZipEntry(file, /\.csv$/i);
    // Progress follows the archive: count compressed bytes as the entry inflates, scaled.
    const total = (await stat(file)).size;
    const scale = entry.size > 0 ? total / entry.size : 0;
    items = csvRows(entry.stream.pipe(byteCounter((n) => onBytes(n * scale))));
  } else {
    items = csvRows(createReadStream(file, { highWaterMark: 1 << 20 }).pipe(byteCounter(onBytes)));
  }
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
