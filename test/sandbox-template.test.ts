import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { copySandboxTemplate, TEMPLATE_DIR } from '../src/commands/sandbox-template.js';
import { loadConfig } from '../src/config.js';

const NOW = Date.UTC(2026, 5, 1);

describe('copySandboxTemplate: a new SQLite sandbox database from the build', () => {
  let work: string;
  let templates: string;
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'openenroll-template-unit-'));
    templates = join(work, 'sandbox');
    mkdirSync(templates);
    // A stand-in for the build's database: what is copied is checked byte for byte.
    writeFileSync(join(templates, 'template.sqlite'), 'template bytes');
    writeFileSync(
      join(templates, 'template.json'),
      JSON.stringify({ enrollees: 100, claims: 'rif', sampleMarket: true, year: 2026 }),
    );
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  const config = (env: Record<string, string>) => loadConfig({ LOG_LEVEL: 'warn', ...env });

  test('the same settings on a file that does not exist: copied there, folders made', () => {
    const file = join(work, 'new', 'deeper', 'db.sqlite');
    const result = copySandboxTemplate(config({ DATABASE_URL: `sqlite:${file}` }), NOW, templates);
    assert.deepEqual(result, { copied: file });
    assert.equal(readFileSync(file, 'utf8'), 'template bytes');
    // Nothing is left beside it.
    assert.deepEqual(readdirSync(join(work, 'new', 'deeper')), ['db.sqlite']);
  });

  test('an existing file, even empty, is never replaced', () => {
    const file = join(work, 'existing.sqlite');
    writeFileSync(file, '');
    const result = copySandboxTemplate(config({ DATABASE_URL: `sqlite:${file}` }), NOW, templates);
    assert.deepEqual(result, { skipped: 'the database exists' });
    assert.equal(readFileSync(file, 'utf8'), '');
  });

  test('other settings, another year, production, PostgreSQL or memory: not copied', () => {
    const file = join(work, 'other.sqlite');
    const url = `sqlite:${file}`;
    const cases: [Record<string, string>, number, string][] = [
      [{ DATABASE_URL: url, SANDBOX_ENROLLEES: '3' }, NOW, 'the template was made for other settings'],
      [{ DATABASE_URL: url, SANDBOX_CLAIMS: 'carin' }, NOW, 'the template was made for other settings'],
      [{ DATABASE_URL: url, SAMPLE_MARKET: 'false' }, NOW, 'the template was made for other settings'],
      [{ DATABASE_URL: url }, Date.UTC(2027, 0, 1), 'the template was made for other settings'],
      [{ DATABASE_URL: url, OPENENROLL_MODE: 'production' }, NOW, 'not a sandbox'],
      [{ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, NOW, 'not an SQLite file'],
      [{ DATABASE_URL: 'sqlite::memory:' }, NOW, 'not an SQLite file'],
    ];
    for (const [env, now, reason] of cases) {
      assert.deepEqual(
        copySandboxTemplate(config(env), now, templates),
        { skipped: reason },
        JSON.stringify(env),
      );
    }
    assert.equal(existsSync(file), false);
  });

  test('a build without a template: not copied', () => {
    const file = join(work, 'none.sqlite');
    const result = copySandboxTemplate(
      config({ DATABASE_URL: `sqlite:${file}` }),
      NOW,
      join(work, 'nowhere'),
    );
    assert.deepEqual(result, { skipped: 'no template in this build' });
    assert.equal(existsSync(file), false);
  });

  test('run from the sources, the template folder is not under src/', () => {
    assert.ok(TEMPLATE_DIR.endsWith('/sandbox/'));
    assert.equal(existsSync(TEMPLATE_DIR), false);
  });
});
