/**
 * Rows a process keeps between writes, for lookups every request makes (an API key, an OAuth client).
 *
 * With `changeCounter` (SQLite's `PRAGMA data_version`, see connect.ts) a value read is kept until anybody
 * else commits to the database, and every write through this process's store forgets everything kept: a row
 * changed by the CLI or by another instance is read afresh from the next request on, as without the cache.
 * Without a counter (PostgreSQL) nothing is kept and every lookup reads.
 */
export interface KeptReads<V> {
  /** The value kept for `key`, or what `read` gives (kept when no write happened meanwhile). */
  get(key: string, read: () => Promise<V>): Promise<V>;
  /** Forgets every value: call after each write to the table. */
  forget(): void;
}

interface Kept {
  values: Map<string, unknown>;
  version: number | undefined;
  writes: number;
}

/** Per database handle and table, so every store instance over one connection sees the others' writes. */
const keptPerDb = new WeakMap<object, Map<string, Kept>>();

const MAX_KEPT = 10_000;

export function keptReads<V>(
  db: object,
  table: string,
  changeCounter: (() => number) | undefined,
): KeptReads<V> {
  let tables = keptPerDb.get(db);
  if (!tables) keptPerDb.set(db, (tables = new Map()));
  let kept = tables.get(table);
  if (!kept) tables.set(table, (kept = { values: new Map(), version: undefined, writes: 0 }));
  const shared = kept;
  return {
    async get(key, read) {
      if (changeCounter) {
        const version = changeCounter();
        if (version !== shared.version) {
          shared.values.clear();
          shared.version = version;
        }
        if (shared.values.has(key)) return shared.values.get(key) as V;
      }
      const writes = shared.writes;
      const value = await read();
      // Not kept when this process wrote meanwhile: the row read may be the one before the write.
      if (changeCounter && shared.writes === writes) {
        if (shared.values.size >= MAX_KEPT) shared.values.clear();
        shared.values.set(key, value);
      }
      return value;
    },
    forget() {
      shared.values.clear();
      shared.writes += 1;
    },
  };
}
