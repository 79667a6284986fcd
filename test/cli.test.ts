import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { repoRoot } from './helpers/processes.js';
import { createTestDatabase, type TestDatabase } from './helpers/service.js';

const run = promisify(execFile);

let database: TestDatabase;
before(async () => {
  database = createTestDatabase();
  await (await database.open()).close();
});
after(() => database.drop());

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI (`bin/openenroll.js`) against the suite's database. */
async function cli(args: string[], env: Record<string, string> = {}): Promise<Result> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/openenroll.js', ...args], {
      cwd: repoRoot,
      env: {
        ...process.env,
        DATABASE_URL: database.processUrl,
        SANDBOX_ENROLLEES: '3',
        LOG_LEVEL: 'warn',
        ...env,
      },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('openenroll apps', () => {
  let clientId: string;

  test('create --json prints the client id and the secret once', async () => {
    const result = await cli([
      'apps',
      'create',
      '--name',
      'CLI App',
      '--redirect-uri',
      'https://cli.example/callback',
      '--redirect-uri',
      'http://127.0.0.1/callback',
      '--access',
      'ONE_TIME',
      '--demographic',
      'no',
      '--json',
    ]);
    assert.equal(result.code, 0, result.stderr);
    const body = JSON.parse(result.stdout) as { client_id: string; client_secret: string };
    assert.deepEqual(Object.keys(body), ['client_id', 'client_secret']);
    assert.match(body.client_id, /^[A-Za-z0-9]{40}$/);
    assert.match(body.client_secret, /^[A-Za-z0-9_-]{43}$/);
    clientId = body.client_id;

    const shown = await cli(['apps', 'show', clientId]);
    assert.equal(shown.code, 0);
    const app = JSON.parse(shown.stdout) as Record<string, unknown>;
    assert.equal(app.name, 'CLI App');
    assert.equal(app.access_duration, '10 hours');
    assert.equal(app.require_demographic_scopes, false);
    assert.deepEqual(app.redirect_uris, ['https://cli.example/callback', 'http://127.0.0.1/callback']);
    assert.ok(!shown.stdout.includes(body.client_secret), 'the secret is never shown again');
  });

  test('list, disable, enable, delete', async () => {
    assert.match((await cli(['apps', 'list'])).stdout, /CLI App\s+10 hours\s+no\s+yes/);
    assert.equal((await cli(['apps', 'disable', clientId])).code, 0);
    const listed = JSON.parse((await cli(['apps', 'list', '--json'])).stdout) as { active: boolean }[];
    assert.equal(listed[0]!.active, false);
    assert.equal((await cli(['apps', 'enable', clientId])).code, 0);
    assert.equal((await cli(['apps', 'delete', clientId])).code, 0);
    const missing = await cli(['apps', 'show', clientId]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no app with client id/);
  });

  test('bad input is refused with a message, nothing stored', async () => {
    const base = ['apps', 'create', '--name', 'Bad', '--demographic', 'yes'];
    const badAccess = await cli([...base, '--redirect-uri', 'https://a.example/cb', '--access', 'FOREVER']);
    assert.equal(badAccess.code, 1);
    assert.match(badAccess.stderr, /--access must be one of ONE_TIME, THIRTEEN_MONTH, RESEARCH_STUDY/);
    const fragment = await cli([...base, '--redirect-uri', 'https://a.example/cb#frag']);
    assert.equal(fragment.code, 1);
    assert.match(fragment.stderr, /fragments/);
    const missing = await cli(['apps', 'create', '--name', 'Bad']);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /required option/);
    assert.deepEqual(JSON.parse((await cli(['apps', 'list', '--json'])).stdout), []);
  });

  test('an unsafe redirect URI is refused, naming the rule it breaks; no app is created', async () => {
    const before = (await cli(['apps', 'list', '--json'])).stdout;
    const base = ['apps', 'create', '--name', 'Unsafe', '--demographic', 'no', '--json'];
    for (const [uris, rule] of [
      [
        ['http://app.example/cb'],
        'http redirect URIs are allowed only on loopback (127.0.0.1, [::1], localhost): http://app.example/cb',
      ],
      [['https://user:pass@x.example/cb'], 'must not contain user information'],
      [['vbscript:msgbox(1)'], 'the vbscript: scheme is not allowed'],
      [['http:/relative'], 'http redirect URIs must be written http://host/path: http:/relative'],
      // One bad URI among good ones refuses the whole registration.
      [['https://ok.example/cb', 'myapp:/cb'], 'reverse domain names'],
    ] as const) {
      const result = await cli([...base, ...uris.flatMap((uri) => ['--redirect-uri', uri])]);
      assert.equal(result.code, 1, uris.join(' '));
      assert.ok(result.stderr.includes(rule), result.stderr);
      assert.equal(result.stdout, '', 'no client id or secret printed');
    }
    assert.equal((await cli(['apps', 'list', '--json'])).stdout, before);
  });

  test('a duplicate name is refused', async () => {
    const args = [
      'apps',
      'create',
      '--name',
      'Twice',
      '--redirect-uri',
      'https://a.example/cb',
      '--demographic',
      'yes',
    ];
    assert.equal((await cli(args)).code, 0);
    const again = await cli([...args.slice(0, 3), 'twice', ...args.slice(4)]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already exists/);
  });
});

