import { createHash } from 'node:crypto';
import { createGzip } from 'node:zlib';
import type { DatasetInfo } from '../../storage/datasets.js';
import type { BulkDocument, BulkDocumentStore } from '../store/bulk-documents.js';
import type { BulkSourceStore } from '../store/bulk-sources.js';
import { BULK_DOCUMENTS, type BulkDefinition, type BulkValue } from './documents.js';

/** Stored chunks kept in memory, shared by every request (chunks never change: they are keyed by ETag). */
const CACHE_BYTES = 32 * 1024 * 1024;

/** A bounded least-recently-used cache of chunks, by ETag and number. */
function chunkCache(limit: number) {
  const chunks = new Map<string, Uint8Array>();
  let bytes = 0;
  return {
    get(key: string): Uint8Array | undefined {
      const chunk = chunks.get(key);
      if (chunk) {
        chunks.delete(key);
        chunks.set(key, chunk);
      }
      return chunk;
    },
    set(key: string, chunk: Uint8Array): void {
      if (chunk.length > limit || chunks.has(key)) return;
      chunks.set(key, chunk);
      bytes += chunk.length;
      for (const [oldest, old] of chunks) {
        if (bytes <= limit) break;
        chunks.delete(oldest);
        bytes -= old.length;
      }
    },
  };
}

/** Bumped when a document's layout changes, so documents built by an older release are built again. */
const LAYOUT = 1;
/** Bytes of gzip per stored chunk: what one request holds in memory at a time. */
const CHUNK_BYTES = 128 * 1024;

