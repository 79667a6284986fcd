import type { Readable } from 'node:stream';
import Parser from 'stream-json/Parser.js';
import StreamArray from 'stream-json/streamers/StreamArray.js';

/** A JSON file that is not what its reader expects: malformed, cut short, or not an array. */
export class JsonShapeError extends Error {}

/**
 * The elements of a JSON array, one at a time, parsed from a stream (stream-json): a file of gigabytes
 * is never held whole, only the element being read. `position` is the element's 1-based place.
 */
export async function* jsonArrayElements(
  input: Readable,
  name: string,
): AsyncGenerator<{ position: number; value: unknown }> {
  const parser = new Parser();
  const elements = new StreamArray();
  input.on('error', (error) => parser.destroy(error));
  parser.on('error', (error) => elements.destroy(error));
  input.pipe(parser).pipe(elements);
  try {
    for await (const { key, value } of elements as AsyncIterable<{ key: number; value: unknown }>) {
      yield { position: key + 1, value };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).syscall !== undefined) throw error;
    const message = (error as Error).message;
    throw new JsonShapeError(
      /Top-level object should be an array/.test(message)
        ? `${name}: the file is not a JSON array`
        : `${name}: malformed JSON (${message})`,
    );
  } finally {
    input.destroy();
  }
}
