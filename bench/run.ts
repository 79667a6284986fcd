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
import {
  bfdEobData,
  countingBytes,
  EOB_COUNT,
  EOB_ENROLLEE,
  EOB_SHAPES,
  eobData,
  eobTotal,
  nextLinkTargets,
  readTargets,
  searchTargets,
  writeBfdRif,
  writeEobNdjson,
  type EobShape,
  type GetTarget,
} from './eob.js';
import { sql } from 'kysely';
import { connect } from '../src/storage/connect.js';
import { codeLoad, getLoad, inTurns, refreshLoad, turns, type LoadResult } from './load.js';
import { CodeIssuer, prepareBearer, prepareFamilies } from './prepare.js';
import { formatSummary, summariseProfile } from './profile.js';
import {
  formatTable,
  rowLabel,
  SHAPE_NAMES,
  updateResultsFile,
  type BenchmarkName,
  type Row,
} from './results.js';
import {
  createDatabase,
  importFhirFile,
  registerApps,
  runCli,
  startServer,
  type BenchDatabase,
  type DatabaseKind,
  type RegisteredApp,
  type RunningServer,
} from './server.js';

/**
 * Without `openid`: an ID token is signed only when the scope holds it, and the reference harness's scope
 * does not, so the two servers do the same work per refresh.
 */
const DEFAULT_REFRESH_SCOPE = 'patient/ExplanationOfBenefit.rs offline_access';