/** The pieces of a document's JSON text: each element of a top-level array (or of an object's arrays) alone. */
function* jsonPieces(value: BulkValue): Generator<string> {
  if (Array.isArray(value)) {
    yield '[';
    for (let i = 0; i < value.length; i++) yield (i === 0 ? '' : ',') + JSON.stringify(value[i]);
    yield ']';
    return;
  }
  yield '{';
  let first = true;
  for (const [key, item] of Object.entries(value)) {
    yield `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (Array.isArray(item)) yield* jsonPieces(item);
    else yield JSON.stringify(item);
  }
  yield '}';
}

interface Compressed {
  /** Quoted strong ETag: SHA-256 of the JSON text, base64url. */
  etag: string;
  bytes: number;
  gzipBytes: number;
  chunks: Uint8Array[];
}

/** Gzips a document's JSON text as it is written, cutting the output into `CHUNK_BYTES` chunks. */
async function compress(value: BulkValue): Promise<Compressed> {
  const hash = createHash('sha256');
  const gzip = createGzip({ level: 9 });
  const chunks: Uint8Array[] = [];
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let gzipBytes = 0;
  gzip.on('data', (data: Buffer) => {
    gzipBytes += data.length;
    pending.push(data);
    pendingBytes += data.length;
    while (pendingBytes >= CHUNK_BYTES) {
      const all = Buffer.concat(pending);
      chunks.push(all.subarray(0, CHUNK_BYTES));
      pending = [all.subarray(CHUNK_BYTES)];
      pendingBytes = all.length - CHUNK_BYTES;
    }
  });
  const done = new Promise<void>((resolve, reject) => {
    gzip.on('end', resolve);
    gzip.on('error', reject);
  });
  let bytes = 0;
  let batch = '';
  const write = (text: string) =>
    new Promise<void>((resolve) => {
      if (gzip.write(text)) resolve();
      else gzip.once('drain', resolve);
    });
  for (const piece of jsonPieces(value)) {
    batch += piece;
    if (batch.length >= 1 << 16) {
      hash.update(batch);
      bytes += Buffer.byteLength(batch);
      await write(batch);
      batch = '';
    }
  }
  hash.update(batch);
  bytes += Buffer.byteLength(batch);
  gzip.end(batch);
  await done;
  if (pendingBytes > 0) chunks.push(Buffer.concat(pending));
  return { etag: `"${hash.digest('base64url')}"`, bytes, gzipBytes, chunks };
}

/** The datasets a document is built from, as one comparable text (and whether any is sample data). */
function versionOf(
  definition: BulkDefinition,
  datasets: DatasetInfo[],
): { version: string; sample: boolean } {
  const used = datasets.filter((d) => definition.kinds.includes(d.kind));
  const parts = used.map((d) => `${d.kind}:${d.year}:${d.loadedAt}`).sort();
  return { version: `${LAYOUT}|${parts.join(',')}`, sample: used.some((d) => d.sample) };
}

export interface BulkBuild {
  name: string;
  year: number;
  /** Undefined: no data for the year (nothing is stored, and the document is not served). */
  document?: BulkDocument;
}

export interface BulkServiceDeps {
  documents: BulkDocumentStore;
  sources: BulkSourceStore;
  now: () => number;
}

/**
 * Bulk documents as a self-hosted object store: each built once per data load and stored compressed with
 * its ETag; a document whose datasets changed since it was built is built again before it is served.
 */
export function createBulkService({ documents, sources, now }: BulkServiceDeps) {
  // One build of a document at a time in this process: concurrent requests after a load wait for it.
  const building = new Map<string, Promise<BulkBuild>>();
  // The last answer for each document by version: a request after it reads no row to learn the ETag.
  const known = new Map<string, { version: string; build: BulkBuild }>();
  // PostgreSQL sends bytea as hex text: reading 128 KiB chunks per request would cost more than sending them.
  const cache = chunkCache(CACHE_BYTES);

  async function build(
    definition: BulkDefinition,
    year: number,
    datasets: DatasetInfo[],
  ): Promise<BulkBuild> {
    const started = performance.now();
    const { version, sample } = versionOf(definition, datasets);
    const value = await definition.build(sources, year);
    if (value === undefined) {
      await documents.deleteDocument(definition.name, year);
      return { name: definition.name, year };
    }
    const compressed = await compress(value);
    const document: BulkDocument = {
      name: definition.name,
      year,
      etag: compressed.etag,
      version,
      sample,
      bytes: compressed.bytes,
      gzipBytes: compressed.gzipBytes,
      chunks: compressed.chunks.length,
      builtAt: now(),
      buildMs: Math.round(performance.now() - started),
    };
    await documents.saveDocument(document, compressed.chunks);
    return { name: definition.name, year, document };
  }

  return {
    /**
     * The stored document, built first when missing or stale; undefined when the year has no data for
     * it.
     */
    async current(
      definition: BulkDefinition,
      year: number,
      datasets: DatasetInfo[],
    ): Promise<BulkDocument | undefined> {
      const key = `${definition.name}|${year}`;
      const { version } = versionOf(definition, datasets);
      const cached = known.get(key);
      if (cached?.version === version) return cached.build.document;
      const stored = await documents.findDocument(definition.name, year);
      if (stored?.version === version) {
        known.set(key, { version, build: { name: definition.name, year, document: stored } });
        return stored;
      }
      let pending = building.get(key);
      if (!pending) {
        pending = build(definition, year, datasets).finally(() => building.delete(key));
        building.set(key, pending);
      }
      const result = await pending;
      known.set(key, { version, build: result });
      return result.document;
    },

    /** Builds every document of `years` whose datasets changed since it was built (after an ingest). */
    async refresh(years: readonly number[], datasets: DatasetInfo[]): Promise<BulkBuild[]> {
      const built: BulkBuild[] = [];
      for (const year of years) {
        for (const definition of BULK_DOCUMENTS) {
          const { version } = versionOf(definition, datasets);
          const stored = await documents.findDocument(definition.name, year);
          if (stored?.version === version) continue;
          built.push(await build(definition, year, datasets));
        }
      }
      return built;
    },

    /**
     * A document's gzip bytes, one stored chunk at a time (a reader holds one chunk, never the whole
     * document), from the bounded cache of recently read chunks or the database. A build that replaces
     * the document meanwhile ends the stream with an error rather than splice two versions.
     */
    async *gzipBytes(document: BulkDocument): AsyncGenerator<Uint8Array> {
      for (let seq = 0; seq < document.chunks; seq++) {
        const key = `${document.etag}:${seq}`;
        let chunk = cache.get(key);
        if (!chunk) {
          chunk = await documents.readChunk(document.etag, seq);
          if (!chunk)
            throw new Error(`bulk data ${document.name} ${document.year} was rebuilt while it was read`);
          cache.set(key, chunk);
        }
        yield chunk;
      }
    },
  };
}

export type BulkService = ReturnType<typeof createBulkService>;