describe('openenroll enrollees, help and settings', () => {
  test("enrollees list --json prints the sandbox credentials (and each one's linked sign-ins: none)", async () => {
    const result = await cli(['enrollees', 'list', '--json']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), [
      { username: 'BBUser00000', password: 'PW00000!', patient_id: '-19990000000001', identities: [] },
      { username: 'BBUser00001', password: 'PW00001!', patient_id: '-19990000000002', identities: [] },
      { username: 'BBUser00002', password: 'PW00002!', patient_id: '-19990000000003', identities: [] },
    ]);
  });

  test('--help on every command', async () => {
    for (const args of [
      [],
      ['apps'],
      ['apps', 'create'],
      ['enrollees', 'list'],
      ['enrollees', 'unlink'],
      ['enrollees', 'create'],
      ['serve'],
      ['migrate'],
      ['signing-keys'],
      ['signing-keys', 'rotate'],
    ]) {
      const result = await cli([...args, '--help']);
      assert.equal(result.code, 0, args.join(' '));
      assert.match(result.stdout, /^Usage: openenroll/m, args.join(' '));
    }
    assert.match((await cli(['apps', 'create', '--help'])).stdout, /--redirect-uri <uri>/);
    assert.match((await cli(['signing-keys', 'rotate', '--help'])).stdout, /--now/);
  });

  test('ingest --help names each default once (commander prints it)', async () => {
    const help = (await cli(['ingest', '--help'])).stdout.replace(/\s+/g, ' ');
    const allowRejects = /--allow-rejects <n> (.*?) --sample/.exec(help)?.[1];
    assert.equal(allowRejects, 'store the load even if up to n rows are rejected (default: 0)');
  });

  test('a bad setting stops the process with a message naming it', async () => {
    const port = await cli(['migrate'], { PORT: 'eighty' });
    assert.equal(port.code, 2);
    assert.match(port.stderr, /bad setting PORT: expected a whole number, got "eighty"/);
    const mode = await cli(['migrate'], { OPENENROLL_MODE: 'staging' });
    assert.match(mode.stderr, /OPENENROLL_MODE/);
    const db = await cli(['migrate'], { DATABASE_URL: 'mysql://x' });
    assert.match(db.stderr, /DATABASE_URL/);
  });
});

describe('openenroll fhir import', () => {
  const patient = {
    resourceType: 'Patient',
    id: '-19990000000001',
    identifier: [{ value: 'x' }],
    name: [{ family: 'Doe' }],
    gender: 'unknown',
    birthDate: '1950',
  };

  test('loads a file and says what it loaded; a bad file is refused with file:line and exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openenroll-cli-fhir-'));
    const good = join(dir, 'good.ndjson');
    writeFileSync(good, `${JSON.stringify(patient)}\n`);
    const ok = await cli(['fhir', 'import', good]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /imported 1 file\(s\): 1 Patient, 0 Coverage, 0 ExplanationOfBenefit/);
    assert.match(ok.stdout, /patients linked to enrollee accounts: 1/);

    const bad = join(dir, 'bad.ndjson');
    writeFileSync(bad, `${JSON.stringify(patient)}\n${JSON.stringify({ ...patient, gender: 'x' })}\n`);
    const refused = await cli(['fhir', 'import', bad]);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /bad\.ndjson:2: gender must be one of male, female, other, unknown \(nothing was imported\)/,
    );
    const generated = join(dir, 'sample.ndjson');
    const wrote = await cli(['fhir', 'generate', '--enrollees', '2', '--seed', '7', '--out', generated]);
    assert.equal(wrote.code, 0, wrote.stderr);
    assert.match(wrote.stdout, /^wrote \d+ synthetic resources for 2 enrollees/);
    const loaded = await cli(['fhir', 'import', generated]);
    assert.equal(loaded.code, 0, loaded.stderr);
    assert.match(loaded.stdout, /2 Patient/);

    const missing = await cli(['fhir', 'import', join(dir, 'nope.ndjson')]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no such file/);
  });
});
