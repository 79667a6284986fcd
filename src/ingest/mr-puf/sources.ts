import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { IngestError } from '../engine/report.js';
import { FetchError, fetchJson, fetchStream, type FetchOptions } from './fetch.js';
import { jsonArrayElements } from './json-array.js';
import { recordKind } from './records.js';

export type FileKind = 'plans' | 'drugs' | 'providers';

/** One data file of an issuer: where it is read from, and what it holds. */
export interface Source {
  /** The path or URL, as reports name it. */
  name: string;
  kind: FileKind;
  remote: boolean;
  open(): Promise<Readable>;
}

/** The index document of the CMS schema: the URLs of an issuer's files. */
const INDEX_LISTS: [key: string, kind: FileKind][] = [
  ['plan_urls', 'plans'],
  ['formulary_urls', 'drugs'],
  ['provider_urls', 'providers'],
];

const MAX_INDEX_BYTES = 16 * 1024 * 1024;

export const isUrl = (name: string) => /^https?:\/\//i.test(name);

function indexSources(
  index: unknown,
  name: string,
  locate: (url: string) => Source['open'],
  remote: boolean,
) {
  const lists = INDEX_LISTS.map(([key]) => key);
  if (
    typeof index !== 'object' ||
    index === null ||
    Array.isArray(index) ||
    !lists.some((key) => key in index)
  ) {
    throw new IngestError(
      `${name}: neither an index (an object with ${lists.join(', ')}) nor a JSON array of plans, drugs or providers`,
    );
  }
  const sources: Source[] = [];
  for (const [key, kind] of INDEX_LISTS) {
    const urls = (index as Record<string, unknown>)[key] ?? [];
    if (!Array.isArray(urls) || urls.some((u) => typeof u !== 'string'))
      throw new IngestError(`${name}: "${key}" must be an array of URLs`);
    for (const url of urls as string[]) {
      const target = remote ? new URL(url, name).href : url;
      sources.push({ name: target, kind, remote, open: locate(target) });
    }
  }
  if (!sources.some((s) => s.kind === 'plans'))
    throw new IngestError(`${name}: the index lists no plan_urls`);
  return sources;
}

/** The first non-blank character of a local file: `{` for an index, `[` for a data file. */
async function firstCharacter(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    return buffer
      .toString('utf8', 0, bytesRead)
      .replace(/^\uFEFF/, '')
      .trimStart()
      .charAt(0);
  } finally {
    await handle.close();
  }
}

/** The kind of a local data file, from its first element. */
async function kindOfFile(path: string): Promise<FileKind> {
  for await (const { value } of jsonArrayElements(createReadStream(path), path)) {
    const kind = recordKind(value);
    if (kind) return kind;
    break;
  }
  throw new IngestError(
    `${path}: neither plans, drugs nor providers (its first element has no plan_id, rxnorm_id or npi)`,
  );
}

/**
 * The files of a load: local data files (their kind read from their first element), a local index (each
 * URL it lists is the file of the same name beside it), or an index URL (every file fetched).
 */
export async function resolveSources(inputs: string[], fetching: FetchOptions): Promise<Source[]> {
  const sources: Source[] = [];
  for (const input of inputs) {
    if (isUrl(input)) {
      const index = await fetchJson(input, fetching).catch((error: unknown) => {
        if (error instanceof FetchError) throw new IngestError(`${error.message}; nothing was stored`);
        throw error;
      });
      sources.push(...indexSources(index, input, (url) => () => fetchStream(url, fetching), true));
      continue;
    }
    if ((await stat(input)).isDirectory())
      throw new IngestError(`${input} is a directory; give its index.json or data files`);
    if ((await firstCharacter(input)) === '{') {
      // An index lists a few URLs: read whole, unlike the data files (an object of gigabytes is not one).
      if ((await stat(input)).size > MAX_INDEX_BYTES)
        throw new IngestError(`${input}: not a JSON array, and too large for an index`);
      let index: unknown;
      try {
        index = JSON.parse(await readFile(input, 'utf8'));
      } catch (error) {
        throw new IngestError(`${input}: malformed JSON (${(error as Error).message})`);
      }
      const beside = (url: string) => join(dirname(input), basename(new URL(url, 'file:///').pathname));
      const local = indexSources(index, input, (url) => async () => createReadStream(beside(url)), false);
      sources.push(...local.map((s) => ({ ...s, name: beside(s.name) })));
      continue;
    }
    const path = input;
    sources.push({
      name: path,
      kind: await kindOfFile(path),
      remote: false,
      open: async () => createReadStream(path),
    });
  }
  return sources;
}
