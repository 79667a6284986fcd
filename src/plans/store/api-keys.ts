import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sha256 } from '../../shared/crypto.js';
import { instant } from '../../storage/columns.js';
import { keptReads } from '../../storage/kept-reads.js';
import { preparedQuery } from '../../storage/prepared.js';
import type { Database } from '../../storage/schema.js';

export interface ApiKey {
  id: string;
  name: string;
  perSecond: number;
  perMinute: number;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
  /** The developer who created it in the portal (docs/portal.md#keys); null for the CLI's. */
  developerId: string | null;
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
  developerId?: string;
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
    developerId: row.developer_id,
  };
}

/**
 * Plan-API keys, stored as SHA-256 of the key: the key itself is shown once, when created.
 *
 * Every plan-API request looks its key up: the keys read are kept between writes (storage/kept-reads.ts),
 * so a key revoked by the CLI or another instance is refused from the next request on. `api_keys` is
 * written only through this store, and each write here forgets what was kept; on PostgreSQL a key is kept
 * for `KEY_LEASE_MS` and a write that changes or removes a key returns once no instance can still use
 * the old row (docs/decisions.md#kept-reads-on-postgresql).
 */
/**
 * How long an instance on PostgreSQL answers from a key it read: a revocation waits this long before it
 * is confirmed. At thousands of requests a second, a key is read about twice a second per instance.
 */
export const KEY_LEASE_MS = 500;

export function createApiKeyStore(db: Kysely<Database>, changeCounter?: () => number) {
  const findByHash = preparedQuery<'hash', Database['api_keys']>(db, (p) =>
    db.selectFrom('api_keys').selectAll().where('key_hash', '=', p('hash')),
  );
  const kept = keptReads<ApiKey | undefined>(db, 'api_keys', changeCounter, { leaseMs: KEY_LEASE_MS });
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
        developer_id: input.developerId ?? null,
      };
      await db.insertInto('api_keys').values(row).execute();
      kept.forget();
      return { key, record: toKey(row) };
    },

    /**
     * Creates or replaces the key with this id (hash, limits, live again): several instances may start at
     * once, and each leaves the same row. A start that finds the row as it would write it writes nothing.
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
      const stored = await db
        .selectFrom('api_keys')
        .select(['name', 'key_hash', 'per_second', 'per_minute', 'expires_at', 'revoked_at'])
        .where('id', '=', input.id)
        .executeTakeFirst();
      const current = stored && {
        ...stored,
        per_second: Number(stored.per_second),
        per_minute: Number(stored.per_minute),
        expires_at: instant(stored.expires_at),
        revoked_at: instant(stored.revoked_at),
      };
      const fields = Object.keys(values) as (keyof typeof values)[];
      if (current && fields.every((k) => current[k] === values[k])) return;
      await db
        .insertInto('api_keys')
        .values({ id: input.id, created_at: now, ...values })
        .onConflict((oc) => oc.column('id').doUpdateSet(values))
        .execute();
      if (stored) await kept.written();
      else kept.forget();
    },

    async deleteKey(id: string): Promise<void> {
      const result = await db.deleteFrom('api_keys').where('id', '=', id).executeTakeFirst();
      if (result.numDeletedRows > 0n) await kept.written();
      else kept.forget();
    },

    /** The key a request presents, if it exists at all (the caller checks revocation and expiry). */
    async findKey(key: string): Promise<ApiKey | undefined> {
      const hash = sha256(key);
      return kept.get(hash, async () => {
        const { rows } = await findByHash({ hash });
        return rows[0] ? toKey(rows[0]) : undefined;
      });
    },

    /** Every key, or those one portal developer created. */
    async listKeys(developerId?: string): Promise<ApiKey[]> {
      let query = db.selectFrom('api_keys').selectAll();
      if (developerId !== undefined) query = query.where('developer_id', '=', developerId);
      const rows = await query.orderBy('created_at').orderBy('id').execute();
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
      const revoked = Number(result.numUpdatedRows) > 0;
      if (revoked) await kept.written();
      else kept.forget();
      return revoked;
    },
  };
}

export type ApiKeyStore = ReturnType<typeof createApiKeyStore>;
