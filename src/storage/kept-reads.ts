import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Rows a process keeps between writes, for lookups every request makes (an API key, an OAuth client, the
 * ID-token signing keys).
 *
 * With `changeCounter` (SQLite's `PRAGMA data_version`, see connect.ts) a value read is kept until anybody
 * else commits to the database, and every write through this process's store forgets everything kept: a row
 * changed by the CLI or by another instance is read afresh from the next request on, as without the cache.
 *
 * Without a counter (PostgreSQL has no cheap equivalent) a store may ask for leases
 * (docs/decisions.md#kept-reads-on-postgresql): a value is kept for `leaseMs` from the moment its read was
 * sent, and a write through the store (`written`) returns only once every lease another process may hold on
 * the old row has run out. Whoever made the change — the CLI, another instance, the portal — learns that it
 * is done only when no instance can still answer from the old row, so anything that follows the change is
 * answered from the new one. Only rows that exist are kept this way: a new row is found at once. Without a
 * counter or a lease nothing is kept and every lookup reads.
 */
export interface KeptReads<V> {
  /** The value kept for `key`, or what `read` gives (kept when no write happened meanwhile). */
  get(key: string, read: () => Promise<V>): Promise<V>;
  /** What `read` gives now, kept in place of what was kept for `key` (when no write happened meanwhile). */
  reread(key: string, read: () => Promise<V>): Promise<V>;
  /**
   * Forgets every value, or only `key`'s: call after each write to the table (with the key when the write
   * changed only that row).
   */
  forget(key?: string): void;
  /**
   * Forgets every value and, under leases, waits until no other process can still hold a value read
   * before the write: call after each committed write that changes or removes a row, before answering.
   */
  written(): Promise<void>;
}

export interface KeptReadsOptions {
  /** Without a change counter: how long a value is kept, counted from when its read was sent. */
  leaseMs?: number;
}

interface Entry {
  value: unknown;
  /** `performance.now()` after which the value may no longer be used. */
  until: number;
}

interface Kept {
  values: Map<string, Entry>;
  version: number | undefined;
  writes: number;
}

/** Per database handle and table, so every store instance over one connection sees the others' writes. */
const keptPerDb = new WeakMap<object, Map<string, Kept>>();

const MAX_KEPT = 10_000;

/**
 * A writer waits a little longer than the lease: another process measures its lease on its own clock, and
 * clocks of one machine, or of machines kept by NTP, run at rates that differ by far less than this.
 */
const LEASE_MARGIN_MS = 5;

export function keptReads<V>(
  db: object,
  table: string,
  changeCounter: (() => number) | undefined,
  options: KeptReadsOptions = {},
): KeptReads<V> {
  let tables = keptPerDb.get(db);
  if (!tables) keptPerDb.set(db, (tables = new Map()));
  let kept = tables.get(table);
  if (!kept) tables.set(table, (kept = { values: new Map(), version: undefined, writes: 0 }));
  const shared = kept;
  const leaseMs = changeCounter ? undefined : options.leaseMs;
  const forget = (key?: string) => {
    if (key === undefined) shared.values.clear();
    else shared.values.delete(key);
    shared.writes += 1;
  };
  const lookup = async (key: string, read: () => Promise<V>, useKept: boolean): Promise<V> => {
    if (changeCounter) {
      const version = changeCounter();
      if (version !== shared.version) {
        shared.values.clear();
        shared.version = version;
      }
    }
    const sent = performance.now();
    if (useKept && (changeCounter || leaseMs)) {
      const entry = shared.values.get(key);
      if (entry && sent < entry.until) return entry.value as V;
    }
    const writes = shared.writes;
    const value = await read();
    // Not kept when this process wrote meanwhile: the row read may be the one before the write.
    const keep = changeCounter ? true : leaseMs !== undefined && value !== undefined;
    if (keep && shared.writes === writes) {
      if (shared.values.size >= MAX_KEPT) shared.values.clear();
      shared.values.set(key, { value, until: leaseMs === undefined ? Infinity : sent + leaseMs });
    }
    return value;
  };
  return {
    get: (key, read) => lookup(key, read, true),
    reread: (key, read) => lookup(key, read, false),
    forget,
    async written() {
      forget();
      if (leaseMs) await sleep(leaseMs + LEASE_MARGIN_MS);
    },
  };
}
