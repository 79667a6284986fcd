import type { Kysely } from 'kysely';

/**
 * OpenID Connect (issue 16): ID-token signing keys and what an ID token carries from the login to the code.
 *
 * - `signing_keys`: one row per key, `generation` unique so two instances creating the first key (or
 *   rotating) at once insert one row between them. A key is published from `created_at`, signs from
 *   `not_before` (a rotated-in key is published a while before it signs, so clients' cached key sets hold
 *   it by then), and stops signing at `retired_at` (its successor's `not_before`); it stays published until
 *   the ID tokens it signed have expired. `private_key` is PKCS#8 PEM and never leaves the service;
 *   `public_jwk` is what `jwks_uri` publishes.
 * - `approvals.auth_time`, `auth_codes.auth_time`, `refresh_tokens.auth_time`: when the enrollee logged in
 *   (OIDC Core §2 `auth_time`), carried from the session through the code and on along a token family.
 * - `auth_codes.nonce`: the authorize request's `nonce`, returned in the ID token (OIDC Core §3.1.2.1).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('signing_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('generation', 'integer', (c) => c.notNull().unique())
    .addColumn('alg', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('not_before', 'bigint', (c) => c.notNull())
    .addColumn('retired_at', 'bigint')
    .execute();
  await db.schema.alterTable('approvals').addColumn('auth_time', 'bigint').execute();
  await db.schema.alterTable('auth_codes').addColumn('auth_time', 'bigint').execute();
  await db.schema.alterTable('auth_codes').addColumn('nonce', 'text').execute();
  await db.schema.alterTable('refresh_tokens').addColumn('auth_time', 'bigint').execute();
}
