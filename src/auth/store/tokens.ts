import type { Kysely, Selectable } from 'kysely';
import type { DialectCapabilities } from '../../storage/dialect.js';
import { instant } from '../../storage/columns.js';
import type { Database, RefreshTokensTable } from '../../storage/schema.js';
import { createCodeStore } from './codes.js';
import { createGrantStore } from './grants.js';
import type {
  AccessTokenContext,
  NewAccessToken,
  NewRefreshToken,
  RefreshTokenContext,
  RefreshTokenRecord,
} from './token-types.js';
import { insertTokens, lockLiveGrant, revokeTokens } from './token-writes.js';

export type * from './token-types.js';

function toRefreshToken(row: Selectable<RefreshTokensTable>): RefreshTokenRecord {
  return {
    tokenHash: row.token_hash,
    clientId: row.client_id,
    enrolleeId: row.enrollee_id,
    familyId: row.family_id,
    accessTokenHash: row.access_token_hash,
    scope: row.scope,
    authTime: instant(row.auth_time),
    usedAt: instant(row.used_at),
    revokedAt: instant(row.revoked_at),
  };
}

/** Access and refresh tokens: looked up with their context, rotated, revoked, purged. */
function createAccessStore(db: Kysely<Database>, dialect: DialectCapabilities) {
  return {
    async findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined> {
      const row = await db
        .selectFrom('refresh_tokens')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      return row ? toRefreshToken(row) : undefined;
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
        if (!(await lockLiveGrant(trx, dialect, old.clientId, old.enrolleeId, now))) return false;
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
        ...toRefreshToken(row),
        patientId: row.patient_id,
        hasGrant: row.grant_id !== null,
        grantExpiresAt: instant(row.grant_expires_at),
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
        revokedAt: instant(row.revoked_at),
        appName: row.app_name,
        appActive: row.app_active === 1,
        patientId: row.patient_id,
        givenName: row.given_name,
        familyName: row.family_name,
        email: row.email,
        hasGrant: row.grant_id !== null,
        grantExpiresAt: instant(row.grant_expires_at),
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
  };
}

/** Everything the authorization service stores about codes, grants and tokens, as one store. */
export function createTokenStore(db: Kysely<Database>, dialect: DialectCapabilities) {
  return {
    ...createCodeStore(db, dialect),
    ...createGrantStore(db),
    ...createAccessStore(db, dialect),
  };
}

export type TokenStore = ReturnType<typeof createTokenStore>;
