import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import type { IngestSummary } from '../src/ingest/engine/report.js';
import { nppesCsv, registryRecords } from './helpers/npi-fixture.js';
import { freePort, repoRoot, spawnServer, stopServer, waitHealthy } from './helpers/processes.js';
import { createTestDatabase, onPostgres, redisEnv, type TestDatabase } from './helpers/service.js';
import { skipWithoutSharedData } from './helpers/shared-data.js';

const run = promisify(execFile);

/** Runs `node <entry> <args>` from the repository root with `env` added. */
async function node(entry: string, args: string[], env: Record<string, string> = {}) {
  return run(process.execPath, [entry, ...args], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
  });
}

describe('the compiled CLI (dist/, as npm ci builds it)', () => {
  let database: TestDatabase;
  let work: string;
  before(async () => {
    // What `npm ci` runs through `prepare`.
    await run('npm', ['run', 'build'], { cwd: repoRoot });
    database = createTestDatabase();
    await (await database.open()).close(); // on PostgreSQL, the suite's schema
    work = mkdtempSync(join(tmpdir(), 'openenroll-dist-'));
  });
  after(async () => {
    await database.drop();
    rmSync(work, { recursive: true, force: true });
  });

  test('the build leaves the code cache of the bundle (for where it is) and the sandbox template', () => {
    const made = JSON.parse(readFileSync(join(repoRoot, 'dist', 'main.cjs.v8cache.json'), 'utf8')) as {
      filename: string;
    };
    assert.equal(made.filename, join(repoRoot, 'dist', 'main.cjs'));
    assert.ok(statSync(join(repoRoot, 'dist', 'main.cjs.v8cache')).size > 100_000);
    const key = JSON.parse(
      readFileSync(join(repoRoot, 'dist', 'sandbox', 'template.json'), 'utf8'),
    ) as object;
    assert.deepEqual(key, {
      enrollees: 100,
      claims: 'rif',
      sampleMarket: true,
      year: new Date().getUTCFullYear(),
    });
  });

  test('--help lists the commands, from dist/ and through the bin', async () => {
    const compiled = await node('dist/main.js', ['--help']);
    assert.match(compiled.stdout, /^Usage: openenroll/m);
    assert.match(compiled.stdout, /serve/);
    assert.match(compiled.stdout, /ingest/);
    const bin = await node('bin/openenroll.js', ['--help']);
    assert.equal(bin.stdout, compiled.stdout);
  });

  test('serve from dist/ migrates a new database, answers /health, and finds its templates and stylesheet', async () => {
    const server = spawnServer(
      'dist service',
      await freePort(),
      { DATABASE_URL: database.processUrl, LOG_LEVEL: 'warn', SANDBOX_ENROLLEES: '3', ...redisEnv() },
      'dist/main.js',
    );
    try {
      await waitHealthy(server);
      const health = await fetch(`${server.url}/health`);
      assert.equal(health.status, 200);
      await health.arrayBuffer();
      // An error page is rendered from the eta templates copied beside the compiled modules.
      const page = await fetch(`${server.url}/v2/o/authorize/?client_id=nobody&response_type=code`);
      assert.equal(page.status, 400);
      const html = await page.text();
      assert.match(html, /^<!doctype html>/i);
      assert.match(html, /Application does not exist \(client_id\)/);
      assert.match(html, /href="\/static\/pages\.css"/);
      const css = await fetch(`${server.url}/static/pages.css`);
      assert.equal(css.status, 200);
      assert.match(await css.text(), /\{[^}]*\}/);
    } finally {
      await stopServer(server);
    }
  });

  test(
    'ingest reads a file in a worker thread from dist/ (compiled module, no tsx)',
    { skip: skipWithoutSharedData('providers/npi_registry_api_samples') },
    async () => {
      const records = registryRecords();
      const file = join(work, 'npidata.csv');
      writeFileSync(file, nppesCsv(records));
      const { stdout } = await node('dist/main.js', ['ingest', 'nppes', file, '--json'], {
        DATABASE_URL: database.processUrl,
      });
      const summary = JSON.parse(stdout) as IngestSummary;
      assert.equal(summary.read, records.length, stdout);
      assert.equal(summary.rejectedCount, 0, stdout);
      assert.ok(summary.stored >= records.length, stdout);
    },
  );
});

/**
 * What differs between two sandbox databases prepared from the same settings: when they were made, and the
 * values drawn at random for each (enrollee ids, password salts). Everything else must be equal.
 */
const PER_START: Record<string, string[]> = {
  api_keys: ['created_at'],
  bulk_documents: ['built_at', 'build_ms', 'version'],
  enrollees: ['id', 'password_hash', 'created_at'],
  fhir_resources: ['last_updated'],
  kysely_migration: ['timestamp'],
  plan_datasets: ['loaded_at', 'duration_ms'],
  rif_beneficiaries: ['loaded_at'],
  rif_beneficiary_history: ['loaded_at'],
};

/** Every table's rows (without the per-start columns), in a stable order; resource bodies without `lastUpdated`. */
function contents(file: string): Map<string, string> {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db
      .prepare("select name from sqlite_master where type = 'table' order by name")
      .pluck()
      .all() as string[];
    const result = new Map<string, string>();
    for (const table of tables) {
      const columns = (db.prepare(`pragma table_info(${table})`).all() as { name: string }[])
        .map((c) => c.name)
        .filter((name) => !(PER_START[table] ?? []).includes(name));
      const rows = db
        .prepare(
          `select ${columns.join(', ')} from ${table} order by ${columns.map((_, i) => i + 1).join(', ')}`,
        )
        .raw()
        .all();
      result.set(
        table,
        JSON.stringify(rows, (_key, value: unknown) =>
          typeof value === 'string' ? value.replace(/"lastUpdated":"[^"]*"/g, '"lastUpdated":…') : value,
        ),
      );
    }
    return result;
  } finally {
    db.close();
  }
}

