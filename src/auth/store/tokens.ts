import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { constantTimeEqual } from '../../shared/crypto.js';
import type { DialectCapabilities } from '../../storage/dialect.js';
import { batchedCalls } from '../../storage/batched-statements.js';
import { instant } from '../../storage/columns.js';
import { preparedQuery } from '../../storage/prepared.js';
import type { Database } from '../../storage/schema.js';
import type { DataAccessType } from './apps.js';
import { createCodeStore } from './codes.js';
import { createAccessGrantStore } from './access-grants.js';
import { keptAccessContexts } from './access-contexts.js';
import type { KeptReads } from '../../storage/kept-reads.js';
import type {
  AccessTokenContext,
  ClientRotation,
  TokenHashes,
  RefreshFamily,
  RotatedFamily,
  TokenOwner,
} from './token-types.js';

export type * from './token-types.js';

type FamilyScope = ExpressionBuilder<Database, 'token_families'>;

/** The patient of the family's enrollee, as a subquery. */
function patientOf(eb: FamilyScope) {
  return eb
    .selectFrom('enrollees')
    .select('enrollees.patient_id')
    .whereRef('enrollees.id', '=', 'token_families.enrollee_id');
}

/** The family's data access grant (app and enrollee), as a subquery. */
function grantOf(eb: FamilyScope) {
  return eb
    .selectFrom('grants')
    .whereRef('grants.client_id', '=', 'token_families.client_id')
    .whereRef('grants.enrollee_id', '=', 'token_families.enrollee_id');
}

/** Families with their enrollee and, if there is one, the grant of their app and enrollee. */
function familiesWithGrant(db: Kysely<Database>) {
  return db
    .selectFrom('token_families as f')
    .innerJoin('enrollees as e', 'e.id', 'f.enrollee_id')
    .leftJoin('grants as g', (join) =>
      join.onRef('g.client_id', '=', 'f.client_id').onRef('g.enrollee_id', '=', 'f.enrollee_id'),
    );
}

type RotateParams =
  'familyId' | 'spentHash' | 'clientId' | 'now' | 'accessHash' | 'accessExpiresAt' | 'refreshHash' | 'scope';

/** One request's rotation for its client, as the batched statement takes it. */
type RotateForClient = Record<Exclude<RotateParams, 'scope'> | 'secretHash', string | number | null>;

/** The family's app, as a subquery. */
function appOf(eb: FamilyScope) {
  return eb.selectFrom('apps').whereRef('apps.client_id', '=', 'token_families.client_id');
}

/** The hot statements go out as named statements (storage/prepared.ts); each names its columns. */
const NAMED = { named: true };

/** A stored hash and a presented token's hash, compared in constant time; no hash matches nothing. */
function sameHash(stored: string | null, presented: string): boolean {
  return stored !== null && constantTimeEqual(stored, presented);
}

/**
 * Token families: one row per authorization an app holds, with the hashes of its current access and refresh
 * tokens. Every lookup is by the family id the token names (migration 0012): a refresh replaces both hashes
 * in one statement, a Bearer check reads one row.
 */
