import type { Kysely, Transaction } from 'kysely';
import type { DialectCapabilities } from '../../storage/dialect.js';
import type { Database } from '../../storage/schema.js';

export interface AuthCode {
  codeHash: string;
  clientId: string;
  enrolleeId: string;
  redirectUri: string;
  scope: string;
  codeChallenge: string;
  familyId: string;
  expiresAt: number;
  usedAt: number | null;
}

export interface Grant {
  id: string;
  clientId: string;
  enrolleeId: string;
  createdAt: number;
  expiresAt: number | null;
}

export interface NewAccessToken {
  tokenHash: string;
  clientId: string;
  enrolleeId: string;
  familyId: string;
  scope: string;
  expiresAt: number;
}

export interface NewRefreshToken {
  tokenHash: string;
  clientId: string;
  enrolleeId: string;
  familyId: string;
  accessTokenHash: string;
  scope: string;
}

export interface RefreshTokenRecord extends NewRefreshToken {
  usedAt: number | null;
  revokedAt: number | null;
}

/** A refresh token with the grant of its pair (if any) and its enrollee's patient id, read in one query. */
export interface RefreshTokenContext extends RefreshTokenRecord {
  patientId: string;
  hasGrant: boolean;
  grantExpiresAt: number | null;
}

/** An access token with what a data request needs to judge it: its app, its enrollee and their grant. */
export interface AccessTokenContext {
  tokenHash: string;
  clientId: string;
  enrolleeId: string;
  familyId: string;
  scope: string;
  expiresAt: number;
  revokedAt: number | null;
  appName: string;
  appActive: boolean;
  patientId: string;
  givenName: string;
  familyName: string;
  email: string | null;
  grantExpiresAt: number | null;
  hasGrant: boolean;
}

type Db = Kysely<Database> | Transaction<Database>;

type TokenTable = 'access_tokens' | 'refresh_tokens';
type TokenFilter = Partial<Record<'client_id' | 'enrollee_id' | 'family_id' | 'token_hash', string>>;

/** Marks the live tokens matching every column of `filter` revoked, in each of `tables`. */
async function revokeTokens(
  db: Db,
  filter: TokenFilter,
  now: number,
  tables: readonly TokenTable[] = ['access_tokens', 'refresh_tokens'],
): Promise<void> {
  for (const table of tables) {
    let update = db.updateTable(table).set({ revoked_at: now }).where('revoked_at', 'is', null);
    for (const [column, value] of Object.entries(filter)) {
      update = update.where(column as keyof TokenFilter, '=', value);
    }
    await update.execute();
  }
}

function revokePairTokens(db: Db, clientId: string, enrolleeId: string, now: number): Promise<void> {
  return revokeTokens(db, { client_id: clientId, enrollee_id: enrolleeId }, now);
}

async function insertTokens(
  db: Db,
  access: NewAccessToken,
  refresh: NewRefreshToken | undefined,
  now: number,
) {
  await db
    .insertInto('access_tokens')
    .values({
      token_hash: access.tokenHash,
      client_id: access.clientId,
      enrollee_id: access.enrolleeId,
      family_id: access.familyId,
      scope: access.scope,
      created_at: now,
      expires_at: access.expiresAt,
      revoked_at: null,
    })
    .execute();
  if (refresh) {
    await db
      .insertInto('refresh_tokens')
      .values({
        token_hash: refresh.tokenHash,
        client_id: refresh.clientId,
        enrollee_id: refresh.enrolleeId,
        family_id: refresh.familyId,
        access_token_hash: refresh.accessTokenHash,
        scope: refresh.scope,
        created_at: now,
        used_at: null,
        revoked_at: null,
      })
      .execute();
  }
}

/**
 * Deletes the pair's grant first (which also locks its row on PostgreSQL, so concurrent deletes queue up and
 * only one archives it), then revokes the pair's tokens and unused codes.
 */
async function deleteGrantIn(trx: Db, clientId: string, enrolleeId: string, reason: string, now: number) {
  const grant = await trx
    .deleteFrom('grants')
    .where('client_id', '=', clientId)
    .where('enrollee_id', '=', enrolleeId)
    .returningAll()
    .executeTakeFirst();
  await revokePairTokens(trx, clientId, enrolleeId, now);
  await spendPairCodes(trx, clientId, enrolleeId, now);
  if (!grant) return false;
  await trx
    .insertInto('archived_grants')
    .values({
      id: grant.id,
      client_id: grant.client_id,
      enrollee_id: grant.enrollee_id,
      created_at: grant.created_at,
      expires_at: grant.expires_at,
      archived_at: now,
      reason,
    })
    .execute();
  return true;
}

/** Unused codes of the pair stop working: a newer consent or a revocation supersedes them. */
async function spendPairCodes(db: Db, clientId: string, enrolleeId: string, now: number): Promise<void> {
  await db
    .updateTable('auth_codes')
    .set({ used_at: now })
    .where('client_id', '=', clientId)
    .where('enrollee_id', '=', enrolleeId)
    .where('used_at', 'is', null)
    .execute();
}

