import { Migrator, type Migration } from 'kysely';
import type { Storage } from '../../src/storage/connect.js';
import { migrations } from '../../src/storage/migrations/index.js';

/**
 * Migrates `storage` as a release before migration `first` did: every migration whose name sorts before it,
 * so that an upgrade test can store rows as that release did and then run the rest (`migrate`).
 */
export async function migrateBefore(storage: Storage, first: string): Promise<void> {
  const earlier = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < first)) as Record<
    string,
    Migration
  >;
  const migrator = new Migrator({
    db: storage.db,
    provider: { getMigrations: async () => earlier },
    ...(storage.schema ? { migrationTableSchema: storage.schema } : {}),
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