describe(
  "serve from dist/ on a new SQLite file starts from the build's sandbox template",
  { skip: onPostgres && 'the template is for SQLite files' },
  () => {
    let work: string;
    before(() => (work = mkdtempSync(join(tmpdir(), 'openenroll-template-'))));
    after(() => rmSync(work, { recursive: true, force: true }));

    const start = async (file: string) => {
      const server = spawnServer(
        'dist service',
        await freePort(),
        { DATABASE_URL: `sqlite:${file}`, LOG_LEVEL: 'info', LOG_FORMAT: 'json', SANDBOX_ENROLLEES: '100' },
        'dist/main.js',
      );
      try {
        await waitHealthy(server, 120_000);
        const search = await fetch(
          `${server.url}/api/v1/plans/search?apikey=d687412e7b53146b2631dc01974ad0a4`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              household: {
                income: 52_000,
                people: [{ age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
              },
              market: 'Individual',
              place: { countyfips: '48091', state: 'TX', zipcode: '78130' },
              year: new Date().getUTCFullYear(),
            }),
          },
        );
        assert.equal(search.status, 200);
        const body = (await search.json()) as { total: number };
        assert.ok(body.total > 0);
        return { log: server.output.join(''), total: body.total };
      } finally {
        await stopServer(server);
      }
    };

    test('with the same data as a start that generates it', async () => {
      const copied = join(work, 'copied', 'sandbox.db');
      const fromTemplate = await start(copied);
      assert.match(fromTemplate.log, /"event":"sandbox_template"/);
      // An existing (empty) file is not replaced: this start generates the data.
      const generated = join(work, 'generated.db');
      writeFileSync(generated, '');
      const fromGenerator = await start(generated);
      assert.doesNotMatch(fromGenerator.log, /"event":"sandbox_template"/);
      assert.equal(fromTemplate.total, fromGenerator.total);

      const expected = contents(generated);
      const actual = contents(copied);
      assert.deepEqual([...actual.keys()], [...expected.keys()]);
      for (const [table, rows] of expected) assert.equal(actual.get(table), rows, `table ${table}`);
      assert.ok(expected.get('fhir_resources')!.length > 1000);
    });
  },
);

describe('bin/openenroll.js chooses dist/ only when it is as new as src/', () => {
  let tree: string;
  const now = Date.now() / 1000;
  const which = async () =>
    (await run(process.execPath, [join(tree, 'bin', 'openenroll.js')], { cwd: tree })).stdout.trim();
  before(() => {
    // A checkout in miniature: the real bin, the real node_modules (tsx), a source and a build that say
    // which of them ran.
    tree = mkdtempSync(join(tmpdir(), 'openenroll-bin-'));
    mkdirSync(join(tree, 'bin'));
    copyFileSync(join(repoRoot, 'bin', 'openenroll.js'), join(tree, 'bin', 'openenroll.js'));
    writeFileSync(join(tree, 'package.json'), '{ "type": "module" }\n');
    symlinkSync(join(repoRoot, 'node_modules'), join(tree, 'node_modules'));
    mkdirSync(join(tree, 'src', 'commands'), { recursive: true });
    writeFileSync(join(tree, 'src', 'main.ts'), "const ran: string = 'src';\nconsole.log(ran);\n");
    writeFileSync(join(tree, 'src', 'commands', 'serve.ts'), 'export {};\n');
  });
  after(() => rmSync(tree, { recursive: true, force: true }));

  /** Sets every source's (and folder's) modification time to `seconds`. */
  const sourcesAt = (seconds: number) => {
    for (const path of ['src/commands/serve.ts', 'src/commands', 'src/main.ts', 'src']) {
      utimesSync(join(tree, path), seconds, seconds);
    }
  };
  const buildAt = (seconds: number) => {
    mkdirSync(join(tree, 'dist'), { recursive: true });
    writeFileSync(join(tree, 'dist', 'main.js'), "console.log('dist');\n");
    writeFileSync(join(tree, 'dist', 'build.json'), JSON.stringify({ startedAt: seconds * 1000 }));
  };

  test('no build: the sources, through tsx', async () => {
    sourcesAt(now - 60);
    assert.equal(await which(), 'src');
  });

  test('a build begun after the last change of the sources: dist/', async () => {
    sourcesAt(now - 60);
    buildAt(now - 30);
    assert.equal(await which(), 'dist');
  });

  test('a source edited after the build, however deep: the sources', async () => {
    buildAt(now - 30);
    sourcesAt(now - 60);
    utimesSync(join(tree, 'src', 'commands', 'serve.ts'), now - 10, now - 10);
    assert.equal(await which(), 'src');
  });

  test('a source removed after the build (its folder changed): the sources', async () => {
    buildAt(now - 30);
    sourcesAt(now - 60);
    utimesSync(join(tree, 'src', 'commands'), now - 10, now - 10);
    assert.equal(await which(), 'src');
  });

  test('a build whose stamp is unreadable: the sources', async () => {
    buildAt(now - 30);
    sourcesAt(now - 60);
    writeFileSync(join(tree, 'dist', 'build.json'), '{');
    assert.equal(await which(), 'src');
  });

  test('a deployment that ships dist/ without src/: dist/', async () => {
    buildAt(now - 30);
    rmSync(join(tree, 'src'), { recursive: true });
    assert.equal(await which(), 'dist');
  });
});
