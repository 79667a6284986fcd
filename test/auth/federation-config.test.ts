import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { runCli } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/service.js';

/** The `IDP_*` settings: parsed, defaulted and checked in src/config.ts; a bad combination names its variable. */

const BASE = {
  IDP_ISSUER: 'https://login.plan.example/oauth2/default',
  IDP_CLIENT_ID: 'openenroll',
  IDP_CLIENT_SECRET: 's3cret-value',
};

function failsOn(env: Record<string, string>, variable: string, problem: RegExp) {
  assert.throws(
    () => loadConfig(env),
    (error: unknown) =>
      error instanceof ConfigError && error.variable === variable && problem.test(error.message),
    `${JSON.stringify(env)} should fail on ${variable}`,
  );
}

describe('identity-provider settings', () => {
  test('unset: no identity provider', () => {
    assert.equal(loadConfig({}).idp, undefined);
  });

  test('a patient-id claim, with the defaults: scopes openid profile, generic labels', () => {
    const { idp } = loadConfig({ ...BASE, IDP_PATIENT_ID_CLAIM: 'fhir_patient' });
    assert.deepEqual(idp, {
      issuer: 'https://login.plan.example/oauth2/default',
      clientId: 'openenroll',
      clientSecret: 's3cret-value',
      scopes: ['openid', 'profile'],
      label: { en: 'your health plan', es: 'su plan de salud' },
      memberLink: { kind: 'patient-id', claim: 'fhir_patient' },
    });
  });

  test('a member-id claim and system; the issuer kept exactly (trailing slash); IDP_LABEL serves Spanish too', () => {
    const { idp } = loadConfig({
      ...BASE,
      IDP_ISSUER: 'https://tenant.auth.example/',
      IDP_MEMBER_ID_CLAIM: 'member_number',
      IDP_MEMBER_ID_SYSTEM: 'https://plan.example/member-ids',
      IDP_SCOPES: 'openid profile member',
      IDP_LABEL: 'Acme Health',
    });
    assert.equal(idp?.issuer, 'https://tenant.auth.example/');
    assert.deepEqual(idp?.scopes, ['openid', 'profile', 'member']);
    assert.deepEqual(idp?.label, { en: 'Acme Health', es: 'Acme Health' });
    assert.deepEqual(idp?.memberLink, {
      kind: 'member-id',
      claim: 'member_number',
      system: 'https://plan.example/member-ids',
    });
    assert.equal(
      loadConfig({ ...BASE, IDP_PATIENT_ID_CLAIM: 'p', IDP_LABEL_ES: 'Acme Salud' }).idp?.label.es,
      'Acme Salud',
    );
  });

  test('plain http only for a loopback issuer', () => {
    assert.ok(loadConfig({ ...BASE, IDP_ISSUER: 'http://127.0.0.1:9000', IDP_PATIENT_ID_CLAIM: 'p' }).idp);
    assert.ok(
      loadConfig({ ...BASE, IDP_ISSUER: 'http://localhost:9000/realm', IDP_PATIENT_ID_CLAIM: 'p' }).idp,
    );
    failsOn(
      { ...BASE, IDP_ISSUER: 'http://login.plan.example', IDP_PATIENT_ID_CLAIM: 'p' },
      'IDP_ISSUER',
      /https/,
    );
    failsOn(
      { ...BASE, IDP_ISSUER: 'login.plan.example', IDP_PATIENT_ID_CLAIM: 'p' },
      'IDP_ISSUER',
      /not a URL/,
    );
    failsOn(
      { ...BASE, IDP_ISSUER: 'https://login.plan.example/?tenant=1', IDP_PATIENT_ID_CLAIM: 'p' },
      'IDP_ISSUER',
      /no query or fragment/,
    );
  });

  test('a bad combination names the variable', () => {
    failsOn({ ...BASE }, 'IDP_PATIENT_ID_CLAIM', /IDP_PATIENT_ID_CLAIM or IDP_MEMBER_ID_CLAIM/);
    failsOn(
      { ...BASE, IDP_PATIENT_ID_CLAIM: 'p', IDP_MEMBER_ID_CLAIM: 'm', IDP_MEMBER_ID_SYSTEM: 's' },
      'IDP_MEMBER_ID_CLAIM',
      /not both/,
    );
    failsOn({ ...BASE, IDP_MEMBER_ID_CLAIM: 'm' }, 'IDP_MEMBER_ID_SYSTEM', /must be set/);
    failsOn(
      { ...BASE, IDP_PATIENT_ID_CLAIM: 'p', IDP_MEMBER_ID_SYSTEM: 's' },
      'IDP_MEMBER_ID_SYSTEM',
      /only goes with/,
    );
    failsOn({ IDP_ISSUER: BASE.IDP_ISSUER, IDP_PATIENT_ID_CLAIM: 'p' }, 'IDP_CLIENT_ID', /must be set/);
    failsOn(
      { ...BASE, IDP_CLIENT_SECRET: '', IDP_PATIENT_ID_CLAIM: 'p' },
      'IDP_CLIENT_SECRET',
      /must be set/,
    );
    failsOn({ IDP_CLIENT_ID: 'openenroll' }, 'IDP_ISSUER', /must be set when IDP_CLIENT_ID is/);
    failsOn({ ...BASE, IDP_PATIENT_ID_CLAIM: 'p', IDP_SCOPES: 'profile email' }, 'IDP_SCOPES', /openid/);
    failsOn({ ...BASE, IDP_PATIENT_ID_CLAIM: 'p', IDP_LABEL: 'x'.repeat(81) }, 'IDP_LABEL', /80 characters/);
  });
});

describe('a bad identity-provider setting stops the CLI', () => {
  let database: TestDatabase;
  before(async () => {
    database = createTestDatabase();
    await (await database.open()).close();
  });
  after(() => database.drop());

  test('exit code 2 and a message naming the variable', async () => {
    const result = await runCli(database.processUrl, ['migrate'], { IDP_ISSUER: BASE.IDP_ISSUER });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^openenroll: bad setting IDP_CLIENT_ID: must be set with IDP_ISSUER/m);
  });
});
