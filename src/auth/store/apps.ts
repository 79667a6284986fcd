import type { Kysely, Selectable } from 'kysely';
import { keptReads } from '../../storage/kept-reads.js';
import { keptAccessContexts } from './access-contexts.js';
import { preparedQuery } from '../../storage/prepared.js';
import type { Database, AppsTable } from '../../storage/schema.js';

export type DataAccessType = 'ONE_TIME' | 'THIRTEEN_MONTH' | 'RESEARCH_STUDY';
/** An operator's review of a portal app (docs/portal.md#review): only an approved app can be authorized. */
export type ReviewStatus = 'approved' | 'pending' | 'rejected';
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
  review: ReviewStatus;
  websiteUri: string | null;
  /** The developer who registered it in the portal; null for apps the CLI made. */
  developerId: string | null;
  createdAt: number;
}

/** What the app's owner may change after registration (docs/portal.md#applications). */
export type AppDetails = Pick<
  ClientApp,
  | 'name'
  | 'redirectUris'
  | 'dataAccessType'
  | 'requireDemographicScopes'
  | 'scopes'
  | 'logoUri'
  | 'websiteUri'
  | 'policyUri'
  | 'tosUri'
>;

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
    review: row.review_status as ReviewStatus,
    websiteUri: row.website_uri,
    developerId: row.developer_id,
    createdAt: Number(row.created_at),
  };
}

export class DuplicateAppNameError extends Error {}

/** Two registrations of one name at once: the unique index decides. */
function duplicateName(error: unknown, name: string): Error {
  return /unique/i.test(String((error as Error).message))
    ? new DuplicateAppNameError(`an app named "${name}" already exists`)
    : (error as Error);
}

/**
 * How long an instance on PostgreSQL answers from an app's row it read (docs/decisions.md#kept-reads-on-postgresql):
 * a change to an app — deactivated, deleted, a new secret, new redirect URIs — is confirmed only after it.
 * At hundreds of code exchanges a second per app, the app is then read about twice a second per instance.
 */
export const APP_LEASE_MS = 500;

/**
 * OAuth clients. Every token request looks its client up: the rows read are kept between writes
 * (storage/kept-reads.ts): on SQLite until another connection commits, on PostgreSQL for APP_LEASE_MS, which
 * each change here waits out before it returns. So an app deactivated or deleted by the CLI or another
 * instance is refused from the moment the change is confirmed. `apps` is written only through this store.
 */
export function createAppStore(db: Kysely<Database>, changeCounter?: () => number) {
  const kept = keptReads<ClientApp | undefined>(db, 'apps', changeCounter, { leaseMs: APP_LEASE_MS });
  // A Bearer check's kept context holds its app's name and whether it is active (access-contexts.ts).
  const contexts = keptAccessContexts<unknown>(db, changeCounter);
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
            review_status: app.review,
            website_uri: app.websiteUri,
            developer_id: app.developerId,
            created_at: now,
            updated_at: now,
          })
          .execute();
        kept.forget();
      } catch (error) {
        throw duplicateName(error, app.name);
      }
      return { ...app, createdAt: now };
    },

    async findApp(clientId: string): Promise<ClientApp | undefined> {
      return kept.get(clientId, async () => {
        const row = (await findById({ clientId })).rows[0];
        return row ? toApp(row) : undefined;
      });
    },

    /** Every app, or those one portal developer registered. */
    async listApps(developerId?: string): Promise<ClientApp[]> {
      let query = db.selectFrom('apps').selectAll();
      if (developerId !== undefined) query = query.where('developer_id', '=', developerId);
      const rows = await query.orderBy('created_at').orderBy('name').execute();
      return rows.map(toApp);
    },

    async setAppActive(clientId: string, active: boolean, now: number): Promise<boolean> {
      const result = await db
        .updateTable('apps')
        .set({ active: active ? 1 : 0, updated_at: now })
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      await Promise.all([kept.written(), contexts.written()]);
      return result.numUpdatedRows > 0n;
    },

    /** Replaces what the owner may change; false when there is no such app. */
    async updateApp(clientId: string, details: AppDetails, now: number): Promise<boolean> {
      const nameKey = details.name.trim().toLowerCase();
      const taken = await db
        .selectFrom('apps')
        .select('client_id')
        .where('name_key', '=', nameKey)
        .where('client_id', '<>', clientId)
        .executeTakeFirst();
      if (taken) throw new DuplicateAppNameError(`an app named "${details.name}" already exists`);
      try {
        const result = await db
          .updateTable('apps')
          .set({
            name: details.name,
            name_key: nameKey,
            redirect_uris: JSON.stringify(details.redirectUris),
            data_access_type: details.dataAccessType,
            require_demographic_scopes: details.requireDemographicScopes ? 1 : 0,
            scopes: details.scopes.join(' '),
            logo_uri: details.logoUri,
            website_uri: details.websiteUri,
            policy_uri: details.policyUri,
            tos_uri: details.tosUri,
            updated_at: now,
          })
          .where('client_id', '=', clientId)
          .executeTakeFirst();
        contexts.forget();
        await kept.written();
        return result.numUpdatedRows > 0n;
      } catch (error) {
        kept.forget();
        contexts.forget();
        throw duplicateName(error, details.name);
      }
    },

    /** A new secret hash (rotation): the previous secret stops working at once. */
    async replaceSecretHash(clientId: string, hash: string, now: number): Promise<boolean> {
      const result = await db
        .updateTable('apps')
        .set({ client_secret_hash: hash, updated_at: now })
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      await kept.written();
      return result.numUpdatedRows > 0n;
    },

    /** Moves an app from `from` (any of them) to `to`; false when it is not in one of those states. */
    async setReview(
      clientId: string,
      from: readonly ReviewStatus[],
      to: ReviewStatus,
      now: number,
    ): Promise<boolean> {
      const result = await db
        .updateTable('apps')
        .set({ review_status: to, updated_at: now })
        .where('client_id', '=', clientId)
        .where('review_status', 'in', [...from])
        .executeTakeFirst();
      await kept.written();
      return result.numUpdatedRows > 0n;
    },

    /** Deletes the app; its codes, grants and tokens go with it (foreign keys cascade). */
    async deleteApp(clientId: string): Promise<boolean> {
      const result = await db.deleteFrom('apps').where('client_id', '=', clientId).executeTakeFirst();
      // It and its tokens are gone: answered once no instance can still admit them.
      await Promise.all([kept.written(), contexts.written()]);
      return result.numDeletedRows > 0n;
    },
  };
}

export type AppStore = ReturnType<typeof createAppStore>;
