import type { Kysely } from 'kysely';
import type { KeptReads } from '../../storage/kept-reads.js';
import { instant } from '../../storage/columns.js';
import type { Database } from '../../storage/schema.js';
import type { AuthCode, Grant } from './token-types.js';
import { deleteGrantIn, insertCodeRow, spendPairCodes } from './token-writes.js';

/**
 * Data access grants: recorded at consent, deleted (and archived) at revocation. `kept` holds the access
 * contexts Bearer checks answer from (access-contexts.ts), which a grant is part of.
 */
export function createAccessGrantStore(db: Kysely<Database>, kept: KeptReads<unknown>) {
  return {
    async findGrant(clientId: string, enrolleeId: string): Promise<Grant | undefined> {
      const row = await db
        .selectFrom('grants')
        .selectAll()
        .where('client_id', '=', clientId)
        .where('enrollee_id', '=', enrolleeId)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        id: row.id,
        clientId: row.client_id,
        enrolleeId: row.enrollee_id,
        createdAt: Number(row.created_at),
        expiresAt: instant(row.expires_at),
      };
    },

    /**
     * Records consent in one transaction: creates or renews the grant (locking its row), spends the pair's
     * unused codes and stores the new one. The pair's live token family is left alone: redeeming the new
     * code ends it (one token family per app and enrollee, auth/store/codes.ts).
     */
    async recordConsent(grant: Grant, code: AuthCode, now: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('grants')
          .values({
            id: grant.id,
            client_id: grant.clientId,
            enrollee_id: grant.enrolleeId,
            created_at: now,
            updated_at: now,
            expires_at: grant.expiresAt,
          })
          .onConflict((oc) =>
            oc
              .columns(['client_id', 'enrollee_id'])
              .doUpdateSet({ expires_at: grant.expiresAt, updated_at: now }),
          )
          .execute();
        await spendPairCodes(trx, grant.clientId, grant.enrolleeId, now);
        await insertCodeRow(trx, code, now);
      });
      kept.forget();
    },

    /** Deletes the pair's grant (archiving it) and revokes all its tokens. False when there was no grant. */
    async deleteGrant(clientId: string, enrolleeId: string, reason: string, now: number): Promise<boolean> {
      const deleted = await db
        .transaction()
        .execute((trx) => deleteGrantIn(trx, clientId, enrolleeId, reason, now));
      // Its tokens stop working: answered once no instance can still admit them.
      await kept.written();
      return deleted;
    },
  };
}
