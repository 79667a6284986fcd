import { IngestError } from '../engine/report.js';
import type { KindLoad } from '../engine/kind.js';
import { FetchError } from './fetch.js';
import { jsonArrayElements, JsonShapeError } from './json-array.js';
import type { Source } from './sources.js';

/**
 * Reads the elements of a load's files. A local file that cannot be parsed ends the load at once; a URL
 * that fails is noted and the load goes on, so that its error names every URL that failed. Once one has
 * failed nothing will be stored, so each URL after it is only asked for (does it answer?), not read.
 */
export function createSourceReader(load: KindLoad) {
  const failed: string[] = [];

  const noteFailure = (source: Source, error: unknown) => {
    if (error instanceof FetchError || error instanceof JsonShapeError) failed.push(error.message);
    else failed.push(`${source.name}: ${(error as Error).message}`);
  };

  async function* elements(source: Source): AsyncGenerator<{ position: number; value: unknown }> {
    load.reading(source.name);
    if (failed.length > 0) {
      if (source.remote)
        await source.open().then(
          (body) => body.destroy(),
          (e) => noteFailure(source, e),
        );
      return;
    }
    try {
      const input = await source.open();
      input.on('data', (chunk: Buffer) => load.progress(chunk.length));
      for await (const element of jsonArrayElements(input, source.name)) {
        load.read();
        yield element;
      }
    } catch (error) {
      if (source.remote && !(error instanceof IngestError)) noteFailure(source, error);
      else if (error instanceof JsonShapeError) throw new IngestError(`${error.message}; nothing was stored`);
      else throw error;
    }
  }

  return {
    elements,
    /** Whether a URL has failed (the load will store nothing). */
    failedAny: () => failed.length > 0,
    /** Ends the load with every URL that failed, and why. */
    throwIfFailed(): void {
      if (failed.length === 0) return;
      throw new IngestError(
        `${failed.length} file${failed.length > 1 ? 's' : ''} could not be read; nothing was stored:\n  ` +
          failed.join('\n  '),
      );
    },
  };
}
