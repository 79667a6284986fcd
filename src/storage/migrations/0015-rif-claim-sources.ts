import type { Kysely } from 'kysely';

/**
 * Claims loaded from RIF files are stored as their RIF rows and made into ExplanationOfBenefit JSON when
 * first read, as Blue Button's backend keeps the CCW's rows and transforms them per request
 * (docs/claims-rif.md#storage):
 *
 * - `fhir_resources.source`: the claim's RIF cells, its stored version and the names looked up for it at
 *   load, as JSON; `body` is '' until the first read writes the resource there. Null for every resource
 *   stored whole (Patient, Coverage, what `fhir import` writes).
 * - `rif_layouts`: the column names of a RIF header, once per distinct header (`id` a digest of them), which
 *   the cells of `source` are read against.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('fhir_resources').addColumn('source', 'text').execute();
  await db.schema
    .createTable('rif_layouts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('record_type', 'text', (c) => c.notNull())
    .addColumn('columns', 'text', (c) => c.notNull())
    .execute();
}
