import type { Kysely } from 'kysely';

/**
 * RFC 6749 §4.1.3: the token request must repeat `redirect_uri` only when the authorization request carried
 * it; a code remembers which was the case.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('auth_codes')
    .addColumn('redirect_uri_given', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}