async function insertCodeRow(db: Db, code: AuthCode, now: number) {
  await db
    .insertInto('auth_codes')
    .values({
      code_hash: code.codeHash,
      client_id: code.clientId,
      enrollee_id: code.enrolleeId,
      redirect_uri: code.redirectUri,
      scope: code.scope,
      code_challenge: code.codeChallenge,
      family_id: code.familyId,
      created_at: now,
      expires_at: code.expiresAt,
      used_at: null,
    })
    .execute();
}

export function createTokenStore(db: Kysely<Database>, dialect: DialectCapabilities) {
  /**
   * Locks the pair's grant row for the rest of the transaction (PostgreSQL; SQLite transactions are already
   * serialized) and returns it, so consent, exchange, refresh and revocation of one pair happen one at a time.
   */
  async function lockGrant(trx: Db, clientId: string, enrolleeId: string) {
    let query = trx
      .selectFrom('grants')
      .select(['id', 'expires_at'])
      .where('client_id', '=', clientId)
      .where('enrollee_id', '=', enrolleeId);
    if (dialect.rowLocks) query = query.forUpdate();
    return query.executeTakeFirst();
  }

  /** A grant that exists and has not expired at `now`. */
  async function lockLiveGrant(trx: Db, clientId: string, enrolleeId: string, now: number) {
    const grant = await lockGrant(trx, clientId, enrolleeId);
    return grant && (grant.expires_at === null || Number(grant.expires_at) > now) ? grant : undefined;
  }

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
        scope: row.scope,
        codeChallenge: row.code_challenge,
        familyId: row.family_id,
        expiresAt: Number(row.expires_at),
        usedAt: row.used_at === null ? null : Number(row.used_at),
      };
    },

    /**
     * Exchanges a code for tokens in one transaction: with the pair's grant locked and still live, marks the
     * code used (only one caller can), makes the new tokens the pair's only live family, and aligns the
     * grant's expiry. False when the code was spent or the grant is gone.
     */
    async redeemCode(
      codeHash: string,
      access: NewAccessToken,
      refresh: NewRefreshToken | undefined,
      grantExpiresAt: number | null | 'keep',
      now: number,
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        if (!(await lockLiveGrant(trx, access.clientId, access.enrolleeId, now))) return false;
        const spent = await trx
          .updateTable('auth_codes')
          .set({ used_at: now })
          .where('code_hash', '=', codeHash)
          .where('used_at', 'is', null)
          .executeTakeFirst();
        if (spent.numUpdatedRows === 0n) return false;
        await revokePairTokens(trx, access.clientId, access.enrolleeId, now);
        await insertTokens(trx, access, refresh, now);
        if (grantExpiresAt !== 'keep') {
          await trx
            .updateTable('grants')
            .set({ expires_at: grantExpiresAt, updated_at: now })
            .where('client_id', '=', access.clientId)
            .where('enrollee_id', '=', access.enrolleeId)
            .execute();
        }
        return true;
      });
    },

    /** RFC 6749 §4.1.2: a code presented twice revokes the tokens issued from it. */
    async revokeFamily(familyId: string, now: number): Promise<void> {
      await db.transaction().execute((trx) => revokeTokens(trx, { family_id: familyId }, now));
    },

    async findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined> {
      const row = await db
        .selectFrom('refresh_tokens')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        tokenHash: row.token_hash,
        clientId: row.client_id,
        enrolleeId: row.enrollee_id,
        familyId: row.family_id,
        accessTokenHash: row.access_token_hash,
        scope: row.scope,
        usedAt: row.used_at === null ? null : Number(row.used_at),
        revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
      };
    },

    /**
     * Rotates a refresh token: the old one is spent (exactly one concurrent caller wins), its access token
     * revoked, the new pair stored — all or nothing. False when the old token was already spent or revoked.
     */
    async rotateRefreshToken(
      old: RefreshTokenRecord,
      access: NewAccessToken,
      refresh: NewRefreshToken,
      now: number,
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        if (!(await lockLiveGrant(trx, old.clientId, old.enrolleeId, now))) return false;
        const spent = await trx
          .updateTable('refresh_tokens')
          .set({ used_at: now })
          .where('token_hash', '=', old.tokenHash)
          .where('used_at', 'is', null)
          .where('revoked_at', 'is', null)
          .executeTakeFirst();
        if (spent.numUpdatedRows === 0n) return false;
        await revokeTokens(trx, { token_hash: old.accessTokenHash }, now, ['access_tokens']);
        await insertTokens(trx, access, refresh, now);
        return true;
      });
    },

    async findRefreshTokenContext(tokenHash: string): Promise<RefreshTokenContext | undefined> {
      const row = await db
        .selectFrom('refresh_tokens as t')
        .innerJoin('enrollees as e', 'e.id', 't.enrollee_id')
        .leftJoin('grants as g', (join) =>
          join.onRef('g.client_id', '=', 't.client_id').onRef('g.enrollee_id', '=', 't.enrollee_id'),
        )
        .selectAll('t')
        .select(['e.patient_id', 'g.id as grant_id', 'g.expires_at as grant_expires_at'])
        .where('t.token_hash', '=', tokenHash)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        tokenHash: row.token_hash,
        clientId: row.client_id,
        enrolleeId: row.enrollee_id,
        familyId: row.family_id,
        accessTokenHash: row.access_token_hash,
        scope: row.scope,
        usedAt: row.used_at === null ? null : Number(row.used_at),
        revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
        patientId: row.patient_id,
        hasGrant: row.grant_id !== null,
        grantExpiresAt: row.grant_expires_at === null ? null : Number(row.grant_expires_at),
      };
    },

    async findAccessTokenContext(tokenHash: string): Promise<AccessTokenContext | undefined> {
      const row = await db
        .selectFrom('access_tokens as t')
        .innerJoin('apps as a', 'a.client_id', 't.client_id')
        .innerJoin('enrollees as e', 'e.id', 't.enrollee_id')
        .leftJoin('grants as g', (join) =>
          join.onRef('g.client_id', '=', 't.client_id').onRef('g.enrollee_id', '=', 't.enrollee_id'),
        )
        .select([
          't.token_hash',
          't.client_id',
          't.enrollee_id',
          't.family_id',
          't.scope',
          't.expires_at',
          't.revoked_at',
          'a.name as app_name',
          'a.active as app_active',
          'e.patient_id',
          'e.given_name',
          'e.family_name',
          'e.email',
          'g.id as grant_id',
          'g.expires_at as grant_expires_at',
        ])
        .where('t.token_hash', '=', tokenHash)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        tokenHash: row.token_hash,
        clientId: row.client_id,
        enrolleeId: row.enrollee_id,
        familyId: row.family_id,
        scope: row.scope,
        expiresAt: Number(row.expires_at),
        revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
        appName: row.app_name,
        appActive: row.app_active === 1,
        patientId: row.patient_id,
        givenName: row.given_name,
        familyName: row.family_name,
        email: row.email,
        hasGrant: row.grant_id !== null,
        grantExpiresAt: row.grant_expires_at === null ? null : Number(row.grant_expires_at),
      };
    },

    /** RFC 7009 for an access token: it dies, and so does the refresh token paired with it. */
    async revokeAccessToken(tokenHash: string, now: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await revokeTokens(trx, { token_hash: tokenHash }, now, ['access_tokens']);
        await trx
          .updateTable('refresh_tokens')
          .set({ revoked_at: now })
          .where('access_token_hash', '=', tokenHash)
          .where('revoked_at', 'is', null)
          .execute();
      });
    },

    /** RFC 7009 for a refresh token: it dies with the access token issued beside it. */
    async revokeRefreshToken(token: RefreshTokenRecord, now: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await revokeTokens(trx, { token_hash: token.tokenHash }, now, ['refresh_tokens']);
        await revokeTokens(trx, { token_hash: token.accessTokenHash }, now, ['access_tokens']);
      });
    },

    /** Whose access token this is, and whether it is still part of a live family. */
    async findAccessTokenOwner(
      tokenHash: string,
    ): Promise<{ clientId: string; enrolleeId: string; revoked: boolean } | undefined> {
      const row = await db
        .selectFrom('access_tokens')
        .select(['client_id', 'enrollee_id', 'revoked_at'])
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      return row
        ? { clientId: row.client_id, enrolleeId: row.enrollee_id, revoked: row.revoked_at !== null }
        : undefined;
    },

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
        expiresAt: row.expires_at === null ? null : Number(row.expires_at),
      };
    },

    /**
     * Records consent in one transaction: creates or renews the grant (locking its row), revokes the pair's
     * tokens and spends its unused codes (one token family per app and enrollee), and stores the new code.
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
        await revokePairTokens(trx, grant.clientId, grant.enrolleeId, now);
        await spendPairCodes(trx, grant.clientId, grant.enrolleeId, now);
        await insertCodeRow(trx, code, now);
      });
    },

    /**
     * Deletes what can no longer be used: codes and access tokens a day past expiry, refresh tokens 30 days
     * after they were spent or revoked (kept that long so a replayed one still answers `invalid_grant`).
     */
    async purgeStale(now: number): Promise<void> {
      const day = 86_400_000;
      await db
        .deleteFrom('auth_codes')
        .where('expires_at', '<', now - day)
        .execute();
      await db
        .deleteFrom('access_tokens')
        .where('expires_at', '<', now - day)
        .execute();
      await db
        .deleteFrom('refresh_tokens')
        .where((eb) => eb.or([eb('revoked_at', '<', now - 30 * day), eb('used_at', '<', now - 30 * day)]))
        .execute();
    },

    /** Deletes the pair's grant (archiving it) and revokes all its tokens. False when there was no grant. */
    async deleteGrant(clientId: string, enrolleeId: string, reason: string, now: number): Promise<boolean> {
      return db.transaction().execute((trx) => deleteGrantIn(trx, clientId, enrolleeId, reason, now));
    },
  };
}

export type TokenStore = ReturnType<typeof createTokenStore>;
