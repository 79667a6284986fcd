import type { Kysely } from 'kysely';

/**
 * Claims loaded from CCW RIF files (`ingest rif`, docs/claims-rif.md#rif).
 *
 * - `fhir_resources.samhsa`: 1 when an ExplanationOfBenefit carries a code of substance use disorder
 *   treatment, which Blue Button withholds from an app that asks `excludeSAMHSA=true` (0 for everything
 *   else, and for every resource stored before).
 * - `rif_beneficiaries`: each beneficiary's latest RIF row, as read (a JSON object of column → text), and
 *   `rif_beneficiary_history` the history rows that name an earlier identity of a beneficiary (beneficiary
 *   history and MBI history files, and the identity an UPDATE replaced): a beneficiary's Patient and
 *   Coverages are built from both, and rebuilt whenever either changes, whichever file comes first.
 *   `row_key` identifies a history row (its MBI history key, or a digest of the row), `seq` keeps them in
 *   the order they were loaded.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('fhir_resources')
    .addColumn('samhsa', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('rif_beneficiaries')
    .addColumn('bene_id', 'text', (c) => c.primaryKey())
    .addColumn('row', 'text', (c) => c.notNull())
    .addColumn('loaded_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('rif_beneficiary_history')
    .addColumn('record_type', 'text', (c) => c.notNull())
    .addColumn('row_key', 'text', (c) => c.notNull())
    .addColumn('bene_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('row', 'text', (c) => c.notNull())
    .addColumn('loaded_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('rif_beneficiary_history_pk', ['record_type', 'row_key'])
    .execute();
  await db.schema
    .createIndex('rif_beneficiary_history_bene')
    .on('rif_beneficiary_history')
    .columns(['bene_id', 'seq'])
    .execute();
}
