import type { Kysely } from 'kysely';

/**
 * Sign-in through the health plan's OpenID Connect identity provider (issue 18).
 *
 * - `enrollee_identities`: an IdP account, (issuer, subject) — the pair OIDC Core §2 makes unique and
 *   stable — linked to the enrollee it signs in as; several identities may link to one enrollee. Deleting
 *   the enrollee deletes its links.
 * - `idp_requests`: a sign-in sent to the IdP and not yet back, in the database so the callback can land on
 *   any instance. Keyed by the SHA-256 of its `state`; `browser_hash` binds it to the browser that started
 *   it (RFC 9700 §4.7.1); `code_verifier` (RFC 7636) and `nonce` (OIDC Core §3.1.2.1) are needed in the
 *   clear to finish it, so a row lives minutes and is deleted when used.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('enrollee_identities')
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('enrollee_id', 'text', (c) => c.notNull().references('enrollees.id').onDelete('cascade'))
    .addColumn('linked_at', 'bigint', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('enrollee_identities_pk', ['issuer', 'subject'])
    .execute();
  await db.schema
    .createIndex('enrollee_identities_enrollee')
    .on('enrollee_identities')
    .column('enrollee_id')
    .execute();

  await db.schema
    .createTable('idp_requests')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('browser_hash', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('next', 'text', (c) => c.notNull())
    .addColumn('lang', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}
