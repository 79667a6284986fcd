import type { Kysely } from 'kysely';
import type { DialectCapabilities } from '../../storage/dialect.js';
import { instant } from '../../storage/columns.js';
import type { Database } from '../../storage/schema.js';
import type { AuthCode, NewTokenFamily } from './token-types.js';
import { insertFamily, lockLiveGrant, revokePairFamilies } from './token-writes.js';

/** Authorization codes: looked up and redeemed once. */
export function createCodeStore(db: Kysely<Database>, dialect: DialectCapabilities) {
  return {
    async findCode(codeHash: string): Promise<AuthCode | undefined> {
      const row = await db
        .selectFrom('auth_codes')
        .selectAll()
        .where('code_hash', '=', codeHash)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        codeHash: row.code_hash,
        clientId: row.client_id,
        enrolleeId: row.enrollee_id,
        redirectUri: row.redirect_uri,
        redirectUriGiven: row.redirect_uri_given === 1,
        scope: row.scope,
        codeChallenge: row.code_challenge,
        familyId: row.family_id,
        expiresAt: Number(row.expires_at),
        usedAt: instant(row.used_at),
        authTime: instant(row.auth_time),
        nonce: row.nonce,
      };
    },

    /** Marks a code used without issuing anything (a failed proof of possession). */
    async spendCode(codeHash: string, now: number): Promise<void> {
      await db
        .updateTable('auth_codes')
        .set({ used_at: now })
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .execute();
    },

    /**
     * Exchanges a code for tokens in one transaction: with the pair's grant locked and still live, marks the
     * code used (only one caller can), makes the new family the pair's only live one, and aligns the
     * grant's expiry. False when the code was spent or the grant is gone.
     */
    async redeemCode(
      codeHash: string,
      family: NewTokenFamily,
      grantExpiresAt: number | null | 'keep',
      now: number,
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        if (!(await lockLiveGrant(trx, dialect, family.clientId, family.enrolleeId, now))) return false;
        const spent = await trx
          .updateTable('auth_codes')
          .set({ used_at: now })
          .where('code_hash', '=', codeHash)
          .where('used_at', 'is', null)
          .executeTakeFirst();
        if (spent.numUpdatedRows === 0n) return false;
        await revokePairFamilies(trx, family.clientId, family.enrolleeId, now);
        await insertFamily(trx, family, now);
        if (grantExpiresAt !== 'keep') {
          await trx
            .updateTable('grants')
            .set({ expires_at: grantExpiresAt, updated_at: now })
            .where('client_id', '=', family.clientId)
            .where('enrollee_id', '=', family.enrolleeId)
            .execute();
        }
        return true;
      });
    },
  };
}