const HELP = `Usage: npm run bench -- [options]
       node --import tsx bench/run.ts [options]

Starts \`openenroll serve\` on a free loopback port over a fresh database, registers apps with the CLI,
obtains tokens through the real login and consent pages, then loads POST /v2/o/token/ (refresh, code) or
GET /v2/fhir/ExplanationOfBenefit/ (eob: 1,000 EOBs of one enrollee, loaded before the server starts; pages
of 10 by startIndex, the same pages by the next links a client follows, read once before the loads, then
reads by id) with autocannon. The EOBs come in two shapes, each on its own fresh database and server: carin
(enrollee 0's generated CARIN EOBs, \`openenroll fhir import\`) and bfd (enrollee 0's synthetic RIF claims,
\`openenroll ingest rif\`, as Blue Button serves them); with both, the summary compares what each serves per
second and its cost per byte.

Options:
  --db <sqlite|postgres|both>   database(s) to run on (default: sqlite)
  --duration <s>                seconds of load per benchmark (default: 10); the code exchange runs in
                                rounds (issue a pool, exchange it) until its load time reaches this
  --connections <n>             autocannon connections, one token family / app each (default: 10)
  --bench <refresh|code|eob|both|all>
                                which benchmark(s) to run: both = refresh and code, all = the three
                                (default: both)
  --eob-shape <carin|bfd|both>  the EOB data set(s) the eob benchmark serves (default: both); the first
                                is loaded into the server of refresh and code, each other one into a
                                fresh database and server of its own
  --eob-load <search,next,read> the eob loads to run, comma-separated (default: all three): a profile
                                (--cpu-prof) of one load shows that load's costs alone
  --codes <n>                   most codes per round (default: 8000); codes live 60 s, so a round also
                                stops issuing after --issue-budget seconds
  --issue-budget <s>            longest time spent issuing one round's codes (default: 30)
  --refresh-scope <scopes>      the scope the refresh benchmark's families are authorized with (default:
                                "${DEFAULT_REFRESH_SCOPE}": a data scope and offline_access, as
                                node-oidc-provider's harness in ../shared/bench refreshes "offline_access
                                api:read"; with "openid" every refresh also signs an RS256 ID token)
  --rounds <n>                  measured loads of each benchmark per database (default: 1). With both
                                databases every server is started before the first load and the
                                databases take turns, load by load (SQLite, PostgreSQL, then PostgreSQL,
                                SQLite, …), so that a machine whose speed drifts over minutes weighs on
                                both alike; a row sums its rounds, and the summary gives each round's
                                ratio. The code exchange runs its issue-then-exchange rounds in turns
                                until each database has --duration × --rounds seconds of exchange
  --no-settle                   PostgreSQL: measure the EOB loads right after the walk that reads every
                                page (which makes the BFD-shaped bodies and stores them, an update of
                                each row), instead of after a VACUUM of the table; see RESULTS.md
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

/** The eob benchmark's loads: pages by startIndex, pages by the next links, reads by id. */
const EOB_LOADS = ['search', 'next', 'read'] as const;
type EobLoad = (typeof EOB_LOADS)[number];

/** Issue-then-exchange rounds at most, whatever --duration asks. */
const MAX_ROUNDS = 8;

const RESULTS_FILE = resolve(import.meta.dirname, 'RESULTS.md');

interface Options {
  databases: DatabaseKind[];
  duration: number;
  connections: number;
  benchmarks: ('refresh' | 'code' | 'eob')[];
  /** The EOB data sets the eob benchmark serves, in order (empty without it). */
  eobShapes: EobShape[];
  /** The eob loads to run, in the order they run. */
  eobLoads: EobLoad[];
  /** Measured loads per benchmark and database, the databases taking turns. */
  rounds: number;
  /** PostgreSQL: vacuum the resources after the walk that made their bodies, before the EOB loads. */
  settle: boolean;
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
      'eob-shape': { type: 'string' },
      'eob-load': { type: 'string' },
      rounds: { type: 'string' },
      'no-settle': { type: 'boolean' },
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
  const rounds = positive('rounds', values.rounds, 1);
  if (!Number.isInteger(rounds)) throw new UsageError('--rounds must be a whole number');
  const codes = positive('codes', values.codes, 8000);
  if (codes < connections) throw new UsageError('--codes must be at least --connections');
  const issueBudget = positive('issue-budget', values['issue-budget'], 30);
  if (issueBudget > 50) throw new UsageError('--issue-budget must leave time to use codes that live 60 s');
  const benchmarks: Options['benchmarks'] =
    bench === 'both' ? ['refresh', 'code'] : bench === 'all' ? ['refresh', 'code', 'eob'] : [bench];
  const shape = choice('eob-shape', values['eob-shape'], [...EOB_SHAPES, 'both'] as const, 'both');
  if (values['eob-shape'] !== undefined && !benchmarks.includes('eob')) {
    throw new UsageError('--eob-shape is for --bench eob or all');
  }
  const loads = (values['eob-load'] ?? EOB_LOADS.join(',')).split(',').map((l) => l.trim());
  for (const load of loads) choice('eob-load', load, EOB_LOADS, 'search');
  if (values['eob-load'] !== undefined && !benchmarks.includes('eob')) {
    throw new UsageError('--eob-load is for --bench eob or all');
  }
  return {
    databases: db === 'both' ? ['sqlite', 'postgres'] : [db],
    eobLoads: EOB_LOADS.filter((l) => loads.includes(l)),
    benchmarks,
    eobShapes: !benchmarks.includes('eob') ? [] : shape === 'both' ? [...EOB_SHAPES] : [shape],
    duration,
    connections,
    rounds,
    settle: !values['no-settle'],
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

/** A load's 200 responses. */
function okOf(load: LoadResult): number {
  return load.result.statusCodeStats['200']?.count ?? 0;
}

function measure(loads: LoadResult[]): Measured {
  return {
    ok: loads.reduce((sum, l) => sum + okOf(l), 0),
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

/**
 * A row from the loads of one benchmark on one database: summed over its rounds (and code-exchange rounds),
 * with each round's req/s in the notes when there are several.
 */
function toRow(
  benchmark: BenchmarkName,
  database: string,
  options: Options,
  argv: string[],
  loads: LoadResult[],
  autocannonMean: number | null,
  notes: string[],
  eob?: { shape: EobShape; bytes: number },
): Row {
  const m = measure(loads);
  // Code exchanges run in rounds of their own; a round of turns is one load elsewhere.
  const roundRps = benchmark === 'code' ? undefined : loads.map((l) => okOf(l) / l.activeSeconds);
  if (roundRps && roundRps.length > 1) {
    notes.push(`${roundRps.length} rounds in turns, req/s ${roundRps.map((r) => r.toFixed(0)).join(' / ')}`);
  }
  return {
    benchmark,
    ...(eob ? { shape: eob.shape } : {}),
    database,
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    machine: machine(),
    commit: SERVED_COMMIT,
    command: commandLine(argv),
    connections: options.connections,
    duration: m.seconds,
    requests: m.ok,
    rps: m.ok / m.seconds,
    ...(roundRps && roundRps.length > 1 ? { roundRps } : {}),
    autocannonMean,
    p50: percentile(m.latencies, 50),
    p99: percentile(m.latencies, 99),
    ...(eob ? { bytes: eob.bytes } : {}),
    errors: m.errors,
    notes: notes.join('; '),
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

/** One server under test over its own fresh database, and what the EOB benchmark loaded into it. */
interface UnderTest {
  kind: DatabaseKind;
  database: BenchDatabase;
  server: RunningServer;
  /** The EOB ids in the server's search order, when EOB data was loaded. */
  eobIds: string[];
  profileDir: string | undefined;
  close(): Promise<void>;
}

/**
 * The CARIN-generated data set, written as NDJSON and loaded with `openenroll fhir import` (its own process).
 * Loaded before the server starts, so its sandbox start finds claims data and loads none of its own.
 */
async function loadCarin(database: BenchDatabase, dir: string, sandboxEnrollees: number): Promise<string[]> {
  const file = join(dir, 'eob.ndjson');
  const data = eobData();
  writeEobNdjson(file, data);
  const started = Date.now();
  const report = await importFhirFile(database, file, sandboxEnrollees);
  log(
    `eob carin: imported ${JSON.stringify(report.counts)} for sandbox enrollee ${EOB_ENROLLEE} ` +
      `(${report.linkedPatients} patient linked) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (report.counts.ExplanationOfBenefit !== EOB_COUNT || report.linkedPatients !== 1) {
    throw new Error(`eob carin: the import did not load ${EOB_COUNT} EOBs of one linked patient`);
  }
  return data.ids;
}

