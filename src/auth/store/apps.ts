import type { Kysely, Selectable } from 'kysely';
import { keptReads } from '../../storage/kept-reads.js';
import { preparedQuery } from '../../storage/prepared.js';
import type { Database, AppsTable } from '../../storage/schema.js';

export type DataAccessType = 'ONE_TIME' | 'THIRTEEN_MONTH' | 'RESEARCH_STUDY';
export const DATA_ACCESS_TYPES: readonly DataAccessType[] = ['ONE_TIME', 'THIRTEEN_MONTH', 'RESEARCH_STUDY'];

/** A registered confidential client. */
export interface ClientApp {
  clientId: string;
  name: string;
  clientSecretHash: string;
  redirectUris: string[];
  dataAccessType: DataAccessType;
  requireDemographicScopes: boolean;
  /** Scopes the app may be granted. */
  scopes: string[];
  active: boolean;
  logoUri: string | null;
  policyUri: string | null;
  tosUri: string | null;
  supportEmail: string | null;
  tokenManagement: boolean;
  createdAt: number;
}

export type NewApp = Omit<ClientApp, 'createdAt'>;

export function toApp(row: Selectable<AppsTable>): ClientApp {
  return {
    clientId: row.client_id,
    name: row.name,
    clientSecretHash: row.client_secret_hash,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    dataAccessType: row.data_access_type as DataAccessType,
    requireDemographicScopes: row.require_demographic_scopes === 1,
    scopes: row.scopes.split(' ').filter(Boolean),
    active: row.active === 1,
    logoUri: row.logo_uri,
    policyUri: row.policy_uri,
    tosUri: row.tos_uri,
    supportEmail: row.support_email,
    tokenManagement: row.token_management === 1,
    createdAt: Number(row.created_at),
  };
}

export class DuplicateAppNameError extends Error {}

/**
 * OAuth clients. Every token request looks its client up: the rows read are kept between writes
 * (storage/kept-reads.ts), so an app deactivated or deleted by the CLI or another instance is refused from
 * the next request on. `apps` is written only through this store, and each write here forgets what was kept.
 */
export function createAppStore(db: Kysely<Database>, changeCounter?: () => number) {
  const kept = keptReads<ClientApp | undefined>(db, 'apps', changeCounter);
  const findById = preparedQuery<'clientId', Selectable<AppsTable>>(db, (p) =>
    db.selectFrom('apps').selectAll().where('client_id', '=', p('clientId')),
  );
  return {
    async insertApp(app: NewApp, now: number): Promise<ClientApp> {
      const nameKey = app.name.trim().toLowerCase();
      const taken = await db
        .selectFrom('apps')
        .select('client_id')
        .where('name_key', '=', nameKey)
        .executeTakeFirst();
      if (taken) throw new DuplicateAppNameError(`an app named "${app.name}" already exists`);
      try {
        await db
          .insertInto('apps')
          .values({
            client_id: app.clientId,
            name: app.name,
            name_key: nameKey,
            client_secret_hash: app.clientSecretHash,
            redirect_uris: JSON.stringify(app.redirectUris),
            data_access_type: app.dataAccessType,
            require_demographic_scopes: app.requireDemographicScopes ? 1 : 0,
            scopes: app.scopes.join(' '),
            active: app.active ? 1 : 0,
            logo_uri: app.logoUri,
            policy_uri: app.policyUri,
            tos_uri: app.tosUri,
            support_email: app.supportEmail,
            token_management: app.tokenManagement ? 1 : 0,
            created_at: now,
            updated_at: now,
          })
          .execute();
        kept.forget();
      } catch (error) {
        // Two registrations of one name at once: the unique index decides.
        if (/unique/i.test(String((error as Error).message))) {
          throw new DuplicateAppNameError(`an app named "${app.name}" already exists`);
        }
        throw error;
      }
      return { ...app, createdAt: now };
    },

    async findApp(clientId: string): Promise<ClientApp | undefined> {
      return kept.get(clientId, async () => {
        const row = (await findById({ clientId })).rows[0];
        return row ? toApp(row) : undefined;
      });
    },

    async listApps(): Promise<ClientApp[]> {
      const rows = await db.selectFrom('apps').selectAll().orderBy('created_at').orderBy('name').execute();
      return rows.map(toApp);
    },

    async setAppActive(clientId: string, active: boolean, now: number): Promise<boolean> {
      const result = await db
        .updateTable('apps')
        .set({ active: active ? 1 : 0, updated_at: now })
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      kept.forget();
      return result.numUpdatedRows > 0n;
    },

    /** Deletes the app; its codes, grants and tokens go with it (foreign keys cascade). */
    async deleteApp(clientId: string): Promise<boolean> {
      const result = await db.deleteFrom('apps').where('client_id', '=', clientId).executeTakeFirst();
      kept.forget();
      return result.numDeletedRows > 0n;
    },
  };
}

export type AppStore = ReturnType<typeof createAppStore>;
