import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { NO_PASSWORD } from '../../src/auth/federation/enrollee-link.js';
import { importFhir } from '../../src/ingest/fhir.js';
import { SANDBOX_SEED, writeSyntheticNdjson } from '../../src/ingest/sandbox-claims.js';
import { runCli } from '../helpers/cli.js';
import {
  alertText,
  CALLBACK_PATH,
  connectAndExchange,
  readFhir,
  returnFromIdp,
  signInLink,
  startAtLoginPage,
  type IdpFlow,
} from '../helpers/federation-flow.js';
import { Browser } from '../helpers/flow.js';
import { startServiceWithLogs, type LoggedService } from '../helpers/logged-service.js';
import type { TestApp } from '../helpers/pages.js';
import { freePort } from '../helpers/processes.js';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';
import { startTestIdp, type TestIdp } from '../helpers/test-idp.js';

/**
 * A production deployment: no sandbox accounts; the plan's claims data imported as a payer loads it; members
 * sign in only through the plan's IdP and are tied to their Patient by a member-id claim matched against
 * `Patient.identifier` (system `https://openenroll.dev/identifiers/member`, the sample data's member
 * numbers `M1999…`). Their enrollee records are created at the first sign-in; the operator lists and
 * unlinks identities with the CLI.
 */

const MEMBER_SYSTEM = 'https://openenroll.dev/identifiers/member';
const PRODUCTION = { OPENENROLL_MODE: 'production' };

const members: Record<string, Record<string, unknown>> = {
  maria: { member_id: 'M19990000000001', given_name: 'María', family_name: 'Ortiz' },
  stranger: { member_id: 'M00000000000000' },
};

let idp: TestIdp;
let running: RunningService;
let publicUrl: string;
let app: TestApp;

