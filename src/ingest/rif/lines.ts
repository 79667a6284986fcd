import { createReadStream } from 'node:fs';

/** Consecutive lines of a file: the 1-based number of the first and their texts (without line endings). */
export interface LineChunk {
  first: number;
  texts: string[];
}

/**
 * Streams a UTF-8 text file as chunks of lines (one per read of about a megabyte: a RIF file has millions
 * of lines, and an await per line costs more than the line's reading), a byte-order mark removed;
 * `onBytes` hears the bytes of the file consumed.
 */
export async function* readLineChunks(file: string, onBytes: (n: number) => void): AsyncGenerator<LineChunk> {
  const input = createReadStream(file, { highWaterMark: 1 << 20 });
  let rest = '';
  let next = 1;
  const decoder = new TextDecoder('utf-8');
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      onBytes(chunk.length);
      const text = rest + decoder.decode(chunk, { stream: true });
      const end = text.lastIndexOf('\n');
      if (end === -1) {
        rest = text;
        continue;
      }
      rest = text.slice(end + 1);
      const texts = split(text.slice(0, end), next === 1);
      yield { first: next, texts };
      next += texts.length;
    }
    const last = rest + decoder.decode();
    if (last !== '') yield { first: next, texts: split(last, next === 1) };
  } finally {
    input.destroy();
  }
}

/** Lines of `text` (which ends before a line break), `\r` endings and, at the file's start, a BOM removed. */
function split(text: string, start: boolean): string[] {
  const texts = (start ? text.replace(/^\uFEFF/, '') : text).split('\n');
  for (let i = 0; i < texts.length; i++) {
    const line = texts[i]!;
    if (line.endsWith('\r')) texts[i] = line.slice(0, -1);
  }
  return texts;
}
