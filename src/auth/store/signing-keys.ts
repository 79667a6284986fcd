import type { Kysely } from 'kysely';
import { instant } from '../../storage/columns.js';
import type { Database } from '../../storage/schema.js';

/** An ID-token signing key as stored: the private half only ever leaves this store to sign. */
export interface SigningKeyRecord {
  kid: string;
  generation: number;
  alg: string;
  /** The public JWK as JSON text (what `jwks_uri` publishes). */
  publicJwk: string;
  /** PKCS#8 PEM. */
  privateKey: string;
  /** Published from here on. */
  createdAt: number;
  /** Signs from here on (until a newer generation's `notBefore`). */
  notBefore: number;
  /** When a newer generation took over signing (its `notBefore`); null while none has. */
  retiredAt: number | null;
}

export type NewSigningKey = Pick<SigningKeyRecord, 'kid' | 'alg' | 'publicJwk' | 'privateKey' | 'createdAt'>;

/**
 * Signing keys live in the database so every instance signs with, and publishes, the same keys. A key's
 * `generation` is unique: of two instances adding the same generation at once, one insert is ignored.
 */
export function createSigningKeyStore(db: Kysely<Database>) {
  return {
    /** Keys not retired, or retired after `retiredAfter` (still published), newest generation first. */
    async listLiveKeys(retiredAfter: number): Promise<SigningKeyRecord[]> {
      const rows = await db
        .selectFrom('signing_keys')
        .selectAll()
        .where((eb) => eb.or([eb('retired_at', 'is', null), eb('retired_at', '>', retiredAfter)]))
        .orderBy('generation', 'desc')
        .execute();
      return rows.map(toRecord);
    },

    async listAllKeys(): Promise<SigningKeyRecord[]> {
      const rows = await db.selectFrom('signing_keys').selectAll().orderBy('generation', 'desc').execute();
      return rows.map(toRecord);
    },

    /**
     * Adds `key` as generation `generation`, signing from `notBefore`, and marks every older generation not
     * yet retired as retired at `notBefore` — in one transaction. False when another caller added that
     * generation first (its key is the one to use).
     */
    async addGeneration(key: NewSigningKey, generation: number, notBefore: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('signing_keys')
          .values({
            kid: key.kid,
            generation,
            alg: key.alg,
            public_jwk: key.publicJwk,
            private_key: key.privateKey,
            created_at: key.createdAt,
            not_before: notBefore,
            retired_at: null,
          })
          .onConflict((oc) => oc.column('generation').doNothing())
          .executeTakeFirst();
        if ((inserted.numInsertedOrUpdatedRows ?? 0n) === 0n) return false;
        await trx
          .updateTable('signing_keys')
          .set({ retired_at: notBefore })
          .where('generation', '<', generation)
          .where('retired_at', 'is', null)
          .execute();
        return true;
      });
    },

    /** Deletes keys retired at or before `retiredBefore` (no unexpired token carries their signature). */
    async deleteRetiredKeys(retiredBefore: number): Promise<string[]> {
      const rows = await db
        .deleteFrom('signing_keys')
        .where('retired_at', 'is not', null)
        .where('retired_at', '<=', retiredBefore)
        .returning('kid')
        .execute();
      return rows.map((r) => r.kid);
    },
  };
}

function toRecord(row: {
  kid: string;
  generation: number | string;
  alg: string;
  public_jwk: string;
  private_key: string;
  created_at: number | string;
  not_before: number | string;
  retired_at: number | string | null;
}): SigningKeyRecord {
  return {
    kid: row.kid,
    generation: Number(row.generation),
    alg: row.alg,
    publicJwk: row.public_jwk,
    privateKey: row.private_key,
    createdAt: Number(row.created_at),
    notBefore: Number(row.not_before),
    retiredAt: instant(row.retired_at),
  };
}

export type SigningKeyStore = ReturnType<typeof createSigningKeyStore>;
