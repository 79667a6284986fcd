import type { Kysely } from 'kysely';

/** The enrollees' claims data: FHIR resources as loaded, indexed by what searches filter on. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('fhir_resources')
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('patient_id', 'text', (c) => c.notNull())
    .addColumn('eob_type', 'text')
    .addColumn('service_date', 'text')
    .addColumn('last_updated', 'bigint', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('fhir_resources_pk', ['resource_type', 'id'])
    .execute();
  await db.schema
    .createIndex('fhir_resources_patient')
    .on('fhir_resources')
    .columns(['patient_id', 'resource_type', 'last_updated'])
    .execute();
}