before(async () => {
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  idp = await startTestIdp({
    redirectUris: [`${publicUrl}${CALLBACK_PATH}`],
    members,
    authMethod: 'client_secret_post',
  });
  running = await startService(
    {
      ...PRODUCTION,
      ...idp.env({ memberIdClaim: 'member_id', system: MEMBER_SYSTEM }),
      PUBLIC_URL: publicUrl,
    },
    port,
  );
  // The plan's claims data, loaded through the import path (as `openenroll fhir import` does).
  const dir = mkdtempSync(join(tmpdir(), 'openenroll-federation-'));
  try {
    const file = join(dir, 'claims.ndjson');
    await writeSyntheticNdjson(file, 3, SANDBOX_SEED);
    await importFhir(
      [file],
      { fhir: running.service.fhir.fhir, enrollees: running.service.deps.enrollees },
      Date.now(),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // A real identifier of Patient -19990000000002, but its MBI: not of the configured system.
  const patient = await running.service.fhir.fhir.findResource('Patient', '-19990000000002');
  const identifiers = (JSON.parse(patient!.body) as { identifier: { system: string; value: string }[] })
    .identifier;
  members.wrongsystem = { member_id: identifiers.find((i) => i.system !== MEMBER_SYSTEM)!.value };
  app = await createTestApp(running);
});
after(async () => {
  await running?.close();
  await idp?.close();
});

const cli = (args: string[]) => runCli(running.database.processUrl, args, PRODUCTION);

async function enrollees() {
  return running.service.storage.db.selectFrom('enrollees').selectAll().orderBy('username').execute();
}

async function signIn(login: string): Promise<{ flow: IdpFlow; response: Response }> {
  const flow = await startAtLoginPage(running.url, app);
  const { response } = await returnFromIdp(flow, publicUrl, login);
  return { flow, response };
}

describe('production: sign-in through the IdP only', () => {
  test('the login page has only "Sign in with your health plan"; password login does not exist', async () => {
    const flow = await startAtLoginPage(running.url, app);
    assert.equal(signInLink(flow.loginHtml)?.text, 'Sign in with your health plan');
    assert.doesNotMatch(flow.loginHtml, /<form|name="password"|BBUser/);
    const post = await new Browser(running.url).postForm('/v2/accounts/login', {
      username: 'BBUser00000',
      password: 'PW00000!',
    });
    assert.equal(post.status, 405);
  });

  test('first sign-in: an enrollee is created for the Patient of that member id, with no usable password', async () => {
    assert.equal((await enrollees()).length, 0, 'production starts with no enrollee');
    const { flow, response } = await signIn('maria');
    assert.equal(response.status, 302);
    const tokens = await connectAndExchange(running.url, flow, response, app);
    assert.equal(tokens.patient, '-19990000000001');
    const patient = await readFhir(running.url, '/v2/fhir/Patient/-19990000000001', tokens.access_token);
    assert.equal(patient.status, 200);
    const eobs = await readFhir(running.url, '/v2/fhir/ExplanationOfBenefit', tokens.access_token);
    assert.equal(eobs.status, 200);
    assert.ok((eobs.body.total as number) >= 20);

    const [created, ...others] = await enrollees();
    assert.equal(others.length, 0);
    assert.match(created!.username, /^idp-[0-9a-f]{20}$/);
    assert.equal(created!.patient_id, '-19990000000001');
    assert.equal(created!.password_hash, NO_PASSWORD);
    assert.equal(created!.sandbox_password, null);
    // The name comes from the Patient resource (the claims data), not the IdP's claims.
    assert.equal(`${created!.given_name} ${created!.family_name}`, 'Jane Doe');
  });

  test('enrollees list shows the linked identity (issuer, subject); --json adds it to each enrollee', async () => {
    const json = await cli(['enrollees', 'list', '--json']);
    assert.equal(json.code, 0, json.stderr);
    const rows = JSON.parse(json.stdout) as {
      username: string;
      password: string;
      patient_id: string;
      identities: { issuer: string; subject: string; linked_at: string; last_sign_in_at: string }[];
    }[];
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.password, '');
    assert.equal(rows[0]!.patient_id, '-19990000000001');
    assert.deepEqual(
      rows[0]!.identities.map((i) => [i.issuer, i.subject]),
      [[idp.issuer, 'maria']],
    );
    assert.match(rows[0]!.identities[0]!.linked_at, /^\d{4}-\d{2}-\d{2}T/);
    const table = await cli(['enrollees', 'list']);
    assert.match(table.stdout, /IDENTITIES/);
    assert.ok(table.stdout.includes(`${idp.issuer} maria`));
  });

  test('enrollees unlink ends the enrollee’s sessions; the next sign-in links the same enrollee again', async () => {
    const { flow, response } = await signIn('maria');
    assert.equal(response.status, 302);
    const signedIn = await flow.browser.get(`/v2/o/authorize/?${flow.request.query}`);
    assert.match(signedIn.headers.get('location') ?? '', /^\/v2\/o\/authorize\/[0-9a-f-]{36}\//, 'consent');

    const help = await cli(['enrollees', 'unlink', '--help']);
    assert.match(help.stdout, /--issuer <url>/);
    assert.match(help.stdout, /--subject <sub>/);
    const unlinked = await cli(['enrollees', 'unlink', '--issuer', idp.issuer, '--subject', 'maria']);
    assert.equal(unlinked.code, 0, unlinked.stderr);
    assert.match(
      unlinked.stdout,
      /^unlinked maria of http:\/\/127\.0\.0\.1:\d+ from idp-[0-9a-f]{20}; its sessions are ended/,
    );

    const signedOut = await flow.browser.get(`/v2/o/authorize/?${flow.request.query}`);
    assert.match(signedOut.headers.get('location') ?? '', /^\/v2\/accounts\/login\?/, 'the session is gone');
    const listed = JSON.parse((await cli(['enrollees', 'list', '--json'])).stdout) as {
      identities: unknown[];
    }[];
    assert.deepEqual(listed[0]!.identities, []);
    const again = await cli(['enrollees', 'unlink', '--issuer', idp.issuer, '--subject', 'maria']);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /no enrollee is linked to subject "maria"/);

    const before = await enrollees();
    const relinked = await signIn('maria');
    const tokens = await connectAndExchange(running.url, relinked.flow, relinked.response, app);
    assert.equal(tokens.patient, '-19990000000001');
    assert.deepEqual(
      (await enrollees()).map((e) => e.id),
      before.map((e) => e.id),
      'the same enrollee',
    );
  });

  for (const login of ['stranger', 'wrongsystem']) {
    test(`a member id that matches no Patient of the system (${login}) → 403 page; no enrollee, no identity`, async () => {
      const before = await enrollees();
      const { flow, response } = await signIn(login);
      assert.equal(response.status, 403);
      assert.match(alertText(await response.text()) ?? '', /no health plan claims data is linked/);
      assert.equal(flow.browser.cookies.get('oe_session'), undefined);
      assert.equal((await enrollees()).length, before.length);
      const identities = await running.service.storage.db
        .selectFrom('enrollee_identities')
        .select('subject')
        .execute();
      assert.deepEqual(
        identities.map((i) => i.subject),
        ['maria'],
      );
    });
  }
});

describe('production without an identity provider', () => {
  let logged: LoggedService;
  before(async () => {
    logged = await startServiceWithLogs(PRODUCTION);
  });
  after(() => logged?.close());

  test('the start-up log warns; the login page says sign-in is not available (503), in both languages', async () => {
    const warning = logged.records().find((r) => r.event === 'sign_in_not_configured');
    assert.equal(warning?.level, 40);
    assert.match(String(warning?.msg), /IDP_ISSUER/);
    for (const [lang, text] of [
      ['en', /^Sign-in is not available yet/],
      ['es', /^El inicio de sesión todavía no está disponible/],
    ] as const) {
      const page = await fetch(`${logged.url}/v2/accounts/login?lang=${lang}`);
      assert.equal(page.status, 503);
      const html = await page.text();
      assert.match(alertText(html) ?? '', text);
      assert.equal(signInLink(html), undefined);
      assert.doesNotMatch(html, /<form/);
    }
    const start = await fetch(`${logged.url}/v2/accounts/idp/start`);
    assert.equal(start.status, 404);
    assert.match(alertText(await start.text()) ?? '', /^Sign-in is not available yet/);
  });
});
