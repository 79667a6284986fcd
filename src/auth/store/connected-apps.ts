import type { Kysely } from 'kysely';
import { instant } from '../../storage/columns.js';
import type { Database } from '../../storage/schema.js';

/** A data access grant as the enrollee sees it: which app, since when, until when. */
export interface ConnectedApp {
  grantId: string;
  enrolleeId: string;
  clientId: string;
  appName: string;
  dataAccessType: string;
  logoUri: string | null;
  tosUri: string | null;
  policyUri: string | null;
  supportEmail: string | null;
  createdAt: number;
  expiresAt: number | null;
}

export function createConnectedAppStore(db: Kysely<Database>) {
  const base = () =>
    db
      .selectFrom('grants as g')
      .innerJoin('apps as a', 'a.client_id', 'g.client_id')
      .select([
        'g.id as grant_id',
        'g.enrollee_id',
        'g.client_id',
        'a.name',
        'a.data_access_type',
        'a.logo_uri',
        'a.tos_uri',
        'a.policy_uri',
        'a.support_email',
        'g.created_at',
        'g.expires_at',
      ]);
  type Row = Awaited<ReturnType<ReturnType<typeof base>['executeTakeFirstOrThrow']>>;
  const toConnected = (r: Row): ConnectedApp => ({
    grantId: r.grant_id,
    enrolleeId: r.enrollee_id,
    clientId: r.client_id,
    appName: r.name,
    dataAccessType: r.data_access_type,
    logoUri: r.logo_uri,
    tosUri: r.tos_uri,
    policyUri: r.policy_uri,
    supportEmail: r.support_email,
    createdAt: Number(r.created_at),
    expiresAt: instant(r.expires_at),
  });
  return {
    /** The enrollee's grants that have not expired, by app name. */
    async listConnectedApps(enrolleeId: string, now: number): Promise<ConnectedApp[]> {
      const rows = await base()
        .where('g.enrollee_id', '=', enrolleeId)
        .where((eb) => eb.or([eb('g.expires_at', 'is', null), eb('g.expires_at', '>', now)]))
        .orderBy('a.name')
        .execute();
      return rows.map(toConnected);
    },

    async findConnectedApp(grantId: string): Promise<ConnectedApp | undefined> {
      const row = await base().where('g.id', '=', grantId).executeTakeFirst();
      return row ? toConnected(row) : undefined;
    },
  };
}

export type ConnectedAppStore = ReturnType<typeof createConnectedAppStore>;
