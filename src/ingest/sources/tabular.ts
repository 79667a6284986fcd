import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { openCsv } from './csv.js';
import type { TabularSource } from './tabular-source.js';
import { readXlsxRows } from './xlsx.js';
import { ArchiveError, openZipEntry } from './zip-entry.js';

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
