/**
 * Token endpoint benchmarks (refresh-token grants, authorization-code exchanges) and FHIR ones (EOB search
 * and read) against a real server process over a fresh SQLite or PostgreSQL database.
 * `npm run bench -- --help` for the options.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EOB_COUNT, EOB_ENROLLEE, eobData, readTargets, searchTargets, writeEobNdjson } from './eob.js';
import { codeLoad, getLoad, refreshLoad, type LoadResult } from './load.js';
import { CodeIssuer, prepareBearer, prepareFamilies } from './prepare.js';
import { formatSummary, summariseProfile } from './profile.js';
import { formatTable, updateResultsFile, type BenchmarkName, type Row } from './results.js';
import { createDatabase, importFhirFile, registerApps, startServer, type DatabaseKind } from './server.js';

/**
 * Without `openid`: an ID token is signed only when the scope holds it, and the reference harness's scope
 * does not, so the two servers do the same work per refresh.
 */
const DEFAULT_REFRESH_SCOPE = 'patient/ExplanationOfBenefit.rs offline_access';

const HELP = `Usage: npm run bench -- [options]
       node --import tsx bench/run.ts [options]

Starts \`openenroll serve\` on a free loopback port over a fresh database, registers apps with the CLI,
obtains tokens through the real login and consent pages, then loads POST /v2/o/token/ (refresh, code) or
GET /v2/fhir/ExplanationOfBenefit/ (eob: 1,000 EOBs of one enrollee, imported with \`openenroll fhir
import\` before the server starts; pages of 10 by startIndex, then reads by id) with autocannon.

Options:
  --db <sqlite|postgres|both>   database(s) to run on (default: sqlite)
  --duration <s>                seconds of load per benchmark (default: 10); the code exchange runs in
                                rounds (issue a pool, exchange it) until its load time reaches this
  --connections <n>             autocannon connections, one token family / app each (default: 10)
  --bench <refresh|code|eob|both|all>
                                which benchmark(s) to run: both = refresh and code, all = the three
                                (default: both)
  --codes <n>                   most codes per round (default: 8000); codes live 60 s, so a round also
                                stops issuing after --issue-budget seconds
  --issue-budget <s>            longest time spent issuing one round's codes (default: 30)
  --refresh-scope <scopes>      the scope the refresh benchmark's families are authorized with (default:
                                "${DEFAULT_REFRESH_SCOPE}": a data scope and offline_access, as
                                node-oidc-provider's harness in ../shared/bench refreshes "offline_access
                                api:read"; with "openid" every refresh also signs an RS256 ID token)
  --warmup <s>                  load before the measured runs, to warm the server's JIT: refresh grants
                                on throw-away token families; for eob, half of it searches and half
                                reads (default: 2)
  --pg-url <url>                PostgreSQL server; a schema is created in it and dropped afterwards
                                (default: $BENCH_POSTGRES_URL or postgres://postgres@127.0.0.1:5432/test)
  --cpu-prof <dir>              run the server under node --cpu-prof, write the profile under <dir> and
                                print its hotspots (profiled runs do not update RESULTS.md)
  --no-write                    do not update bench/RESULTS.md
  -v, --verbose                 print the responses of every second of load
  --server-node-arg <arg>       extra option for the server's node (repeatable), e.g. a preload for an
                                A/B experiment: --server-node-arg=--import=/tmp/patch.mjs (such runs do
                                not update RESULTS.md)
  -h, --help                    show this help
`;

/** Issue-then-exchange rounds at most, whatever --duration asks. */
const MAX_ROUNDS = 8;

const RESULTS_FILE = resolve(import.meta.dirname, 'RESULTS.md');

interface Options {
  databases: DatabaseKind[];
  duration: number;
  connections: number;
  benchmarks: ('refresh' | 'code' | 'eob')[];
  codes: number;
  issueBudget: number;
  warmup: number;
  refreshScope: string;
  postgresUrl: string;
  cpuProfDir: string | undefined;
  write: boolean;
  verbose: boolean;
  serverNodeArgs: string[];
}

