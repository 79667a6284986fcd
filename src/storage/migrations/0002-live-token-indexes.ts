import { sql, type Kysely } from 'kysely';

/**
 * Partial indexes over the live tokens of an app and enrollee: every consent and code exchange revokes the
 * pair's live tokens, and without these the update scans every token the pair ever had.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['access_tokens', 'refresh_tokens']) {
    await db.schema
      .createIndex(`${table}_live_pair`)
      .on(table)
      .columns(['client_id', 'enrollee_id'])
      .where(sql.ref('revoked_at'), 'is', null)
      .execute();
  }
  await db.schema.createIndex('access_tokens_expires').on('access_tokens').column('expires_at').execute();
  await db.schema.createIndex('auth_codes_expires').on('auth_codes').column('expires_at').execute();
}
