import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { registerApp } from '../../src/auth/oauth/registration.js';
import { createAppStore, type AppStore } from '../../src/auth/store/apps.js';
import { sandboxIdentity } from '../../src/fhir/sandbox-identity.js';
import { randomToken, sha256 } from '../../src/shared/crypto.js';
import { migrateBefore } from '../helpers/migrations.js';
import { createTestDatabase, startService, type RunningService } from '../helpers/service.js';
import { refresh, revoke, userinfo, type TestApp } from '../helpers/token-calls.js';

/**
 * Issue 19: the token tables became one row per family (migration 0012-token-families). A deployment that
 * upgrades keeps its apps' tokens working: the database is migrated up to the version before, tokens are
 * written the way that version's store wrote them (access_tokens / refresh_tokens rows holding SHA-256
 * hashes), then the current service starts on it, migrates, and is asked to use them.
 */

const HOUR = 3_600_000;

interface OldTokens {
  access: string;
  refresh: string;
  spentRefresh: string;
  tenHourAccess: string;
}

let running: RunningService;
let thirteenMonth: TestApp;
let tenHour: TestApp;
let old: OldTokens;

/** The rows the pre-0012 store wrote for a consent, a code exchange and one refresh. */
async function writeOldTokens(db: Kysely<unknown>, now: number): Promise<OldTokens> {
  const enrolleeId = randomUUID();
  const who = sandboxIdentity(0);
  await sql`insert into enrollees (id, username, password_hash, patient_id, given_name, family_name, email,
      sandbox_password, created_at)
    values (${enrolleeId}, ${who.username}, ${'not-a-hash'}, ${who.patientId}, ${who.givenName},
      ${who.familyName}, ${null}, ${null}, ${now})`.execute(db);
  for (const app of [thirteenMonth, tenHour]) {
    const expires = app === tenHour ? now + 10 * HOUR : now + 395 * 24 * HOUR;
    await sql`insert into grants (id, client_id, enrollee_id, created_at, updated_at, expires_at)
      values (${randomUUID()}, ${app.clientId}, ${enrolleeId}, ${now}, ${now}, ${expires})`.execute(db);
  }
  const tokens = { access: randomToken(), refresh: randomToken(), spentRefresh: randomToken() };
  const spentAccess = randomToken();
  const family = randomUUID();
  const scope = 'openid profile patient/Patient.rs';
  const accessRow = (token: string, clientId: string, familyId: string, revokedAt: number | null) =>
    sql`insert into access_tokens (token_hash, client_id, enrollee_id, family_id, scope, created_at, expires_at,
        revoked_at)
      values (${sha256(token)}, ${clientId}, ${enrolleeId}, ${familyId}, ${scope}, ${now}, ${now + 10 * HOUR},
        ${revokedAt})`.execute(db);
  const refreshRow = (token: string, access: string, usedAt: number | null) =>
    sql`insert into refresh_tokens (token_hash, client_id, enrollee_id, family_id, access_token_hash, scope,
        created_at, used_at, revoked_at, auth_time)
      values (${sha256(token)}, ${thirteenMonth.clientId}, ${enrolleeId}, ${family}, ${sha256(access)}, ${scope},
        ${now}, ${usedAt}, ${null}, ${now})`.execute(db);
  // The first pair, spent by a refresh, and the pair that refresh issued.
  await accessRow(spentAccess, thirteenMonth.clientId, family, now);
  await refreshRow(tokens.spentRefresh, spentAccess, now);
  await accessRow(tokens.access, thirteenMonth.clientId, family, null);
  await refreshRow(tokens.refresh, tokens.access, null);
  // A `10 hours` app's token: an access token alone.
  const tenHourAccess = randomToken();
  await accessRow(tenHourAccess, tenHour.clientId, randomUUID(), null);
  return { ...tokens, tenHourAccess };
}

