/**
 * Resource bodies this process has read from PostgreSQL, each kept under the version of the row it came
 * from (docs/decisions.md#fhir-body-cache). Every read still asks the database for the row, its owner and
 * its version; only the body, tens of kilobytes of JSON, is left out of the answer when the version the
 * process holds is still the row's. A body is therefore never served for a row that changed, was deleted
 * or belongs to someone else, on whichever instance the change was made.
 *
 * A body a page or a read serves is also kept encoded as UTF-8, made at its first such use, so that later
 * answers splice or send its bytes instead of encoding the same text again.
 *
 * The least recently used bodies go first once what is kept passes `maxChars`: the text's characters and
 * the encoded copies' bytes (JSON is ASCII but for the odd name, so about one byte per character).
 */
export interface CachedBody {
  version: string;
  body: string;
  /** `body` as UTF-8 (`bytesOf`), once a page or a read has served it. */
  bytes?: Buffer;
}

/** What an entry adds to the cache's size. */
const sizeOf = (entry: CachedBody) => entry.body.length + (entry.bytes?.length ?? 0);

export interface BodyCacheStats {
  hits: number;
  misses: number;
  bodies: number;
  chars: number;
}

export class BodyCache {
  private readonly entries = new Map<string, CachedBody>();
  private chars = 0;
  private hits = 0;
  private misses = 0;

  constructor(readonly maxChars: number) {}

  /** The body kept for the resource, whatever its version (the caller compares). */
  get(resourceType: string, id: string): CachedBody | undefined {
    const key = `${resourceType}/${id}`;
    const entry = this.entries.get(key);
    if (entry) {
      // Most recently used last: Map keeps insertion order.
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** Counts `n` bodies served from the cache (`hit`) or read from the database. */
  count(hit: boolean, n = 1): void {
    if (hit) this.hits += n;
    else this.misses += n;
  }

  set(resourceType: string, id: string, version: string, body: string): void {
    const key = `${resourceType}/${id}`;
    const old = this.entries.get(key);
    if (old) {
      this.chars -= sizeOf(old);
      this.entries.delete(key);
    }
    if (body.length > this.maxChars) return;
    this.entries.set(key, { version, body });
    this.chars += body.length;
    this.evict();
  }

  /**
   * The kept body of the resource as UTF-8, encoded at its first call, when `body` is the text kept for it
   * (the same string a read just took from this cache or put into it); undefined otherwise. Like `get`, it
   * makes the entry the most recently used.
   */
  bytesOf(resourceType: string, id: string, body: string): Buffer | undefined {
    const entry = this.get(resourceType, id);
    if (entry?.body !== body) return undefined;
    if (!entry.bytes) {
      const length = Buffer.byteLength(body);
      // Text and bytes together larger than the whole cache: served as text.
      if (body.length + length > this.maxChars) return undefined;
      // A buffer of its own: a small one from Node's shared pool would keep the whole pool block alive.
      entry.bytes = Buffer.allocUnsafeSlow(length);
      entry.bytes.write(body);
      this.chars += length;
      this.evict();
    }
    return entry.bytes;
  }

  /** Drops the least recently used entries until what is kept fits. */
  private evict(): void {
    for (const [oldest, entry] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.entries.delete(oldest);
      this.chars -= sizeOf(entry);
    }
  }

  stats(): BodyCacheStats {
    return { hits: this.hits, misses: this.misses, bodies: this.entries.size, chars: this.chars };
  }
}
