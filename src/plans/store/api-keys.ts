import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sha256 } from '../../shared/crypto.js';
import { instant } from '../../storage/columns.js';
import type { Database } from '../../storage/schema.js';

export interface ApiKey {
  id: string;
  name: string;
  perSecond: number;
  perMinute: number;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
}

export interface NewApiKey {
  name: string;
  perSecond: number;
  perMinute: number;
  expiresAt: number | null;
  /** A chosen key (the sandbox's well-known key); otherwise 128 random bits as 32 hex digits. */
  key?: string;
  /** A chosen id (the sandbox key's is fixed so every instance agrees on it). */
  id?: string;
}

function toKey(row: Database['api_keys']): ApiKey {
  return {
    id: row.id,
    name: row.name,
    perSecond: Number(row.per_second),
    perMinute: Number(row.per_minute),
    createdAt: Number(row.created_at),
    expiresAt: instant(row.expires_at),
    revokedAt: instant(row.revoked_at),
  };
}

/** Keys kept per process between writes (hash → key, or undefined for a key that does not exist). */
const MAX_KEPT = 10_000;

/**
 * Per database handle: what its key stores have read, and the write count of every store over it — so a
 * write through one store instance is seen by the others over the same connection.
 */
const kept = new WeakMap<
  Kysely<Database>,
  { keys: Map<string, ApiKey | undefined>; version: number | undefined; writes: number }
>();

/**
 * Plan-API keys, stored as SHA-256 of the key: the key itself is shown once, when created.
 *
 * Every plan-API request looks its key up. With `changeCounter` (SQLite's `PRAGMA data_version`, see
 * storage/connect.ts) the keys read are kept until anybody else commits to the database, and every write
 * here forgets them: a key revoked by the CLI or another instance is refused from the next request on,
 * as without the cache. `api_keys` is written only through this store. Without a counter (PostgreSQL)
 * every lookup reads the row.
 */
export function createApiKeyStore(db: Kysely<Database>, changeCounter?: () => number) {
  const findByHash = db.selectFrom('api_keys').selectAll().where('key_hash', '=', '').compile();
  let cache = kept.get(db);
  if (!cache) {
    cache = { keys: new Map(), version: undefined, writes: 0 };
    kept.set(db, cache);
  }
  const shared = cache;
  const forget = () => {
    shared.keys.clear();
    shared.writes += 1;
  };
  return {
    async createKey(input: NewApiKey, now: number): Promise<{ key: string; record: ApiKey }> {
      const key = input.key ?? randomBytes(16).toString('hex');
      const row = {
        id: input.id ?? `key_${randomBytes(6).toString('hex')}`,
        name: input.name,
        key_hash: sha256(key),
        per_second: input.perSecond,
        per_minute: input.perMinute,
        created_at: now,
        expires_at: input.expiresAt,
        revoked_at: null,
      };
      await db.insertInto('api_keys').values(row).execute();
      forget();
      return { key, record: toKey(row) };
    },

    /**
     * Creates or replaces the key with this id (hash, limits, live again): several instances may start at
     * once, and each leaves the same row.
     */
    async putKey(input: NewApiKey & { id: string; key: string }, now: number): Promise<void> {
      const values = {
        name: input.name,
        key_hash: sha256(input.key),
        per_second: input.perSecond,
        per_minute: input.perMinute,
        expires_at: input.expiresAt,
        revoked_at: null,
      };
      await db
        .insertInto('api_keys')
        .values({ id: input.id, created_at: now, ...values })
        .onConflict((oc) => oc.column('id').doUpdateSet(values))
        .execute();
      forget();
    },

    async deleteKey(id: string): Promise<void> {
      await db.deleteFrom('api_keys').where('id', '=', id).execute();
      forget();
    },

    /** The key a request presents, if it exists at all (the caller checks revocation and expiry). */
    async findKey(key: string): Promise<ApiKey | undefined> {
      const hash = sha256(key);
      if (changeCounter) {
        const version = changeCounter();
        if (version !== shared.version) {
          shared.keys.clear();
          shared.version = version;
        }
        if (shared.keys.has(hash)) return shared.keys.get(hash);
      }
      const writes = shared.writes;
      // The query is built and compiled once, then run with the hash.
      const { rows } = await db.executeQuery<Database['api_keys']>({ ...findByHash, parameters: [hash] });
      const found = rows[0] ? toKey(rows[0]) : undefined;
      // Not kept when this process wrote a key meanwhile: the row read may be the one before the write.
      if (changeCounter && shared.writes === writes) {
        if (shared.keys.size >= MAX_KEPT) shared.keys.clear();
        shared.keys.set(hash, found);
      }
      return found;
    },

    async listKeys(): Promise<ApiKey[]> {
      const rows = await db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id').execute();
      return rows.map(toKey);
    },

    /** Revokes by id; false when there is no such live key. */
    async revokeKey(id: string, now: number): Promise<boolean> {
      const result = await db
        .updateTable('api_keys')
        .set({ revoked_at: now })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      forget();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

export type ApiKeyStore = ReturnType<typeof createApiKeyStore>;