class UsageError extends Error {}

function positive(name: string, raw: string | undefined, fallback: number, allowZero = false): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new UsageError(
      `--${name} must be a ${allowZero ? 'non-negative' : 'positive'} number, got "${raw}"`,
    );
  }
  return value;
}

function choice<T extends string>(
  name: string,
  raw: string | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function parseOptions(argv: string[]): Options | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      db: { type: 'string' },
      duration: { type: 'string' },
      connections: { type: 'string' },
      bench: { type: 'string' },
      codes: { type: 'string' },
      'issue-budget': { type: 'string' },
      warmup: { type: 'string' },
      'refresh-scope': { type: 'string' },
      'pg-url': { type: 'string' },
      'cpu-prof': { type: 'string' },
      'no-write': { type: 'boolean' },
      verbose: { type: 'boolean', short: 'v' },
      'server-node-arg': { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const db = choice('db', values.db, ['sqlite', 'postgres', 'both'] as const, 'sqlite');
  const bench = choice('bench', values.bench, ['refresh', 'code', 'eob', 'both', 'all'] as const, 'both');
  const duration = positive('duration', values.duration, 10);
  const connections = positive('connections', values.connections, 10);
  if (!Number.isInteger(connections)) throw new UsageError('--connections must be a whole number');
  const codes = positive('codes', values.codes, 8000);
  if (codes < connections) throw new UsageError('--codes must be at least --connections');
  const issueBudget = positive('issue-budget', values['issue-budget'], 30);
  if (issueBudget > 50) throw new UsageError('--issue-budget must leave time to use codes that live 60 s');
  return {
    databases: db === 'both' ? ['sqlite', 'postgres'] : [db],
    benchmarks:
      bench === 'both' ? ['refresh', 'code'] : bench === 'all' ? ['refresh', 'code', 'eob'] : [bench],
    duration,
    connections,
    codes,
    issueBudget,
    warmup: positive('warmup', values.warmup, 2, true),
    refreshScope: values['refresh-scope'] ?? DEFAULT_REFRESH_SCOPE,
    postgresUrl:
      values['pg-url'] ?? process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    cpuProfDir: values['cpu-prof'] ? resolve(values['cpu-prof']) : undefined,
    write: !values['no-write'] && !values['cpu-prof'] && !values['server-node-arg'],
    verbose: values.verbose ?? false,
    serverNodeArgs: values['server-node-arg'] ?? [],
  };
}

function commandLine(argv: string[]): string {
  const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`);
  const args = argv.map(quote).join(' ');
  return process.env.npm_lifecycle_event === 'bench'
    ? `npm run bench${args ? ` -- ${args}` : ''}`
    : `node --import tsx bench/run.ts${args ? ` ${args}` : ''}`;
}

function machine(): string {
  return `nproc=${availableParallelism()}, Node ${process.version}, ${cpus()[0]?.model.trim() ?? 'unknown CPU'}`;
}

/** The commit the server runs from, marked `+dirty` when the served code has uncommitted changes. */
function commit(): string {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: resolve(import.meta.dirname, '..'), encoding: 'utf8' }).trim();
  try {
    const dirty = git('status', '--porcelain', '--', 'src', 'bin', 'package.json') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? '+dirty' : ''}`;
  } catch {
    return 'unknown';
  }
}

/** Read once, before any server starts. */
const SERVED_COMMIT = commit();

/** Async clean-ups run in reverse order, on success, failure or Ctrl-C alike. */
class Cleanup {
  private readonly steps: (() => Promise<void>)[] = [];
  push(step: () => Promise<void>) {
    this.steps.push(step);
  }
  async run() {
    while (this.steps.length) {
      const step = this.steps.pop()!;
      try {
        await step();
      } catch (error) {
        console.error('clean-up failed:', error);
      }
    }
  }
}

/** The load of one benchmark, possibly over several autocannon runs (code-exchange rounds). */
interface Measured {
  ok: number;
  /** Load time: start to last response, summed over the runs. */
  seconds: number;
  latencies: number[];
  errors: number;
}

