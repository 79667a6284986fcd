import { sql, type Kysely } from 'kysely';

/**
 * Issue 19: one row per token family instead of one row per token.
 *
 * An app and an enrollee hold at most one live token family (consent and code exchange revoke the pair's
 * others). A token is `<family id>.<secret>` (auth/oauth/grants/mint.ts) and the family row holds the
 * SHA-256 hashes of its current access and refresh tokens: a refresh is one conditional update of the row
 * found by its primary key (the spent refresh hash must match, the family be live, its grant too), and a
 * Bearer check one read by primary key. No index over the hashes has to change on each refresh. Tokens a
 * family held before are not kept: a rotated-out access token no longer matches, and a spent refresh token
 * still names its family, so a replay answers `invalid_grant`.
 *
 * Upgrade: tokens issued before this migration carry no family id. Every family with a live refresh or
 * access token becomes a row holding those tokens' hashes, and `legacy_tokens` maps the hash of each of
 * its old tokens (spent refresh tokens included) to the family; apps keep using what they hold, and the
 * family's first refresh hands out new-style tokens. Families already ended before the upgrade are not
 * carried over (their refresh tokens now read "Refresh token not found.", still 400 `invalid_grant`). The
 * old tables are dropped: stop every instance of the old version before migrating.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('token_families')
    .addColumn('family_id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('apps.client_id').onDelete('cascade'))
    .addColumn('enrollee_id', 'text', (c) => c.notNull().references('enrollees.id').onDelete('cascade'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('auth_time', 'bigint')
    .addColumn('access_hash', 'text', (c) => c.notNull())
    .addColumn('access_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('refresh_hash', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('rotated_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  // Consent and code exchange revoke the pair's live family: without a partial index that update would
  // walk every family the pair ever had.
  await db.schema
    .createIndex('token_families_live_pair')
    .on('token_families')
    .columns(['client_id', 'enrollee_id'])
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();

  // Families with a live refresh token (its access token may have been purged a day after it expired: the
  // family keeps its hash, expired).
  await sql`
    insert into token_families
      (family_id, client_id, enrollee_id, scope, auth_time, access_hash, access_expires_at, refresh_hash,
       created_at, rotated_at, revoked_at)
    select r.family_id, r.client_id, r.enrollee_id, r.scope, r.auth_time, r.access_token_hash,
           coalesce(a.expires_at, 0), r.token_hash, r.created_at, r.created_at, null
    from refresh_tokens r
    left join access_tokens a on a.token_hash = r.access_token_hash
    where r.used_at is null and r.revoked_at is null`.execute(db);
  // Live access tokens without a refresh token (`10 hours` apps).
  await sql`
    insert into token_families
      (family_id, client_id, enrollee_id, scope, auth_time, access_hash, access_expires_at, refresh_hash,
       created_at, rotated_at, revoked_at)
    select a.family_id, a.client_id, a.enrollee_id, a.scope, null, a.token_hash, a.expires_at, null,
           a.created_at, a.created_at, null
    from access_tokens a
    where a.revoked_at is null
      and not exists (select 1 from token_families f where f.family_id = a.family_id)`.execute(db);

  await db.schema
    .createTable('legacy_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('family_id', 'text', (c) =>
      c.notNull().references('token_families.family_id').onDelete('cascade'),
    )
    .execute();
  await db.schema.createIndex('legacy_tokens_family').on('legacy_tokens').column('family_id').execute();
  await sql`
    insert into legacy_tokens (token_hash, family_id)
    select r.token_hash, r.family_id from refresh_tokens r
    where exists (select 1 from token_families f where f.family_id = r.family_id)`.execute(db);
  await sql`
    insert into legacy_tokens (token_hash, family_id)
    select a.token_hash, a.family_id from access_tokens a
    where exists (select 1 from token_families f where f.family_id = a.family_id and f.access_hash = a.token_hash)`.execute(
    db,
  );

  await db.schema.dropTable('access_tokens').execute();
  await db.schema.dropTable('refresh_tokens').execute();
}