function createFamilyStore(
  db: Kysely<Database>,
  tokenDb: Kysely<Database>,
  kept: KeptReads<AccessRow | undefined>,
  batched: boolean,
) {
  /**
   * docs/decisions.md#refresh-tokens: a refresh token is single use — it must be the
   * family's current one, of this app, the family not revoked and its grant live. One conditional update:
   * on PostgreSQL the row lock lets exactly one of two concurrent refreshes with the same token match (the
   * other re-reads the row and no longer finds the hash); SQLite runs statements one at a time. The hashes
   * are compared by the database here: they are SHA-256 digests of 256-bit secrets, so how long a mismatch
   * takes tells nothing that helps to forge one.
   */
  const rotation = (p: (name: RotateParams) => never) =>
    db
      .updateTable('token_families')
      .set((eb) => ({
        access_hash: p('accessHash'),
        access_expires_at: p('accessExpiresAt'),
        refresh_hash: p('refreshHash'),
        scope: eb.fn.coalesce(eb.val<string | null>(p('scope')), eb.ref('scope')),
        rotated_at: p('now'),
      }))
      .where('family_id', '=', p('familyId'))
      .where('refresh_hash', '=', p('spentHash'))
      .where('client_id', '=', p('clientId'))
      .where('revoked_at', 'is', null)
      .where((eb) =>
        eb.exists(
          grantOf(eb)
            .select('grants.id')
            .where((g) => g.or([g('grants.expires_at', 'is', null), g('grants.expires_at', '>', p('now'))])),
        ),
      )
      .returning((eb) => [
        'family_id',
        'enrollee_id',
        'scope',
        'auth_time',
        patientOf(eb).as('patient_id'),
        grantOf(eb).select('grants.expires_at').as('grant_expires_at'),
        appOf(eb).select('apps.data_access_type').as('data_access_type'),
      ]);
  const rotate = preparedQuery<RotateParams, RotatedRow>(tokenDb, rotation, NAMED);
  /**
   * The same rotation for a client not yet authenticated: it also requires the app to be active, to take
   * refresh tokens, and to have the secret whose SHA-256 is `secretHash` (a digest of a random secret, so
   * comparing it in the database tells nothing that helps to forge one). One round trip for the whole
   * grant, client authentication included, against the app's row as it is now.
   */
  const rotateForClient = preparedQuery<RotateParams | 'secretHash', RotatedRow>(
    tokenDb,
    (p) =>
      rotation(p).where((eb) =>
        eb.exists(
          appOf(eb)
            .select('apps.client_id')
            .where('apps.client_secret_hash', '=', p('secretHash'))
            .where('apps.active', '=', 1)
            .where('apps.data_access_type', '<>', 'ONE_TIME'),
        ),
      ),
    NAMED,
  );
  /**
   * The same rotation for the client for many families at once (PostgreSQL; docs/decisions.md#batched-statements):
   * the rows of `unnest` stand for the requests, each naming its family once, and each family's conditions are
   * its own request's. Row locks work per family as in the single statement: a concurrent rotation of a family
   * makes this one re-check that family's row as it is after the other's commit.
   */
  const rotateMany = preparedQuery<keyof RotateForClient, RotatedRow>(
    tokenDb,
    (p) => ({
      compile: () =>
        sql<RotatedRow>`
          update token_families as f set
            access_hash = v.access_hash, access_expires_at = v.access_expires_at,
            refresh_hash = v.refresh_hash, rotated_at = v.now
          from unnest(
            ${p('familyId')}::text[], ${p('spentHash')}::text[], ${p('clientId')}::text[],
            ${p('secretHash')}::text[], ${p('accessHash')}::text[], ${p('accessExpiresAt')}::bigint[],
            ${p('refreshHash')}::text[], ${p('now')}::bigint[]
          ) as v(family_id, spent_hash, client_id, secret_hash, access_hash, access_expires_at, refresh_hash, now)
          where f.family_id = v.family_id and f.refresh_hash = v.spent_hash and f.client_id = v.client_id
            and f.revoked_at is null
            and exists (select 1 from grants as g where g.client_id = f.client_id
              and g.enrollee_id = f.enrollee_id and (g.expires_at is null or g.expires_at > v.now))
            and exists (select 1 from apps as a where a.client_id = f.client_id
              and a.client_secret_hash = v.secret_hash and a.active = 1 and a.data_access_type <> 'ONE_TIME')
          returning f.family_id, f.enrollee_id, f.scope, f.auth_time,
            (select e.patient_id from enrollees as e where e.id = f.enrollee_id) as patient_id,
            (select g.expires_at from grants as g where g.client_id = f.client_id
              and g.enrollee_id = f.enrollee_id) as grant_expires_at,
            (select a.data_access_type from apps as a where a.client_id = f.client_id) as data_access_type`.compile(
          tokenDb,
        ),
    }),
    NAMED,
  );
  const rotateManyForClient = batchedCalls<RotateForClient, RotatedRow>(async (unordered) => {
    // In family order: two batches (on two instances) that share families lock them in the same order, so
    // neither waits for a row the other holds while holding one it waits for (a deadlock).
    const items = [...unordered].sort((a, b) => (String(a.familyId) < String(b.familyId) ? -1 : 1));
    const columns = Object.fromEntries(
      (Object.keys(items[0]!) as (keyof RotateForClient)[]).map((key) => [
        key,
        items.map((item) => item[key]),
      ]),
    ) as Record<keyof RotateForClient, unknown[]>;
    const { rows } = await rotateMany(columns);
    return new Map(rows.map((row) => [row.family_id, row]));
  });
  const rotated = (row: RotatedRow | undefined): ClientRotation | undefined =>
    row && {
      familyId: row.family_id,
      enrolleeId: row.enrollee_id,
      patientId: row.patient_id,
      scope: row.scope,
      authTime: instant(row.auth_time),
      grantExpiresAt: instant(row.grant_expires_at),
      dataAccessType: row.data_access_type as DataAccessType,
    };

  /** RFC 6750 §2.1: a family with what a data request needs: its app, its enrollee and their grant. */
  const accessContext = preparedQuery<'familyId', AccessRow>(
    db,
    (p) =>
      familiesWithGrant(db)
        .innerJoin('apps as a', 'a.client_id', 'f.client_id')
        .select([
          'f.family_id',
          'f.client_id',
          'f.enrollee_id',
          'f.scope',
          'f.access_hash',
          'f.access_expires_at',
          'f.revoked_at',
          'a.name as app_name',
          'a.active as app_active',
          'e.patient_id',
          'e.given_name',
          'e.family_name',
          'e.email',
          'g.id as grant_id',
          'g.expires_at as grant_expires_at',
        ])
        .where('f.family_id', '=', p('familyId')),
    NAMED,
  );

  return {
    /**
     * Spends `spentHash` and gives its family the next tokens (and, when `scope` is given, that narrower
     * scope). Undefined when the refresh is refused; `findRefreshFamily` then tells why.
     */
    async rotateRefreshToken(
      familyId: string,
      spentHash: string,
      clientId: string,
      next: TokenHashes,
      scope: string | null,
      now: number,
    ): Promise<RotatedFamily | undefined> {
      const { rows } = await rotate({ familyId, spentHash, clientId, now, scope, ...next });
      kept.forget(familyId);
      return rotated(rows[0]);
    },

    /**
     * `rotateRefreshToken` (keeping the family's scope) for the client that presents `clientId` and a
     * secret hashing to `secretHash`: undefined when anything is refused, the client included.
     */
    async rotateForClient(
      familyId: string,
      spentHash: string,
      clientId: string,
      secretHash: string,
      next: TokenHashes,
      now: number,
    ): Promise<ClientRotation | undefined> {
      const params = { familyId, spentHash, clientId, secretHash, now, ...next };
      const row = batched
        ? await rotateManyForClient(familyId, params)
        : (await rotateForClient({ ...params, scope: null })).rows[0];
      kept.forget(familyId);
      return rotated(row);
    },

    /** The family the upgrade to named families recorded for a token issued before it (migration 0012). */
    async findLegacyFamily(tokenHash: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('legacy_tokens')
        .select('family_id')
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      return row?.family_id;
    },

    /**
     * A family as a refused refresh needs it explained: `current` says whether the token presented is the
     * family's live refresh token (or one it has replaced).
     */
    async findRefreshFamily(familyId: string, tokenHash: string): Promise<RefreshFamily | undefined> {
      const row = await familiesWithGrant(db)
        .select([
          'f.family_id',
          'f.client_id',
          'f.enrollee_id',
          'f.scope',
          'f.auth_time',
          'f.refresh_hash',
          'f.revoked_at',
          'e.patient_id',
          'g.id as grant_id',
          'g.expires_at as grant_expires_at',
        ])
        .where('f.family_id', '=', familyId)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        familyId: row.family_id,
        clientId: row.client_id,
        enrolleeId: row.enrollee_id,
        patientId: row.patient_id,
        scope: row.scope,
        authTime: instant(row.auth_time),
        current: sameHash(row.refresh_hash, tokenHash),
        revoked: row.revoked_at !== null,
        hasGrant: row.grant_id !== null,
        grantExpiresAt: instant(row.grant_expires_at),
      };
    },

    /**
     * The family's context when `accessHash` is its current access token; undefined otherwise. The row is
     * kept (access-contexts.ts); a kept row that names another access token may be older than a refresh
     * made through another instance, so the family is read again before the token is refused. `fresh`
     * reads it now in any case.
     */
    async findAccessTokenContext(
      familyId: string,
      accessHash: string,
      fresh = false,
    ): Promise<AccessTokenContext | undefined> {
      const read = async () => (await accessContext({ familyId })).rows[0];
      let row = fresh ? await kept.reread(familyId, read) : await kept.get(familyId, read);
      if (!fresh && row && !sameHash(row.access_hash, accessHash)) row = await kept.reread(familyId, read);
      if (!row || !sameHash(row.access_hash, accessHash)) return undefined;
      return {
        clientId: row.client_id,
        enrolleeId: row.enrollee_id,
        familyId: row.family_id,
        scope: row.scope,
        expiresAt: Number(row.access_expires_at),
        revoked: row.revoked_at !== null,
        appName: row.app_name,
        appActive: row.app_active === 1,
        patientId: row.patient_id,
        givenName: row.given_name,
        familyName: row.family_name,
        email: row.email,
        hasGrant: row.grant_id !== null,
        grantExpiresAt: instant(row.grant_expires_at),
      };
    },

    /** RFC 7009 §2.1: whose token this is, when it is the family's current access or refresh token. */
    async findTokenOwner(familyId: string, tokenHash: string): Promise<TokenOwner | undefined> {
      const row = await db
        .selectFrom('token_families')
        .select(['family_id', 'client_id', 'enrollee_id', 'access_hash', 'refresh_hash', 'revoked_at'])
        .where('family_id', '=', familyId)
        .executeTakeFirst();
      if (!row) return undefined;
      const kind = sameHash(row.access_hash, tokenHash)
        ? 'access_token'
        : sameHash(row.refresh_hash, tokenHash)
          ? 'refresh_token'
          : undefined;
      if (!kind) return undefined;
      return {
        familyId: row.family_id,
        clientId: row.client_id,
        enrolleeId: row.enrollee_id,
        kind,
        live: row.revoked_at === null,
      };
    },

    /**
     * Ends a family: its access and refresh token stop working together (RFC 7009 §2.1 for either token; RFC
     * 6749 §4.1.2 for the tokens of a code used twice).
     */
    async revokeFamily(familyId: string, now: number): Promise<void> {
      await db
        .updateTable('token_families')
        .set({ revoked_at: now })
        .where('family_id', '=', familyId)
        .where('revoked_at', 'is', null)
        .execute();
      await kept.written();
    },

    /**
     * Deletes what can no longer be used: codes a day past expiry, families of `10 hours` apps a day after
     * their access token expired, and revoked families after 30 days (kept that long so a replayed refresh
     * token still answers `invalid_grant`).
     */
    async purgeStale(now: number): Promise<void> {
      const day = 86_400_000;
      await db
        .deleteFrom('auth_codes')
        .where('expires_at', '<', now - day)
        .execute();
      await db
        .deleteFrom('token_families')
        .where((eb) =>
          eb.or([
            eb('revoked_at', '<', now - 30 * day),
            eb.and([eb('refresh_hash', 'is', null), eb('access_expires_at', '<', now - day)]),
          ]),
        )
        .execute();
      kept.forget();
    },
  };
}

