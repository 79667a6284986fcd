import type { Kysely } from 'kysely';

/** Searches page a patient's resources of one type in id order: this index hands them over already sorted. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('fhir_resources_page')
    .on('fhir_resources')
    .columns(['resource_type', 'patient_id', 'id'])
    .execute();
}
