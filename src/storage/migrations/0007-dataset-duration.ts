import type { Kysely } from 'kysely';

/** How long each dataset's latest load took (milliseconds), for `/metrics`; null for loads made before. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('plan_datasets').addColumn('duration_ms', 'integer').execute();
}