interface RotatedRow {
  family_id: string;
  enrollee_id: string;
  scope: string;
  auth_time: number | string | null;
  patient_id: string;
  grant_expires_at: number | string | null;
  data_access_type: string;
}

interface AccessRow {
  family_id: string;
  client_id: string;
  enrollee_id: string;
  scope: string;
  access_hash: string;
  access_expires_at: number | string;
  revoked_at: number | string | null;
  app_name: string;
  app_active: number;
  patient_id: string;
  given_name: string;
  family_name: string;
  email: string | null;
  grant_id: string | null;
  grant_expires_at: number | string | null;
}

export interface TokenStoreOptions {
  /** What refresh rotations and code exchanges write through (storage/connect.ts `Storage.tokenDb`). */
  tokenDb?: Kysely<Database>;
  /** SQLite's change counter (storage/connect.ts `Storage.changeCounter`), for the kept access contexts. */
  changeCounter?: () => number;
}

/**
 * Everything the authorization service stores about codes, grants and tokens, as one store. Refresh
 * rotations and code exchanges write through `tokenDb`, everything else — revocations included — through
 * `db`. Bearer checks are answered from kept rows (access-contexts.ts); the writes here forget them, and
 * those that take access away (revocations, a deleted grant) return once no instance can still use them.
 */
export function createTokenStore(
  db: Kysely<Database>,
  dialect: DialectCapabilities,
  options: TokenStoreOptions = {},
) {
  const tokenDb = options.tokenDb ?? db;
  const kept = keptAccessContexts<AccessRow | undefined>(db, options.changeCounter);
  return {
    ...createCodeStore(db, dialect, tokenDb, () => kept.forget()),
    ...createAccessGrantStore(db, kept),
    ...createFamilyStore(db, tokenDb, kept, dialect.batchedStatements),
  };
}

export type TokenStore = ReturnType<typeof createTokenStore>;
