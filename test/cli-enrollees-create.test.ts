import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { verify } from '@node-rs/argon2';
import { createEnrolleeStore } from '../src/auth/store/enrollees.js';
import { runCli } from './helpers/cli.js';
import { createTestDatabase, type TestDatabase } from './helpers/service.js';

let database: TestDatabase;
before(async () => {
  database = createTestDatabase();
  await (await database.open()).close();
});
after(() => database.drop());

const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli(database.processUrl, args, { SANDBOX_ENROLLEES: '1', ...env });

async function storedLogin(username: string) {
  const storage = await database.open();
  try {
    return await createEnrolleeStore(storage.db).findEnrolleeByUsername(username);
  } finally {
    await storage.close();
  }
}

describe('openenroll enrollees create', () => {
  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openenroll-enrollees-create-'));
    const file = join(dir, 'patients.ndjson');
    const patient = (id: string, family: string) =>
      JSON.stringify({
        resourceType: 'Patient',
        id,
        identifier: [{ system: 'http://hl7.org/fhir/sid/us-mbi', value: `MBI${id}` }],
        name: [{ family, given: ['Pat'] }],
        gender: 'unknown',
        birthDate: '1950',
      });
    writeFileSync(file, `${patient('567834', 'Doe')}\n${patient('567835', 'Roe')}\n`);
    const loaded = await cli(['fhir', 'import', file]);
    assert.equal(loaded.code, 0, loaded.stderr);
  });

  test('makes a login for a loaded Patient; the password is stored as a hash that verifies', async () => {
    const made = await cli([
      'enrollees',
      'create',
      '--patient',
      '567834',
      '--username',
      'bene1',
      '--password',
      'Correct-Horse-1',
      '--json',
    ]);
    assert.equal(made.code, 0, made.stderr);
    assert.deepEqual(JSON.parse(made.stdout), {
      username: 'bene1',
      password: 'Correct-Horse-1',
      patient_id: '567834',
    });
    const stored = await storedLogin('bene1');
    assert.equal(stored?.patientId, '567834');
    assert.equal(stored?.familyName, 'Doe');
    assert.equal(stored?.sandboxPassword, null, 'the password is not kept in the clear');
    assert.ok(await verify(stored!.passwordHash, 'Correct-Horse-1'));
    assert.equal((await storedLogin('bene1'))?.givenName, 'Pat');
  });

  test('without --username and --password: bene<id> and a random password printed once', async () => {
    const made = await cli(['enrollees', 'create', '--patient', '567835', '--json']);
    assert.equal(made.code, 0, made.stderr);
    const printed = JSON.parse(made.stdout) as { username: string; password: string };
    assert.equal(printed.username, 'bene567835');
    assert.match(printed.password, /^[A-Za-z0-9_-]{16}$/);
    assert.ok(await verify((await storedLogin('bene567835'))!.passwordHash, printed.password));
  });

  test('refuses an unknown patient, a second login for a patient, a taken username, a short password', async () => {
    const unknown = await cli(['enrollees', 'create', '--patient', '999']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no Patient "999" is loaded/);
    const twice = await cli(['enrollees', 'create', '--patient', '567834', '--username', 'other']);
    assert.equal(twice.code, 1);
    assert.match(twice.stderr, /patient "567834" already has the login "bene1"/);
    const taken = await cli(['enrollees', 'create', '--patient', '-19990000000001', '--username', 'bene1']);
    assert.equal(taken.code, 1);
    const short = await cli(['enrollees', 'create', '--patient', '567834', '--password', 'short']);
    assert.equal(short.code, 1);
    assert.match(short.stderr, /at least 8 characters/);
  });

  test('is refused in production mode, where members sign in through the plan’s identity provider', async () => {
    const refused = await cli(['enrollees', 'create', '--patient', '567834'], {
      OPENENROLL_MODE: 'production',
    });
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /sandbox mode/);
  });
});
