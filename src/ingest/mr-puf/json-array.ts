import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** A JSON file that is not what its reader expects: malformed, cut short, or not an array. */
export class JsonShapeError extends Error {}

const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xfeff;

/**
 * The elements of a JSON array, one at a time, from a stream: a scanner finds where each top-level element
 * begins and ends (tracking nesting and strings), and the element's text is parsed by `JSON.parse`. A file
 * of gigabytes is never held whole, only the element being read; `position` is its 1-based place.
 *
 * It replaces stream-json's token stream here: that builds every value from per-token events through three
 * stream stages and read a providers file well below the 20 MB/s the issue asks for; the native parser
 * reads each element far faster (figures in bench/RESULTS.md).
 */
export async function* jsonArrayElements(
  input: Readable,
  name: string,
): AsyncGenerator<{ position: number; value: unknown }> {
  const decoder = new StringDecoder('utf8');
  let state: 'before' | 'between' | 'inside' | 'after' = 'before';
  let depth = 0;
  let inString = false;
  let position = 0;
  /** Text of the element being read that came in earlier chunks. */
  let carried = '';
  let parsed: { position: number; value: unknown }[] = [];
  /** The end of the last chunk, read again with the next one (backslashes that may escape its start). */
  let leftover = '';
  const fail = (problem: string) => new JsonShapeError(`${name}: malformed JSON (${problem})`);
  const finish = (text: string) => {
    position += 1;
    try {
      parsed.push({ position, value: JSON.parse(text) });
    } catch (error) {
      throw fail(`element ${position}: ${(error as Error).message}`);
    }
  };

  const scan = (text: string) => {
    let start = 0;
    let i = 0;
    const n = text.length;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (state === 'inside') {
        if (inString) {
          // The closing quote: the next one not escaped by an odd number of backslashes.
          let q = text.indexOf('"', i);
          while (q !== -1) {
            let slashes = 0;
            for (let k = q - 1; k >= 0 && text.charCodeAt(k) === BACKSLASH; k--) slashes++;
            if (slashes % 2 === 0) break;
            q = text.indexOf('"', q + 1);
          }
          if (q === -1) {
            // The chunk ends inside a string: a run of backslashes at its end escapes what comes next,
            // so it is read again with the next chunk.
            let slashes = 0;
            while (slashes < n - i && text.charCodeAt(n - 1 - slashes) === BACKSLASH) slashes++;
            carried += text.slice(start, n - slashes);
            leftover = text.slice(n - slashes);
            return;
          }
          inString = false;
          i = q + 1;
          continue;
        }
        if (c === QUOTE) inString = true;
        else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
        else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
          if (depth === 0) {
            // A primitive element ends at the array's close.
            finish(carried + text.slice(start, i));
            carried = '';
            state = 'after';
            i++;
            continue;
          }
          depth--;
          if (depth === 0) {
            finish(carried + text.slice(start, i + 1));
            carried = '';
            state = 'between';
          }
        } else if (c === COMMA && depth === 0) {
          finish(carried + text.slice(start, i));
          carried = '';
          state = 'between';
          continue;
        }
        i++;
        continue;
      }
      if (isSpace(c)) {
        i++;
        continue;
      }
      if (state === 'before') {
        if (c !== OPEN_BRACKET) throw new JsonShapeError(`${name}: the file is not a JSON array`);
        state = 'between';
        i++;
        continue;
      }
      if (state === 'after') throw fail('text after the array');
      // Between elements: a comma, the close, or the start of the next element.
      if (c === COMMA) {
        i++;
        continue;
      }
      if (c === CLOSE_BRACKET) {
        state = 'after';
        i++;
        continue;
      }
      state = 'inside';
      start = i;
      depth = 0;
      if (c === QUOTE) inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth = 1;
      i++;
    }
    if (state === 'inside') carried += text.slice(start);
  };

  try {
    for await (const chunk of input) {
      const text = leftover + decoder.write(chunk as Buffer);
      leftover = '';
      scan(text);
      if (parsed.length > 0) {
        const ready = parsed;
        parsed = [];
        yield* ready;
      }
    }
    scan(leftover + decoder.end());
    yield* parsed;
    if (state === 'before') throw new JsonShapeError(`${name}: the file is not a JSON array`);
    if (state !== 'after') throw fail(`the file ends inside the array, after element ${position}`);
  } finally {
    input.destroy();
  }
}
