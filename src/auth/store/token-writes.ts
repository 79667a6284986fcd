import type { Kysely, Transaction } from 'kysely';
import type { DialectCapabilities } from '../../storage/dialect.js';
import type { Database } from '../../storage/schema.js';
import type { AuthCode, NewTokenFamily } from './token-types.js';

/** Writes shared by the code, grant and token stores; each runs inside its caller's transaction. */

export type Db = Kysely<Database> | Transaction<Database>;

/** One token family per app and enrollee: a code exchange (or a revocation) ends the pair's live family. */
export async function revokePairFamilies(db: Db, clientId: string, enrolleeId: string, now: number) {
  await db
    .updateTable('token_families')
    .set({ revoked_at: now })
    .where('client_id', '=', clientId)
    .where('enrollee_id', '=', enrolleeId)
    .where('revoked_at', 'is', null)
    .execute();
}

function familyRow(family: NewTokenFamily, now: number) {
  return {
    family_id: family.familyId,
    client_id: family.clientId,
    enrollee_id: family.enrolleeId,
    scope: family.scope,
    auth_time: family.authTime,
    access_hash: family.accessHash,
    access_expires_at: family.accessExpiresAt,
    refresh_hash: family.refreshHash,
    created_at: now,
    rotated_at: now,
    revoked_at: null,
  };
}

export async function insertFamily(db: Db, family: NewTokenFamily, now: number) {
  await db.insertInto('token_families').values(familyRow(family, now)).execute();
}

interface Pair {
  clientId: string;
  enrolleeId: string;
}

interface GrantExpiry {
  expiresAt: number | null;
  now: number;
}

export async function setGrantExpiry(db: Db, pair: Pair, expiry: GrantExpiry) {
  await db
    .updateTable('grants')
    .set({ expires_at: expiry.expiresAt, updated_at: expiry.now })
    .where('client_id', '=', pair.clientId)
    .where('enrollee_id', '=', pair.enrolleeId)
    .execute();
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
  await revokePairFamilies(trx, clientId, enrolleeId, now);
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
 * The pair's grant if it has not expired at `now`, as a query that locks its row for the rest of the
 * transaction (PostgreSQL; SQLite transactions are already serialized), so consent, exchange, refresh and
 * revocation of one pair happen one at a time.
 */
export function liveGrant(trx: Db, dialect: DialectCapabilities, pair: Pair, now: number) {
  const query = trx
    .selectFrom('grants')
    .select('id')
    .where('client_id', '=', pair.clientId)
    .where('enrollee_id', '=', pair.enrolleeId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  return dialect.rowLocks ? query.forUpdate() : query;
}