/**
 * The BFD-shaped data set, written as RIF files (beneficiary, history and claim files) and loaded with
 * `openenroll ingest rif` (its own process), before the server starts. The sandbox accounts the server
 * creates at its start own the Patient by its id.
 */
async function loadBfd(database: BenchDatabase, dir: string): Promise<string[]> {
  const data = bfdEobData();
  const rifDir = writeBfdRif(join(dir, 'rif'), data);
  const started = Date.now();
  const output = await runCli(database, ['ingest', 'rif', rifDir, '--sample', '--json']);
  const summary = JSON.parse(output.trim().split('\n').pop()!) as {
    read: number;
    stored: number;
    rejectedCount: number;
  };
  log(
    `eob bfd: ingested ${summary.read} RIF rows (${data.records.length} records) into ${summary.stored} ` +
      `resources for sandbox enrollee ${EOB_ENROLLEE} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (summary.rejectedCount !== 0)
    throw new Error(`eob bfd: the ingest rejected ${summary.rejectedCount} rows`);
  return data.ids;
}

/** A fresh database of `kind`, `shape`'s EOBs loaded into it (if any), and a server started over it. */
async function startUnderTest(
  kind: DatabaseKind,
  options: Options,
  cleanup: Cleanup,
  sandboxEnrollees: number,
  shape: EobShape | undefined,
): Promise<UnderTest> {
  const database = await createDatabase(kind, options.postgresUrl);
  cleanup.push(() => database.drop());
  let profileDir: string | undefined;
  if (options.cpuProfDir) {
    profileDir = join(options.cpuProfDir, `${kind}${shape ? `-${shape}` : ''}-${Date.now()}`);
    mkdirSync(profileDir, { recursive: true });
  }
  let eobIds: string[] = [];
  if (shape) {
    const dir = mkdtempSync(join(tmpdir(), 'openenroll-bench-eob-'));
    cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
    eobIds =
      shape === 'carin' ? await loadCarin(database, dir, sandboxEnrollees) : await loadBfd(database, dir);
  }
  log(`${database.label}: starting the server${shape ? ` (${shape} EOBs)` : ''}`);
  const server = await startServer({
    database,
    sandboxEnrollees,
    cpuProfileDir: profileDir,
    nodeArgs: options.serverNodeArgs,
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await server.close();
  };
  cleanup.push(close);
  log(`server pid ${server.pid} listening on ${server.url}`);
  return { kind, database, server, eobIds, profileDir, close };
}

/** Stops the server and prints what it was asked to keep: its output (verbose) and its CPU profile. */
async function stopUnderTest(underTest: UnderTest, options: Options): Promise<void> {
  await underTest.close();
  if (options.verbose && underTest.server.output().trim()) {
    console.log(`server output (last 20 kB):\n${underTest.server.output().trimEnd()}`);
  }
  if (underTest.profileDir) {
    const files = readdirSync(underTest.profileDir).filter((f) => f.endsWith('.cpuprofile'));
    for (const file of files) {
      console.log(`\nCPU profile ${join(underTest.profileDir, file)} (server process, ${underTest.kind}):`);
      console.log(formatSummary(summariseProfile(join(underTest.profileDir, file))));
    }
  }
}

/** What each server under test has served of one benchmark, round by round. */
class Rounds {
  private readonly loads = new Map<UnderTest, LoadResult[]>();
  add(underTest: UnderTest, load: LoadResult) {
    this.loads.set(underTest, [...this.of(underTest), load]);
  }
  of(underTest: UnderTest): LoadResult[] {
    return this.loads.get(underTest) ?? [];
  }
  /** Seconds of load so far. */
  seconds(underTest: UnderTest): number {
    return this.of(underTest).reduce((sum, l) => sum + l.activeSeconds, 0);
  }
}

/** `name`'s round `round` of `rounds` in the log, or just `name` when there is one round. */
function roundName(name: string, round: number, rounds: number): string {
  return rounds > 1 ? `${name} (round ${round + 1}/${rounds})` : name;
}

/** A row's mean of autocannon's per-second means over its rounds. */
function autocannonMeanOf(loads: LoadResult[]): number {
  return loads.reduce((sum, l) => sum + l.result.requests.average, 0) / loads.length;
}

/** The refresh and code benchmarks on each server of `group` (one per database), taking turns. */
async function runTokenBenchmarks(group: UnderTest[], options: Options, argv: string[]): Promise<Row[]> {
  const rows: Row[] = [];
  const C = options.connections;
  if (options.benchmarks.includes('refresh')) {
    const apps = new Map<UnderTest, RegisteredApp[]>();
    for (const underTest of group) {
      const { database, server } = underTest;
      apps.set(underTest, await registerApps(database, 'Bench refresh', C));
      if (options.warmup > 0) {
        // Its last in-flight requests rotate tokens the client never sees, so these families are thrown away.
        const warmFamilies = await prepareFamilies(server.url, apps.get(underTest)!, options.refreshScope);
        const warm = await refreshLoad(server.url, warmFamilies, options.warmup);
        reportLoad(`refresh warm-up (${underTest.kind})`, warm, options);
      }
    }
    const rounds = await inTurns(group, options.rounds, async (underTest, round) => {
      const { server } = underTest;
      // A new consent per app revokes the family before: every connection starts a fresh chain.
      const families = await prepareFamilies(server.url, apps.get(underTest)!, options.refreshScope);
      const name = roundName(`refresh ${underTest.kind}`, round, options.rounds);
      log(
        `${name}: ${C} token families (${C} apps × 1 enrollee); ${C} connections for ${options.duration} s`,
      );
      const load = await refreshLoad(server.url, families, options.duration);
      reportLoad(name, load, options);
      return load;
    });
    for (const underTest of group) {
      const loads = rounds.get(underTest)!;
      rows.push(
        toRow('refresh', underTest.database.label, options, argv, loads, autocannonMeanOf(loads), [
          `warm-up ${options.warmup} s; scope "${options.refreshScope}"`,
        ]),
      );
    }
  }
  if (options.benchmarks.includes('code')) {
    const perApp = Math.floor(options.codes / C);
    const issuers = new Map<UnderTest, { apps: RegisteredApp[]; issuer: CodeIssuer }>();
    for (const underTest of group) {
      const apps = await registerApps(underTest.database, 'Bench code', C);
      issuers.set(underTest, { apps, issuer: await CodeIssuer.start(underTest.server.url, apps, perApp) });
    }
    const rounds = new Rounds();
    const issued = new Map<UnderTest, { codes: number; seconds: number }>();
    const wanted = options.duration * options.rounds;
    const pending = (underTest: UnderTest) =>
      rounds.seconds(underTest) < wanted && rounds.of(underTest).length < MAX_ROUNDS * options.rounds;
    for (let turn = 0; group.some(pending); turn++) {
      for (const underTest of turns(group, turn).filter(pending)) {
        const { apps, issuer } = issuers.get(underTest)!;
        const name = `code ${underTest.kind} round ${rounds.of(underTest).length + 1}`;
        const round = await issuer.issue(perApp, options.issueBudget * 1000);
        const total = round.pools.reduce((sum, pool) => sum + pool.length, 0);
        if (total === 0) throw new Error('no code could be issued');
        const sums = issued.get(underTest) ?? { codes: 0, seconds: 0 };
        issued.set(underTest, { codes: sums.codes + total, seconds: sums.seconds + round.issueSeconds });
        log(
          `${name}: ${total} codes issued through consent in ${round.issueSeconds.toFixed(1)} s; ` +
            `exchanging each once over ${C} connections`,
        );
        const load = await codeLoad(
          underTest.server.url,
          apps.map((app, i) => ({ app, pool: round.pools[i]! })),
        );
        const oldest = (Date.now() - round.firstIssuedAt) / 1000;
        if (oldest > 60)
          console.warn(`code: the oldest code was ${oldest.toFixed(0)} s old at the end (TTL 60 s)`);
        reportLoad(name, load, options);
        log(`${name}: ${load.activeSeconds.toFixed(2)} s of exchange`);
        rounds.add(underTest, load);
      }
    }
    for (const underTest of group) {
      const loads = rounds.of(underTest);
      const { codes, seconds } = issued.get(underTest)!;
      rows.push(
        toRow('code', underTest.database.label, options, argv, loads, null, [
          `${loads.length} rounds, ${codes} codes (issued at ${(codes / seconds).toFixed(0)}/s)`,
        ]),
      );
    }
  }
  return rows;
}

/**
 * Brings the resource table to the state PostgreSQL's autovacuum keeps it in: the walk that read every page
 * made the BFD-shaped claims' bodies and stored them, an update of every row, which clears the pages'
 * all-visible bits, and until a VACUUM sets them again every count and skipped row of a page by
 * `startIndex` is checked in the table, not only on the index (PostgreSQL manual, "Index-Only Scans"). With
 * autovacuum on (the default) that VACUUM comes within about a minute of the updates; the machines we
 * measure on run PostgreSQL with autovacuum off, so the benchmark runs it, as `--no-settle` does not.
 */
async function settle(database: BenchDatabase): Promise<void> {
  const storage = await connect(database.url);
  try {
    await sql`vacuum (analyze) fhir_resources`.execute(storage.db);
  } finally {
    await storage.close();
  }
}

/** What each shape's data set is and how it was loaded, for the rows' notes. */
const SHAPE_NOTES: Record<EobShape, string> = {
  carin: 'enrollee 0 generated CARIN EOBs cloned, fhir import',
  bfd: 'enrollee 0 synthetic RIF claims cloned, ingest rif',
};

/**
 * EOB search, then read, on each server of `group` (one per database), each holding `shape`'s 1,000 EOBs of
 * sandbox enrollee 0, taking turns.
 */
async function runEobBenchmark(
  group: UnderTest[],
  shape: EobShape,
  options: Options,
  argv: string[],
): Promise<Row[]> {
  const C = options.connections;
  const targets = new Map<UnderTest, { bearer: string; byLoad: Record<EobLoad, GetTarget[]> }>();
  for (const underTest of group) {
    const { database, server, eobIds } = underTest;
    const [app] = await registerApps(database, 'Bench eob', 1);
    const bearer = await prepareBearer(server.url, app!, EOB_ENROLLEE);
    const total = await eobTotal(server.url, bearer);
    if (total !== EOB_COUNT || eobIds.length !== EOB_COUNT) {
      throw new Error(
        `eob ${shape}: the server holds ${total} EOBs of enrollee ${EOB_ENROLLEE}, not ${EOB_COUNT}`,
      );
    }
    const byLoad = {
      search: searchTargets(eobIds),
      next: await nextLinkTargets(server.url, bearer, eobIds),
      read: readTargets(eobIds),
    };
    targets.set(underTest, { bearer, byLoad });
    if (underTest.kind === 'postgres' && options.settle) await settle(database);
    if (options.warmup > 0) {
      const half = options.warmup / 2;
      const warm = (load: EobLoad) => getLoad(server.url, bearer, byLoad[load], C, half);
      reportLoad(`eob ${shape} search warm-up (${underTest.kind})`, await warm('search'), options);
      reportLoad(`eob ${shape} read warm-up (${underTest.kind})`, await warm('read'), options);
    }
  }
  const runs = (
    [
      ['search', 'eob-search', `startIndex 0…${EOB_COUNT - 10} cycled`],
      ['next', 'eob-next', `the next links from the first page cycled`],
      ['read', 'eob-read', `${EOB_COUNT} ids cycled`],
    ] as const
  ).filter(([load]) => options.eobLoads.includes(load));
  const rows: Row[] = [];
  for (const [load, name, what] of runs) {
    const rounds = await inTurns(group, options.rounds, async (underTest, round) => {
      const { bearer, byLoad } = targets.get(underTest)!;
      const named = roundName(`${name} ${shape} ${underTest.kind}`, round, options.rounds);
      log(`${named}: ${EOB_COUNT} EOBs of 1 enrollee, ${what}; ${C} connections for ${options.duration} s`);
      const counted = countingBytes(byLoad[load]);
      const result = await getLoad(underTest.server.url, bearer, counted.targets, C, options.duration);
      reportLoad(named, result, options);
      return { result, served: counted.served };
    });
    for (const underTest of group) {
      const loads = rounds.get(underTest)!.map((r) => r.result);
      const counts = rounds.get(underTest)!.map((r) => r.served);
      const responses = counts.reduce((sum, c) => sum + c.responses, 0);
      const bytes = responses ? counts.reduce((sum, c) => sum + c.bytes, 0) / responses : 0;
      rows.push(
        toRow(
          name,
          underTest.database.label,
          options,
          argv,
          loads,
          autocannonMeanOf(loads),
          [
            `${EOB_COUNT} EOBs, 1 enrollee (${SHAPE_NOTES[shape]}); ${what}; warm-up ${options.warmup} s ` +
              '(half search, half read)' +
              (underTest.kind !== 'postgres'
                ? ''
                : options.settle
                  ? '; vacuumed after the walk'
                  : '; --no-settle'),
          ],
          { shape, bytes },
        ),
      );
    }
  }
  return rows;
}

/**
 * The benchmarks on every database of the run, one server per database at a time, the databases taking
 * turns load by load: refresh and code on one server per database, which also holds the first EOB data set
 * and serves the eob benchmark over it; each further data set on a fresh database and server of its own
 * (two shapes of the same enrollee's claims cannot share a store: the same Patient, different EOBs).
 */
async function runAll(options: Options, argv: string[], cleanup: Cleanup): Promise<Row[]> {
  const rows: Row[] = [];
  const tokens = options.benchmarks.some((b) => b === 'refresh' || b === 'code');
  // The code benchmark issues each round's codes from distinct (app, enrollee) pairs.
  const sandboxEnrollees = options.benchmarks.includes('code')
    ? Math.max(2, Math.ceil(options.codes / options.connections))
    : 2;
  /** A database's label → its place in --db, for the order of the rows. */
  const place = new Map<string, number>();
  const startGroup = async (enrollees: number, shape: EobShape | undefined) => {
    const group: UnderTest[] = [];
    for (const [i, kind] of options.databases.entries()) {
      const underTest = await startUnderTest(kind, options, cleanup, enrollees, shape);
      place.set(underTest.database.label, i);
      group.push(underTest);
    }
    return group;
  };
  const [first, ...others] = options.eobShapes;
  if (tokens || first) {
    const group = await startGroup(sandboxEnrollees, first);
    rows.push(...(await runTokenBenchmarks(group, options, argv)));
    if (first) rows.push(...(await runEobBenchmark(group, first, options, argv)));
    for (const underTest of group) await stopUnderTest(underTest, options);
  }
  for (const shape of others) {
    const group = await startGroup(2, shape);
    rows.push(...(await runEobBenchmark(group, shape, options, argv)));
    for (const underTest of group) await stopUnderTest(underTest, options);
  }
  // One database's rows, then the next one's (a stable sort keeps each database's own order).
  return rows.sort((a, b) => place.get(a.database)! - place.get(b.database)!);
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
    rows.push(...(await runAll(options, argv, cleanup)));
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
  for (const search of rows.filter((r) => r.benchmark === 'eob-search' && r.database.startsWith('SQLite'))) {
    const verdict = search.p50 < 5 ? 'meets' : 'is ABOVE';
    console.log(
      `SQLite EOB pages of 10${search.shape ? ` (${SHAPE_NAMES[search.shape]})` : ''}: median ` +
        `${search.p50.toFixed(1)} ms with ${search.connections} connections ${verdict} the 5 ms target`,
    );
  }
  const ratios = databaseRatios(rows);
  if (ratios) console.log(`\n${ratios}`);
  const costs = shapeCosts(rows);
  if (costs) console.log(`\n${costs}`);
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
  const rounds = Math.max(0, ...rows.map((r) => r.roundRps?.length ?? 0));
  const lines = [
    rounds > 1
      ? `PostgreSQL vs SQLite, same run, ${rounds} rounds in turns:`
      : 'PostgreSQL vs SQLite, same run:',
    '| Benchmark | PostgreSQL req/s | SQLite req/s | PostgreSQL ÷ SQLite | PostgreSQL p99 (ms) | SQLite p99 (ms) | p99 PostgreSQL ÷ SQLite |' +
      (rounds > 1 ? ' Ratio by round |' : ''),
    '| --- | --- | --- | --- | --- | --- | --- |' + (rounds > 1 ? ' --- |' : ''),
  ];
  for (const label of [...new Set(rows.map(rowLabel))]) {
    const pgRow = rows.find((r) => rowLabel(r) === label && r.database.startsWith('PostgreSQL'));
    const sqliteRow = rows.find((r) => rowLabel(r) === label && r.database.startsWith('SQLite'));
    if (!pgRow || !sqliteRow) continue;
    const byRound = pgRow.roundRps?.map((rps, i) => (rps / sqliteRow.roundRps![i]!).toFixed(2)).join(' / ');
    lines.push(
      `| ${label} | ${pgRow.rps.toFixed(0)} | ${sqliteRow.rps.toFixed(0)} | ${(pgRow.rps / sqliteRow.rps).toFixed(2)} | ` +
        `${pgRow.p99.toFixed(1)} | ${sqliteRow.p99.toFixed(1)} | ${(pgRow.p99 / sqliteRow.p99).toFixed(2)} |` +
        (rounds > 1 ? ` ${byRound ?? '—'} |` : ''),
    );
  }
  return lines.length > 3 ? lines.join('\n') : undefined;
}

/** Megabytes (10^6 bytes) of response bodies served per second. */
const megabytesPerSecond = (row: Row) => (row.rps * (row.bytes ?? 0)) / 1e6;

/**
 * With both EOB shapes in one run: per database and path, each shape's req/s, mean body size and MB/s, and
 * bfd ÷ carin of the bytes per response and of the time per byte served — (1 / req/s) / bytes, so the ratio
 * is carin's MB/s over bfd's: below 1 the larger BFD-shaped EOBs cost less per byte than the CARIN ones.
 */
function shapeCosts(rows: readonly Row[]): string | undefined {
  const lines = [
    'EOB shapes, same run (cost per byte = time per response ÷ bytes per response):',
    '| Database | Path | CARIN req/s | CARIN bytes | CARIN MB/s | BFD req/s | BFD bytes | BFD MB/s | bytes BFD ÷ CARIN | cost per byte BFD ÷ CARIN |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const database of [...new Set(rows.map((r) => r.database))]) {
    for (const benchmark of ['eob-search', 'eob-read'] as const) {
      const of = (shape: EobShape) =>
        rows.find((r) => r.database === database && r.benchmark === benchmark && r.shape === shape);
      const carin = of('carin');
      const bfd = of('bfd');
      if (!carin?.bytes || !bfd?.bytes || !carin.rps || !bfd.rps) continue;
      lines.push(
        `| ${database} | ${benchmark} | ${carin.rps.toFixed(0)} | ${carin.bytes.toFixed(0)} | ` +
          `${megabytesPerSecond(carin).toFixed(1)} | ${bfd.rps.toFixed(0)} | ${bfd.bytes.toFixed(0)} | ` +
          `${megabytesPerSecond(bfd).toFixed(1)} | ${(bfd.bytes / carin.bytes).toFixed(2)} | ` +
          `${(megabytesPerSecond(carin) / megabytesPerSecond(bfd)).toFixed(2)} |`,
      );
    }
  }
  return lines.length > 3 ? lines.join('\n') : undefined;
}

process.exitCode = await main();
