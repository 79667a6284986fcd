import { sql, type Kysely } from 'kysely';

/**
 * The developer portal (issue 31): app developers hold accounts of their own and register apps and plan-API
 * keys themselves, in the same `apps` and `api_keys` rows the CLI writes.
 *
 * - `apps.review_status`: `approved` (every app the CLI registers, and the portal's in sandbox mode),
 *   `pending` until an operator approves a portal app in production, or `rejected`. Only an approved app
 *   can be authorized. `apps.website_uri`: the app's home page, shown to its developer.
 * - `developers`: one account per e-mail address (`email_key`, lower-cased, unique); the password is an
 *   argon2id hash; `verified_at` stays null until the link mailed at sign-up is opened.
 * - `developer_sessions`: signed-in browsers, keyed by the SHA-256 of the cookie's secret, so any instance
 *   can serve the next request.
 * - `developer_links`: the single-use secrets mailed for e-mail verification and password reset, stored
 *   only as SHA-256 hashes, each with its purpose and expiry.
 * - `apps.developer_id`, `api_keys.developer_id`: the developer who registered the app or created the key
 *   in the portal; null for those the CLI made. One column on the row itself, so a registration stays one
 *   single-row write.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('developers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('organization', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('verified_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .alterTable('apps')
    .addColumn('review_status', 'text', (c) => c.notNull().defaultTo(sql`'approved'`))
    .execute();
  await db.schema.alterTable('apps').addColumn('website_uri', 'text').execute();
  for (const table of ['apps', 'api_keys']) {
    await db.schema
      .alterTable(table)
      .addColumn('developer_id', 'text', (c) => c.references('developers.id').onDelete('set null'))
      .execute();
    await db.schema.createIndex(`${table}_developer`).on(table).column('developer_id').execute();
  }

  await db.schema
    .createTable('developer_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('developer_id', 'text', (c) => c.notNull().references('developers.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('developer_sessions_developer')
    .on('developer_sessions')
    .column('developer_id')
    .execute();

  await db.schema
    .createTable('developer_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('developer_id', 'text', (c) => c.notNull().references('developers.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}
