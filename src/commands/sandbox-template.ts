/**
 * The sandbox template (docs/startup.md#sandbox-template): an SQLite database holding what a fresh sandbox
 * start prepares (the schema, the sandbox enrollees and their claims, the generated sample market), made by
 * the build with the same code and settings `serve` uses, so that `serve` on a new SQLite file copies it
 * instead of generating it all again. A manifest beside it says for which settings it was made; a start
 * whose settings differ, on PostgreSQL, or on a file that already exists generates as before.
 */
import {
  constants,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { loadConfig, type Config } from '../config.js';

/** Where the build writes the template: dist/sandbox/ (from the sources, a folder that does not exist). */
export const TEMPLATE_DIR = fileURLToPath(new URL('../sandbox/', import.meta.url));
const DATABASE = 'template.sqlite';
const MANIFEST = 'template.json';

/** The settings the prepared data depends on; the template serves only a start with the same ones. */
export interface TemplateKey {
  enrollees: number;
  claims: Config['sandboxClaims'];
  sampleMarket: boolean;
  /** The sample market is generated for the clock's year (UTC). */
  year: number;
}

function keyOf(config: Config, now: number): TemplateKey {
  return {
    enrollees: config.sandboxEnrollees,
    claims: config.sandboxClaims,
    sampleMarket: config.sampleMarket,
    year: new Date(now).getUTCFullYear(),
  };
}

const sameKey = (a: TemplateKey, b: TemplateKey) =>
  a.enrollees === b.enrollees &&
  a.claims === b.claims &&
  a.sampleMarket === b.sampleMarket &&
  a.year === b.year;

/** The SQLite file of `databaseUrl`, or undefined for PostgreSQL and an in-memory database. */
function sqliteFile(databaseUrl: string): string | undefined {
  if (!databaseUrl.startsWith('sqlite:')) return undefined;
  const path = databaseUrl.slice('sqlite:'.length);
  return path === '' || path === ':memory:' ? undefined : resolve(path);
}

/**
 * Before `serve` opens its database: when the settings ask for sandbox data, the database is an SQLite file
 * that does not exist yet, and the build's template was made for the same settings, puts a copy of the
 * template there and returns its path; otherwise returns why not (the start then generates the data).
 * Several instances starting at once on the same new file: the copy is made aside and linked into place,
 * which only one of them can do; the others open the file it made.
 */
export function copySandboxTemplate(
  config: Config,
  now: number,
  dir = TEMPLATE_DIR,
): { copied: string } | { skipped: string } {
  if (config.mode !== 'sandbox') return { skipped: 'not a sandbox' };
  if (config.sandboxEnrollees === 0 && !config.sampleMarket) return { skipped: 'no sandbox data' };
  const file = sqliteFile(config.databaseUrl);
  if (!file) return { skipped: 'not an SQLite file' };
  if (existsSync(file) || existsSync(`${file}-wal`)) return { skipped: 'the database exists' };
  let made: TemplateKey;
  try {
    made = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as TemplateKey;
  } catch {
    return { skipped: 'no template in this build' };
  }
  if (!sameKey(made, keyOf(config, now))) return { skipped: 'the template was made for other settings' };
  mkdirSync(dirname(file), { recursive: true });
  const aside = `${file}.template-${process.pid}`;
  try {
    copyFileSync(join(dir, DATABASE), aside, constants.COPYFILE_EXCL);
    linkSync(aside, file);
    return { copied: file };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { skipped: 'the database exists' };
    return { skipped: `the template could not be copied (${(error as Error).message})` };
  } finally {
    rmSync(aside, { force: true });
  }
}

/**
 * Makes the template in `dir`: a `serve` start's preparation (buildService, not listening) on a new SQLite
 * file with the default settings, closed so that the file holds everything (no write-ahead log left), and
 * the manifest of the settings it was made for. The build runs it (scripts/build.mjs).
 */
export async function writeSandboxTemplate(dir: string): Promise<TemplateKey> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, DATABASE);
  for (const path of [file, `${file}-wal`, `${file}-shm`, join(dir, MANIFEST)]) rmSync(path, { force: true });
  // Only what locates the database: every setting the data depends on takes its default.
  const config = loadConfig({ DATABASE_URL: `sqlite:${file}`, LOG_LEVEL: 'warn' });
  const before = Date.now();
  const { createLogger } = await import('../shared/logger.js');
  const { buildService } = await import('../server.js');
  const service = await buildService(config, createLogger('warn', undefined, 'json'));
  await service.close();
  const key = keyOf(config, before);
  if (!sameKey(key, keyOf(config, Date.now())))
    throw new Error('the year changed while the template was made');
  if (existsSync(`${file}-wal`)) throw new Error('the template database was not closed cleanly');
  writeFileSync(join(dir, MANIFEST), `${JSON.stringify(key)}\n`);
  return key;
}

export function registerSandboxTemplateCommand(program: Command): void {
  program
    .command('sandbox-template', { hidden: true })
    .description('make the sandbox template of a build (scripts/build.mjs runs it)')
    .argument('[dir]', 'where to write it', TEMPLATE_DIR)
    .action(async (dir: string) => {
      const key = await writeSandboxTemplate(resolve(dir));
      console.log(`sandbox template for ${JSON.stringify(key)} in ${dir}`);
    });
}
