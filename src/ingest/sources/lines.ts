import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** Streams a text file's non-empty lines with their 1-based numbers; `onBytes` hears the bytes read. */
export async function* readLines(
  file: string,
  onBytes: (n: number) => void,
): AsyncGenerator<{ line: number; text: string }> {
  const input = createReadStream(file, { highWaterMark: 1 << 20 });
  input.on('data', (chunk) => onBytes(chunk.length));
  const lines = createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  try {
    for await (const text of lines) {
      line += 1;
      if (text !== '') yield { line, text: line === 1 ? text.replace(/^\uFEFF/, '') : text };
    }
  } finally {
    lines.close();
    input.destroy();
  }
}
