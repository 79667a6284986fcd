/**
 * A real `openenroll serve` process over a database of its own, and the CLI that registers apps in it.
 * Everything started here is stopped by the `close()` of what started it.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';

export type DatabaseKind = 'sqlite' | 'postgres';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'bin', 'openenroll.js');

/** A fresh, empty database: a SQLite file in a temporary folder, or a new PostgreSQL schema. */
export interface BenchDatabase {
  kind: DatabaseKind;
  /** What `DATABASE_URL` must say to reach it. */
  url: string;
  /** A short description for the report (never a password). */
  label: string;
  drop(): Promise<void>;
}

function withSearchPath(base: string, schema: string): string {
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

export async function createDatabase(kind: DatabaseKind, postgresUrl: string): Promise<BenchDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'openenroll-bench-'));
    return {
      kind,
      url: `sqlite:${join(dir, 'bench.db')}`,
      label: 'SQLite (WAL, temp file)',
      async drop() {
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  let version = '';
  try {
    await admin.query(`create schema ${schema}`);
    const { rows } = await admin.query<{ server_version: string }>('show server_version');
    version = rows[0]?.server_version ?? '';
  } finally {
    await admin.end();
  }
  return {
    kind,
    url: withSearchPath(postgresUrl, schema),
    label: `PostgreSQL ${version.split(' ')[0]} (loopback, fresh schema)`,
    async drop() {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      try {
        await client.query(`drop schema if exists ${schema} cascade`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A free TCP port on the loopback interface (asked of the kernel, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

export interface ServerOptions {
  database: BenchDatabase;
  sandboxEnrollees: number;
  /** When set, the server runs under `node --cpu-prof` and writes its profile to this folder on exit. */
  cpuProfileDir?: string;
  /** More options for the server's node, before the script. */
  nodeArgs?: string[];
}

export interface RunningServer {
  url: string;
  pid: number;
  /** Stops the process (SIGINT, so a CPU profile gets written; SIGKILL after 15 s). */
  close(): Promise<void>;
  /** The last 20 kB the process wrote to stdout and stderr (warnings and errors: LOG_LEVEL=warn). */
  output(): string;
}

/** The environment a benchmark's server runs with: its database and port, sandbox mode, limits lifted. */
export function serverEnv(database: BenchDatabase, port: number, extra: Record<string, string> = {}) {
  return {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: database.url,
    LOG_LEVEL: 'warn',
    OPENENROLL_MODE: 'sandbox',
    REDIS_URL: '',
    // Preparing token families logs the same enrollees in many times at once, all from 127.0.0.1; every
    // login attempt counts toward the lock-out and the per-source limits, which are not what is measured here.
    LOGIN_MAX_FAILURES: '1000',
    SIGN_IN_PER_MINUTE: '1000000',
    SIGN_IN_PER_HOUR: '1000000',
    ...extra,
  };
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once('exit', () => done()));
}

async function waitHealthy(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`server exited early (${child.exitCode ?? child.signalCode}):\n${output()}`);
    }
    try {
      const response = await fetch(`${url}/health`);
      if (response.status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not become healthy within 60 s:\n${output()}`);
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const nodeArgs = [
    ...(options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : []),
    ...(options.nodeArgs ?? []),
    CLI,
    'serve',
  ];
  const child = spawn(process.execPath, nodeArgs, {
    cwd: ROOT,
    env: serverEnv(options.database, port, { SANDBOX_ENROLLEES: String(options.sandboxEnrollees) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const done = exited(child);
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await done;
    clearTimeout(timer);
  };
  try {
    await waitHealthy(url, child, () => log);
  } catch (error) {
    await close();
    throw error;
  }
  return { url, pid: child.pid!, close, output: () => log };
}

export interface RegisteredApp {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** `openenroll apps create … --json`, as an operator would run it. */
export function registerApp(
  database: BenchDatabase,
  name: string,
  redirectUri: string,
): Promise<RegisteredApp> {
  const args = [
    CLI,
    'apps',
    'create',
    '--name',
    name,
    '--redirect-uri',
    redirectUri,
    '--access',
    'THIRTEEN_MONTH',
    '--demographic',
    'yes',
    '--json',
  ];
  return new Promise((resolveApp, reject) => {
    execFile(
      process.execPath,
      args,
      { cwd: ROOT, env: serverEnv(database, 0), timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`apps create failed: ${error.message}\n${stderr}`));
        try {
          const parsed = JSON.parse(stdout.trim().split('\n').pop()!) as {
            client_id: string;
            client_secret: string;
          };
          resolveApp({ clientId: parsed.client_id, clientSecret: parsed.client_secret, redirectUri });
        } catch {
          reject(new Error(`apps create printed no JSON: ${stdout}\n${stderr}`));
        }
      },
    );
  });
}

/** Registers `count` apps named `<prefix> 1…count`, a few CLI processes at a time. */
export async function registerApps(
  database: BenchDatabase,
  prefix: string,
  count: number,
  parallel = 3,
): Promise<RegisteredApp[]> {
  const apps: RegisteredApp[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      apps[i] = await registerApp(database, `${prefix} ${i + 1}`, `http://127.0.0.1:9/callback/${i + 1}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker));
  return apps;
}

/**
 * `openenroll fhir import <file> --json` against the database, as an operator would load claims data (its
 * own process; in sandbox mode it creates the sandbox accounts the Patients link to). Returns its summary.
 */
export function importFhirFile(
  database: BenchDatabase,
  file: string,
  sandboxEnrollees: number,
): Promise<{ counts: Record<string, number>; linkedPatients: number }> {
  const env = serverEnv(database, 0, { SANDBOX_ENROLLEES: String(sandboxEnrollees) });
  return new Promise((resolveImport, reject) => {
    execFile(
      process.execPath,
      [CLI, 'fhir', 'import', file, '--json'],
      { cwd: ROOT, env, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`fhir import failed: ${error.message}\n${stderr}`));
        try {
          resolveImport(JSON.parse(stdout.trim().split('\n').pop()!));
        } catch {
          reject(new Error(`fhir import printed no JSON: ${stdout}\n${stderr}`));
        }
      },
    );
  });
}

/** Runs `openenroll <args…>` against the database as an operator would; resolves with its stdout. */
export function runCli(
  database: BenchDatabase,
  args: string[],
  extra: Record<string, string> = {},
): Promise<string> {
  return new Promise((resolveRun, reject) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: ROOT, env: serverEnv(database, 0, extra), timeout: 600_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error)
          return reject(new Error(`openenroll ${args.join(' ')} failed: ${error.message}\n${stderr}`));
        resolveRun(stdout);
      },
    );
  });
}

/** An API key without practical limits (`openenroll keys create`), so a load measures the server, not the gateway. */
export async function createUnlimitedKey(database: BenchDatabase): Promise<string> {
  const created = await runCli(database, [
    'keys',
    'create',
    '--name',
    'bench',
    '--per-second',
    '1000000',
    '--per-minute',
    '100000000',
    '--json',
  ]);
  return (JSON.parse(created.trim()) as { key: string }).key;
}

/** `--db sqlite|postgres|both` as the databases to run on; undefined for any other value. */
export function databaseKinds(db: string): DatabaseKind[] | undefined {
  const kinds: DatabaseKind[] = db === 'both' ? ['sqlite', 'postgres'] : [db as DatabaseKind];
  return kinds.every((k) => k === 'sqlite' || k === 'postgres') ? kinds : undefined;
}

/** The PostgreSQL server of `--pg-url`, else `$BENCH_POSTGRES_URL`, else the local one. */
export function postgresUrl(option: string | undefined): string {
  return option ?? process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
}
