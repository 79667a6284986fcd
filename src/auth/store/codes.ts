import type { Kysely } from 'kysely';
import { preparedQuery } from '../../storage/prepared.js';
import type { DialectCapabilities } from '../../storage/dialect.js';
import { instant } from '../../storage/columns.js';
import type { Database } from '../../storage/schema.js';
import type { CodeContext, NewTokenFamily } from './token-types.js';
import { insertFamily, liveGrant, revokePairFamilies, setGrantExpiry } from './token-writes.js';

/** The arguments of the exchange's function, in its order (migration 0017). */
const REDEEM_ARGS = [
  'codeHash',
  'now',
  'familyId',
  'clientId',
  'enrolleeId',
  'scope',
  'authTime',
  'accessHash',
  'accessExpiresAt',
  'refreshHash',
  'setExpiry',
  'grantExpiresAt',
] as const;
type RedeemParams = (typeof REDEEM_ARGS)[number];

/**
 * Authorization codes: looked up and redeemed once; redeemed through `tokenDb` (tokens.ts), after which
 * `redeemed` is called (the pair's families and grant changed).
 */
export function createCodeStore(
  db: Kysely<Database>,
  dialect: DialectCapabilities,
  tokenDb: Kysely<Database> = db,
  redeemed: () => void = () => {},
) {
  /** PostgreSQL: the exchange's writes as one call (migration 0017), a named statement. */
  const redeemCall = dialect.serverFunctions
    ? preparedQuery<RedeemParams, { redeemed: boolean }>(
        tokenDb,
        (p) =>
          tokenDb.selectNoFrom((eb) =>
            eb
              .fn<boolean>(
                'oe_redeem_code_v1',
                REDEEM_ARGS.map((name) => eb.val(p(name))),
              )
              .as('redeemed'),
          ),
        { named: true },
      )
    : undefined;
  return {
    /** A code with its enrollee's patient id and its pair's grant, in one read. */
    async findCode(codeHash: string): Promise<CodeContext | undefined> {
      const row = await db
        .selectFrom('auth_codes as c')
        .leftJoin('enrollees as e', 'e.id', 'c.enrollee_id')
        .leftJoin('grants as g', (join) =>
          join.onRef('g.client_id', '=', 'c.client_id').onRef('g.enrollee_id', '=', 'c.enrollee_id'),
        )
        .selectAll('c')
        .select(['e.patient_id', 'g.id as grant_id', 'g.expires_at as grant_expires_at'])
        .where('c.code_hash', '=', codeHash)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        patientId: row.patient_id,
        hasGrant: row.grant_id !== null,
        grantExpiresAt: instant(row.grant_expires_at),
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
     *
     * Two steps: the first locks the grant (PostgreSQL) and spends the code, the second — run once the
     * lock is held, so it sees every family committed before — revokes the pair's live family, stores the
     * new one and sets the grant's expiry. On PostgreSQL both are one call of a function that runs them as
     * separate statements (migration 0017), one round trip instead of four; SQLite runs them in process.
     */
    async redeemCode(
      codeHash: string,
      family: NewTokenFamily,
      grantExpiresAt: number | null | 'keep',
      now: number,
    ): Promise<boolean> {
      const pair = { clientId: family.clientId, enrolleeId: family.enrolleeId };
      if (redeemCall) {
        const { rows } = await redeemCall({
          codeHash,
          now,
          familyId: family.familyId,
          clientId: family.clientId,
          enrolleeId: family.enrolleeId,
          scope: family.scope,
          authTime: family.authTime,
          accessHash: family.accessHash,
          accessExpiresAt: family.accessExpiresAt,
          refreshHash: family.refreshHash,
          setExpiry: grantExpiresAt !== 'keep',
          grantExpiresAt: grantExpiresAt === 'keep' ? null : grantExpiresAt,
        });
        redeemed();
        return rows[0]?.redeemed === true;
      }
      const done = await tokenDb.transaction().execute(async (trx) => {
        const spent = await trx
          .with('live_grant', () => liveGrant(trx, dialect, pair, now))
          .updateTable('auth_codes')
          .set({ used_at: now })
          .where('code_hash', '=', codeHash)
          .where('used_at', 'is', null)
          .where((eb) => eb.exists(eb.selectFrom('live_grant').select('live_grant.id')))
          .executeTakeFirst();
        if (spent.numUpdatedRows === 0n) return false;
        const expiry = grantExpiresAt === 'keep' ? undefined : { expiresAt: grantExpiresAt, now };
        await revokePairFamilies(trx, family.clientId, family.enrolleeId, now);
        await insertFamily(trx, family, now);
        if (expiry) await setGrantExpiry(trx, pair, expiry);
        return true;
      });
      redeemed();
      return done;
    },
  };
}