before(async () => {
  const database = createTestDatabase();
  const storage = await database.open();
  await migrateBefore(storage, '0012');
  const now = Date.now();
  // The apps table as that version had it: the rows its store wrote, without the columns added since.
  const apps: AppStore = {
    ...createAppStore(storage.db),
    async insertApp(app, at) {
      await sql`insert into apps (client_id, name, name_key, client_secret_hash, redirect_uris, data_access_type,
          require_demographic_scopes, scopes, active, logo_uri, policy_uri, tos_uri, support_email,
          token_management, created_at, updated_at)
        values (${app.clientId}, ${app.name}, ${app.name.trim().toLowerCase()}, ${app.clientSecretHash},
          ${JSON.stringify(app.redirectUris)}, ${app.dataAccessType}, ${app.requireDemographicScopes ? 1 : 0},
          ${app.scopes.join(' ')}, ${app.active ? 1 : 0}, ${app.logoUri}, ${app.policyUri}, ${app.tosUri},
          ${app.supportEmail}, ${app.tokenManagement ? 1 : 0}, ${at}, ${at})`.execute(storage.db);
      return { ...app, createdAt: at };
    },
  };
  const register = async (name: string, dataAccessType: 'THIRTEEN_MONTH' | 'ONE_TIME') => {
    const { app, clientSecret } = await registerApp(
      apps,
      {
        name,
        redirectUris: ['http://127.0.0.1:3001/callback'],
        dataAccessType,
        requireDemographicScopes: true,
      },
      now,
    );
    return { clientId: app.clientId, clientSecret, redirectUri: app.redirectUris[0]!, app };
  };
  thirteenMonth = await register('Upgrade 13 months', 'THIRTEEN_MONTH');
  tenHour = await register('Upgrade 10 hours', 'ONE_TIME');
  old = await writeOldTokens(storage.db as Kysely<unknown>, now);
  await storage.close();
  running = await startService({}, 0, database);
});
after(() => running?.close());

test('an access token issued before the upgrade still reads data, for both kinds of app', async () => {
  assert.equal((await userinfo(running.url, old.access)).status, 200);
  assert.equal((await userinfo(running.url, old.tenHourAccess)).status, 200);
});

test('a refresh token issued before the upgrade refreshes once, and the family goes on', async () => {
  const first = await refresh(running.url, thirteenMonth, old.refresh);
  assert.equal(first.status, 200, first.text);
  const body = first.body as { access_token: string; refresh_token: string; patient: string };
  assert.equal(body.patient, sandboxIdentity(0).patientId);
  assert.match(body.refresh_token, /^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/, 'the new token names its family');
  assert.match(body.access_token, /^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
  // The rotation revoked the old access token and the new one works.
  assert.equal((await userinfo(running.url, old.access)).status, 401);
  assert.equal((await userinfo(running.url, body.access_token)).status, 200);
  const second = await refresh(running.url, thirteenMonth, body.refresh_token);
  assert.equal(second.status, 200, second.text);
  // Spent, the new-style token and the old one both answer exactly as docs/decisions.md#refresh-tokens says.
  assert.equal(
    (await refresh(running.url, thirteenMonth, body.refresh_token)).text,
    '{"error":"invalid_grant"}',
  );
  assert.equal((await refresh(running.url, thirteenMonth, old.refresh)).text, '{"error":"invalid_grant"}');
});

test('a refresh token already spent before the upgrade stays refused', async () => {
  const spent = await refresh(running.url, thirteenMonth, old.spentRefresh);
  assert.equal(spent.status, 400, spent.text);
  assert.equal(spent.text, '{"error":"invalid_grant"}');
});

test('a token issued before the upgrade can be revoked (RFC 7009)', async () => {
  assert.equal((await userinfo(running.url, old.tenHourAccess)).status, 200);
  const revoked = await revoke(running.url, tenHour, old.tenHourAccess, '/v2/o/revoke_token/');
  assert.equal(revoked.status, 200, revoked.text);
  assert.equal((await userinfo(running.url, old.tenHourAccess)).status, 401);
});
