import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser } from 'saxes';
import { ArchiveError, openZipEntry } from './zip-entry.js';
import type { SourceRow } from './tabular-source.js';

/** Column index of a cell reference: `A1` → 0, `AB12` → 27. */
function columnIndex(ref: string): number {
  let index = 0;
  for (const ch of ref) {
    const code = ch.charCodeAt(0);
    if (code < 65 || code > 90) break;
    index = index * 26 + (code - 64);
  }
  return index - 1;
}

/**
 * Feeds a workbook part (XML, inflating out of the archive) to a SAX parser, yielding after each chunk the
 * events it produced. Chunks are decoded with a StringDecoder: a character split across two chunks (`Á`
 * is two bytes) must not become two replacement characters. A part that does not inflate or is not
 * well-formed XML is an ArchiveError: the workbook is damaged, the data is not at fault.
 */
async function* saxEvents<T>(
  file: string,
  part: string,
  stream: Readable,
  setup: (parser: SaxesParser, emit: (item: T) => void) => void,
  onBytes: (n: number) => void = () => {},
) {
  const parser = new SaxesParser();
  const decoder = new StringDecoder('utf8');
  const pending: T[] = [];
  setup(parser, (item) => pending.push(item));
  const damaged = (error: unknown) =>
    new ArchiveError(
      `malformed workbook ${file}: ${part} is damaged (${error instanceof Error ? error.message : String(error)})`,
    );
  const chunks = (stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<Buffer>;
      try {
        next = await chunks.next();
      } catch (error) {
        throw damaged(error);
      }
      try {
        if (next.done) parser.write(decoder.end()).close();
        else {
          onBytes(next.value.length);
          parser.write(decoder.write(next.value));
        }
      } catch (error) {
        throw damaged(error);
      }
      yield* pending.splice(0);
      if (next.done) return;
    }
  } finally {
    // A reader that stops early (a missing column, too many rejects) releases the archive entry.
    stream.destroy();
  }
}

/** The workbook's shared strings (cells of type `s` hold an index into them). */
async function sharedStrings(file: string): Promise<string[]> {
  let entry;
  try {
    entry = await openZipEntry(file, /^xl\/sharedStrings\.xml$/);
  } catch (error) {
    if (error instanceof ArchiveError && /no entry/.test(error.message)) return [];
    throw error;
  }
  const strings: string[] = [];
  let current: string | undefined;
  let inText = false;
  for await (const s of saxEvents<string>(file, entry.name, entry.stream, (parser, emit) => {
    parser.on('opentag', (tag) => {
      if (tag.name === 'si') current = '';
      else if (tag.name === 't') inText = true;
    });
    parser.on('text', (text) => {
      if (inText && current !== undefined) current += text;
    });
    parser.on('closetag', (tag) => {
      if (tag.name === 't') inText = false;
      else if (tag.name === 'si') {
        emit(current ?? '');
        current = undefined;
      }
    });
  }))
    strings.push(s);
  return strings;
}

/**
 * Streams the first worksheet of an `.xlsx` workbook as rows keyed by the first row's values. Only what
 * tabular data needs is understood: shared, inline and plain strings, and numbers as written.
 */
export async function* readXlsxRows(
  file: string,
  onBytes: (n: number) => void,
): AsyncGenerator<SourceRow | { header: string[] }> {
  const strings = await sharedStrings(file);
  const sheet = await openZipEntry(file, /^xl\/worksheets\/sheet1\.xml$/).catch((error: unknown) => {
    if (!(error instanceof ArchiveError) || !/no entry/.test(error.message)) throw error;
    throw new ArchiveError(`malformed workbook ${file}: it has no first sheet (xl/worksheets/sheet1.xml)`);
  });
  let header: string[] | undefined;
  let row: string[] = [];
  let rowNumber = 0;
  let cellType = '';
  let cellColumn = 0;
  let value = '';
  let inValue = false;
  // Progress is reported in bytes of the workbook on disk: scale the inflated sheet's bytes down.
  const scale = sheet.size > 0 ? (await stat(file)).size / sheet.size : 0;
  const events = saxEvents<{ line: number; values: string[] }>(
    file,
    sheet.name,
    sheet.stream,
    (parser, emit) => {
      parser.on('opentag', (tag) => {
        const attrs = tag.attributes as Record<string, string>;
        if (tag.name === 'row') {
          row = [];
          rowNumber = Number(attrs.r ?? rowNumber + 1);
        } else if (tag.name === 'c') {
          cellType = attrs.t ?? 'n';
          cellColumn = attrs.r ? columnIndex(attrs.r) : row.length;
          value = '';
        } else if (tag.name === 'v' || tag.name === 't') {
          inValue = true;
        }
      });
      parser.on('text', (text) => {
        if (inValue) value += text;
      });
      parser.on('closetag', (tag) => {
        if (tag.name === 'v' || tag.name === 't') inValue = false;
        else if (tag.name === 'c')
          row[cellColumn] = cellType === 's' ? (strings[Number(value)] ?? '') : value;
        else if (tag.name === 'row') emit({ line: rowNumber, values: row });
      });
    },
    (n) => onBytes(n * scale),
  );
  for await (const { line, values } of events) {
    if (!header) {
      header = Array.from(values, (v) => (v ?? '').trim());
      yield { header };
      continue;
    }
    if (values.every((v) => v === undefined || v === '')) continue;
    const cells: Record<string, string> = {};
    for (let i = 0; i < header.length; i++) cells[header[i]!] = values[i] ?? '';
    yield { line, cells };
  }
}