function errorsOf(load: LoadResult): number {
  const non200 = Object.values(load.failures).reduce((a, b) => a + b, 0);
  return non200 + load.result.errors + load.malformed;
}

function measure(loads: LoadResult[]): Measured {
  return {
    ok: loads.reduce((sum, l) => sum + (l.result.statusCodeStats['200']?.count ?? 0), 0),
    seconds: loads.reduce((sum, l) => sum + l.activeSeconds, 0),
    latencies: loads.flatMap((l) => l.latencies).sort((a, b) => a - b),
    errors: loads.reduce((sum, l) => sum + errorsOf(l), 0),
  };
}

/** Nearest-rank percentile of sorted values, rounded to 0.1 ms. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const value = sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  return Math.round(value * 10) / 10;
}

function toRow(
  benchmark: BenchmarkName,
  database: string,
  options: Options,
  argv: string[],
  m: Measured,
  autocannonMean: number | null,
  notes: string,
): Row {
  return {
    benchmark,
    database,
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    machine: machine(),
    commit: SERVED_COMMIT,
    command: commandLine(argv),
    connections: options.connections,
    duration: m.seconds,
    requests: m.ok,
    rps: m.ok / m.seconds,
    autocannonMean,
    p50: percentile(m.latencies, 50),
    p99: percentile(m.latencies, 99),
    errors: m.errors,
    notes,
  };
}

function reportLoad(name: string, load: LoadResult, options: Options) {
  if (options.verbose) log(`${name}: responses per second ${load.perSecond.join(' ')}`);
  const errors = errorsOf(load);
  if (errors === 0) return;
  console.warn(
    `${name}: ${errors} errors — non-200 by status ${JSON.stringify(load.failures)}, connection errors ` +
      `${load.result.errors} (timeouts ${load.result.timeouts}), malformed 200s ${load.malformed}`,
  );
  for (const sample of load.samples) console.warn(`  ${sample}`);
}

function log(message: string) {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
}

async function runOn(kind: DatabaseKind, options: Options, argv: string[], cleanup: Cleanup): Promise<Row[]> {
  const database = await createDatabase(kind, options.postgresUrl);
  cleanup.push(() => database.drop());
  let profileDir: string | undefined;
  if (options.cpuProfDir) {
    profileDir = join(options.cpuProfDir, `${kind}-${Date.now()}`);
    mkdirSync(profileDir, { recursive: true });
  }
  // The code benchmark issues each round's codes from distinct (app, enrollee) pairs.
  const sandboxEnrollees = options.benchmarks.includes('code')
    ? Math.max(2, Math.ceil(options.codes / options.connections))
    : 2;
  let eobIds: string[] = [];
  if (options.benchmarks.includes('eob')) {
    // Imported before the server starts, so its sandbox start finds claims data and loads none of its own.
    const dir = mkdtempSync(join(tmpdir(), 'openenroll-bench-eob-'));
    cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'eob.ndjson');
    const data = eobData();
    writeEobNdjson(file, data);
    eobIds = data.ids;
    const started = Date.now();
    const report = await importFhirFile(database, file, sandboxEnrollees);
    log(
      `eob: imported ${JSON.stringify(report.counts)} for sandbox enrollee ${EOB_ENROLLEE} ` +
        `(${report.linkedPatients} patient linked) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    if (report.counts.ExplanationOfBenefit !== EOB_COUNT || report.linkedPatients !== 1) {
      throw new Error(`eob: the import did not load ${EOB_COUNT} EOBs of one linked patient`);
    }
  }
  log(`${database.label}: starting the server`);
  const server = await startServer({
    database,
    sandboxEnrollees,
    cpuProfileDir: profileDir,
    nodeArgs: options.serverNodeArgs,
  });
  let closed = false;
  const closeServer = async () => {
    if (closed) return;
    closed = true;
    await server.close();
  };
  cleanup.push(closeServer);
  log(`server pid ${server.pid} listening on ${server.url}`);

  const rows: Row[] = [];
  const C = options.connections;
  if (options.benchmarks.includes('refresh')) {
    const apps = await registerApps(database, 'Bench refresh', C);
    if (options.warmup > 0) {
      // Its last in-flight requests rotate tokens the client never sees, so these families are thrown away.
      const warmFamilies = await prepareFamilies(server.url, apps, options.refreshScope);
      const warm = await refreshLoad(server.url, warmFamilies, options.warmup);
      reportLoad('refresh warm-up', warm, options);
    }
    // A new consent per app revokes the warm-up family: every connection starts a fresh chain.
    const families = await prepareFamilies(server.url, apps, options.refreshScope);
    log(`refresh: ${C} token families (${C} apps × 1 enrollee); ${C} connections for ${options.duration} s`);
    const load = await refreshLoad(server.url, families, options.duration);
    reportLoad('refresh', load, options);
    rows.push(
      toRow(
        'refresh',
        database.label,
        options,
        argv,
        measure([load]),
        load.result.requests.average,
        `warm-up ${options.warmup} s; scope "${options.refreshScope}"`,
      ),
    );
  }
  if (options.benchmarks.includes('code')) {
    const apps = await registerApps(database, 'Bench code', C);
    const perApp = Math.floor(options.codes / C);
    const issuer = await CodeIssuer.start(server.url, apps, perApp);
    const loads: LoadResult[] = [];
    let issued = 0;
    let issueSeconds = 0;
    while (
      loads.reduce((sum, l) => sum + l.activeSeconds, 0) < options.duration &&
      loads.length < MAX_ROUNDS
    ) {
      const round = await issuer.issue(perApp, options.issueBudget * 1000);
      const total = round.pools.reduce((sum, pool) => sum + pool.length, 0);
      if (total === 0) throw new Error('no code could be issued');
      issued += total;
      issueSeconds += round.issueSeconds;
      log(
        `code round ${loads.length + 1}: ${total} codes issued through consent in ` +
          `${round.issueSeconds.toFixed(1)} s; exchanging each once over ${C} connections`,
      );
      const load = await codeLoad(
        server.url,
        apps.map((app, i) => ({ app, pool: round.pools[i]! })),
      );
      const oldest = (Date.now() - round.firstIssuedAt) / 1000;
      if (oldest > 60)
        console.warn(`code: the oldest code was ${oldest.toFixed(0)} s old at the end (TTL 60 s)`);
      reportLoad(`code round ${loads.length + 1}`, load, options);
      log(`code round ${loads.length + 1}: ${load.activeSeconds.toFixed(2)} s of exchange`);
      loads.push(load);
    }
    rows.push(
      toRow(
        'code',
        database.label,
        options,
        argv,
        measure(loads),
        null,
        `${loads.length} rounds, ${issued} codes (issued at ${(issued / issueSeconds).toFixed(0)}/s)`,
      ),
    );
  }

  if (options.benchmarks.includes('eob')) {
    const [app] = await registerApps(database, 'Bench eob', 1);
    const bearer = await prepareBearer(server.url, app!, EOB_ENROLLEE);
    const searches = searchTargets(eobIds);
    const reads = readTargets(eobIds);
    if (options.warmup > 0) {
      const half = options.warmup / 2;
      reportLoad('eob search warm-up', await getLoad(server.url, bearer, searches, C, half), options);
      reportLoad('eob read warm-up', await getLoad(server.url, bearer, reads, C, half), options);
    }
    const runs = [
      ['eob-search', searches, `startIndex 0…${eobIds.length - 10} cycled`],
      ['eob-read', reads, `${eobIds.length} ids cycled`],
    ] as const;
    for (const [name, targets, what] of runs) {
      log(`${name}: ${EOB_COUNT} EOBs of 1 enrollee, ${what}; ${C} connections for ${options.duration} s`);
      const load = await getLoad(server.url, bearer, targets, C, options.duration);
      reportLoad(name, load, options);
      rows.push(
        toRow(
          name,
          database.label,
          options,
          argv,
          measure([load]),
          load.result.requests.average,
          `${EOB_COUNT} EOBs, 1 enrollee; ${what}; warm-up ${options.warmup} s (half search, half read)`,
        ),
      );
    }
  }

  await closeServer();
  if (options.verbose && server.output().trim()) {
    console.log(`server output (last 20 kB):\n${server.output().trimEnd()}`);
  }
  if (profileDir) {
    const files = readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile'));
    for (const file of files) {
      console.log(`\nCPU profile ${join(profileDir, file)} (server process, ${kind}):`);
      console.log(formatSummary(summariseProfile(join(profileDir, file))));
    }
  }
  return rows;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  let options: Options | 'help';
  try {
    options = parseOptions(argv);
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${HELP}`);
    return 2;
  }
  if (options === 'help') {
    console.log(HELP);
    return 0;
  }
  const cleanup = new Cleanup();
  const interrupted = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: cleaning up`);
    void cleanup.run().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);

  const rows: Row[] = [];
  try {
    for (const kind of options.databases) rows.push(...(await runOn(kind, options, argv, cleanup)));
  } catch (error) {
    console.error('benchmark failed:', error);
    await cleanup.run();
    return 1;
  }
  await cleanup.run();

  console.log(`\n${machine()}\n${formatTable(rows)}`);
  const refreshSqlite = rows.find((r) => r.benchmark === 'refresh' && r.database.startsWith('SQLite'));
  if (refreshSqlite) {
    const verdict = refreshSqlite.rps >= 2000 ? 'meets' : 'is BELOW';
    console.log(`\nSQLite refresh grants: ${refreshSqlite.rps.toFixed(0)}/s ${verdict} the 2,000/s target`);
  }
  const searchSqlite = rows.find((r) => r.benchmark === 'eob-search' && r.database.startsWith('SQLite'));
  if (searchSqlite) {
    const verdict = searchSqlite.p50 < 5 ? 'meets' : 'is ABOVE';
    console.log(
      `SQLite EOB pages of 10: median ${searchSqlite.p50.toFixed(1)} ms with ${searchSqlite.connections} ` +
        `connections ${verdict} the 5 ms target`,
    );
  }
  const ratios = databaseRatios(rows);
  if (ratios) console.log(`\n${ratios}`);
  if (options.write && rows.length) {
    updateResultsFile(RESULTS_FILE, rows);
    console.log(`updated ${RESULTS_FILE}`);
  }
  if (options.cpuProfDir) console.log(`profiles kept under ${options.cpuProfDir}`);
  return rows.some((r) => r.errors > 0) ? 1 : 0;
}

/**
 * With both databases in one run: per benchmark, PostgreSQL req/s, SQLite req/s and their ratio, and the
 * two p99s with theirs (the figures production speed is judged by: PostgreSQL against SQLite, same run).
 */
function databaseRatios(rows: readonly Row[]): string | undefined {
  const lines = [
    'PostgreSQL vs SQLite, same run:',
    '| Benchmark | PostgreSQL req/s | SQLite req/s | PostgreSQL ÷ SQLite | PostgreSQL p99 (ms) | SQLite p99 (ms) | p99 PostgreSQL ÷ SQLite |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const benchmark of [...new Set(rows.map((r) => r.benchmark))]) {
    const pgRow = rows.find((r) => r.benchmark === benchmark && r.database.startsWith('PostgreSQL'));
    const sqliteRow = rows.find((r) => r.benchmark === benchmark && r.database.startsWith('SQLite'));
    if (!pgRow || !sqliteRow) continue;
    lines.push(
      `| ${benchmark} | ${pgRow.rps.toFixed(0)} | ${sqliteRow.rps.toFixed(0)} | ${(pgRow.rps / sqliteRow.rps).toFixed(2)} | ` +
        `${pgRow.p99.toFixed(1)} | ${sqliteRow.p99.toFixed(1)} | ${(pgRow.p99 / sqliteRow.p99).toFixed(2)} |`,
    );
  }
  return lines.length > 3 ? lines.join('\n') : undefined;
}

process.exitCode = await main();
