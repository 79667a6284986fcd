import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * PostgreSQL only: `oe_redeem_code_v1`, a code exchange's writes as one call (docs/decisions.md#token-round-trips).
 * It does what auth/store/codes.ts `redeemCode` does in a transaction of two statements on SQLite, in the
 * same order and with the same snapshots: it locks the pair's grant if still live at `p_now` and spends the
 * code (only one caller can), then — in a statement of its own, so with a snapshot taken once the lock is
 * held — revokes the pair's live family, stores the new one and, when asked, sets the grant's expiry. False
 * (and nothing changed) when the grant is gone or expired, or the code was spent. A volatile PL/pgSQL
 * function takes a fresh snapshot for each statement it runs, as a client's statements in a Read Committed
 * transaction do. Versioned in its name: a later change adds `_v2` beside it, so instances of the previous
 * release keep calling the function they know during a rolling upgrade.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql`
    create or replace function oe_redeem_code_v1(
      p_code_hash text,
      p_now bigint,
      p_family_id text,
      p_client_id text,
      p_enrollee_id text,
      p_scope text,
      p_auth_time bigint,
      p_access_hash text,
      p_access_expires_at bigint,
      p_refresh_hash text,
      p_set_expiry boolean,
      p_grant_expires_at bigint
    ) returns boolean
    language plpgsql volatile
    as $fn$
    begin
      perform 1 from grants
        where client_id = p_client_id and enrollee_id = p_enrollee_id
          and (expires_at is null or expires_at > p_now)
        for update;
      if not found then
        return false;
      end if;
      update auth_codes set used_at = p_now where code_hash = p_code_hash and used_at is null;
      if not found then
        return false;
      end if;
      update token_families set revoked_at = p_now
        where client_id = p_client_id and enrollee_id = p_enrollee_id and revoked_at is null;
      insert into token_families (
        family_id, client_id, enrollee_id, scope, auth_time, access_hash, access_expires_at, refresh_hash,
        created_at, rotated_at, revoked_at
      ) values (
        p_family_id, p_client_id, p_enrollee_id, p_scope, p_auth_time, p_access_hash, p_access_expires_at,
        p_refresh_hash, p_now, p_now, null
      );
      if p_set_expiry then
        update grants set expires_at = p_grant_expires_at, updated_at = p_now
          where client_id = p_client_id and enrollee_id = p_enrollee_id;
      end if;
      return true;
    end;
    $fn$
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql`drop function if exists oe_redeem_code_v1(
    text, bigint, text, text, text, text, bigint, text, bigint, text, boolean, bigint
  )`.execute(db);
}
