import type { Kysely, Transaction } from 'kysely';
import type { DialectCapabilities } from '../../storage/dialect.js';
import type { Database } from '../../storage/schema.js';
import type { AuthCode, NewAccessToken, NewRefreshToken } from './token-types.js';

/** Writes shared by the code, grant and token stores; each runs inside its caller's transaction. */

export type Db = Kysely<Database> | Transaction<Database>;

type TokenTable = 'access_tokens' | 'refresh_tokens';
type TokenFilter = Partial<Record<'client_id' | 'enrollee_id' | 'family_id' | 'token_hash', string>>;

/** Marks the live tokens matching every column of `filter` revoked, in each of `tables`. */
export async function revokeTokens(
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

export function revokePairTokens(db: Db, clientId: string, enrolleeId: string, now: number): Promise<void> {
  return revokeTokens(db, { client_id: clientId, enrollee_id: enrolleeId }, now);
}

export async function insertTokens(
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
        auth_time: refresh.authTime,
      })
      .execute();
  }
}

/**
 * Deletes the pair's grant first (which also locks its row on PostgreSQL, so concurrent deletes queue up and
 * only one archives it), then revokes the pair's tokens and unused codes.
 */
export async function deleteGrantIn(
  trx: Db,
  clientId: string,
  enrolleeId: string,
  reason: string,
  now: number,
) {
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
export async function spendPairCodes(
  db: Db,
  clientId: string,
  enrolleeId: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('auth_codes')
    .set({ used_at: now })
    .where('client_id', '=', clientId)
    .where('enrollee_id', '=', enrolleeId)
    .where('used_at', 'is', null)
    .execute();
}

export async function insertCodeRow(db: Db, code: AuthCode, now: number) {
  await db
    .insertInto('auth_codes')
    .values({
      code_hash: code.codeHash,
      client_id: code.clientId,
      enrollee_id: code.enrolleeId,
      redirect_uri: code.redirectUri,
      redirect_uri_given: code.redirectUriGiven ? 1 : 0,
      scope: code.scope,
      code_challenge: code.codeChallenge,
      family_id: code.familyId,
      created_at: now,
      expires_at: code.expiresAt,
      used_at: null,
      auth_time: code.authTime,
      nonce: code.nonce,
    })
    .execute();
}

/**
 * Locks the pair's grant row for the rest of the transaction (PostgreSQL; SQLite transactions are already
 * serialized) and returns it, so consent, exchange, refresh and revocation of one pair happen one at a time.
 */
export async function lockGrant(trx: Db, dialect: DialectCapabilities, clientId: string, enrolleeId: string) {
  let query = trx
    .selectFrom('grants')
    .select(['id', 'expires_at'])
    .where('client_id', '=', clientId)
    .where('enrollee_id', '=', enrolleeId);
  if (dialect.rowLocks) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** A grant that exists and has not expired at `now`. */
export async function lockLiveGrant(
  trx: Db,
  dialect: DialectCapabilities,
  clientId: string,
  enrolleeId: string,
  now: number,
) {
  const grant = await lockGrant(trx, dialect, clientId, enrolleeId);
  return grant && (grant.expires_at === null || Number(grant.expires_at) > now) ? grant : undefined;
}
