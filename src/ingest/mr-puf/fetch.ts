import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

export interface FetchOptions {
  /** How long to wait for the answer's headers, and then between two chunks of its body. */
  timeoutMs: number;
  /** Tries for a network error, a timeout or a 5xx answer, with a doubling pause between them. */
  attempts: number;
}

export const DEFAULT_FETCH: FetchOptions = { timeoutMs: 30_000, attempts: 3 };

/** A URL that could not be read, with why (for the list of every URL that failed). */
export class FetchError extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`${url}: ${reason}`);
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The body of `url` as a stream, never whole in memory. A body that stops for longer than the timeout
 * fails the stream; what failed before the body began is retried.
 */
export async function fetchStream(url: string, options: FetchOptions): Promise<Readable> {
  let reason = '';
  for (let attempt = 1; attempt <= options.attempts; attempt += 1) {
    if (attempt > 1) await pause(200 * 2 ** (attempt - 2));
    const controller = new AbortController();
    const timeout = () =>
      setTimeout(() => controller.abort(new Error(`no data for ${options.timeoutMs} ms`)), options.timeoutMs);
    let timer = timeout();
    let response: Response;
    try {
      response = await fetch(url, { signal: controller.signal, redirect: 'follow' });
    } catch (error) {
      clearTimeout(timer);
      const cause = (error as Error & { cause?: Error }).cause;
      reason = controller.signal.aborted
        ? `no answer within ${options.timeoutMs} ms`
        : (cause?.message ?? (error as Error).message);
      continue;
    }
    if (!response.ok || !response.body) {
      clearTimeout(timer);
      await response.body?.cancel();
      reason = `HTTP ${response.status}`;
      if (response.status >= 500) continue;
      throw new FetchError(url, reason);
    }
    const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
    body.on('data', () => {
      clearTimeout(timer);
      timer = timeout();
    });
    body.on('close', () => clearTimeout(timer));
    return body;
  }
  throw new FetchError(url, `${reason} (${options.attempts} attempts)`);
}

/** An index lists a few URLs; a larger answer is not one (and is not held in memory). */
const MAX_JSON_BYTES = 16 * 1024 * 1024;

/** A small JSON document (an index) read whole. */
export async function fetchJson(url: string, options: FetchOptions): Promise<unknown> {
  const body = await fetchStream(url, options);
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of body) {
      bytes += (chunk as Buffer).length;
      if (bytes > MAX_JSON_BYTES) throw new Error(`larger than ${MAX_JSON_BYTES} bytes: not an index`);
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    body.destroy();
    throw new FetchError(url, (error as Error).message);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new FetchError(url, 'not JSON');
  }
}
