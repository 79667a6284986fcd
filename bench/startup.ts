/**
 * How long `openenroll serve` takes to answer: the time from spawning the process to its first 200 on a
 * fresh database (migrations and the generated sample market included, or the build's copy of them) and on
 * a restart over the same database, measured from outside as a person at a terminal or an orchestrator sees it; for the compiled
 * build (dist/, what `npm start` runs) and the TypeScript sources through tsx (`npm run dev`), interleaved.
 *
 *   npm run bench:startup -- [--db sqlite|postgres|both] [--run dist|tsx|both] [--rounds 3] [--no-template]
 *     [--no-write]
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeSection } from './results.js';
import { createDatabase, freePort, serverEnv, type BenchDatabase, type DatabaseKind } from './server.js';

const HELP = `Usage: npm run bench:startup -- [options]

Builds dist/ (\`npm run build\`), then spawns the service on a fresh database and times, from the spawn,
the first 200 of GET /health/live (the process answers), GET /health/ready (the database is reachable) and
POST /api/v1/plans/search on the sample market (the data is ready); stops it and starts it again on the same
database (a restart). "dist" starts \`node dist/main.js serve\` (what \`npm start\` runs once built), "tsx"
starts \`node --import tsx src/main.ts serve\` (\`npm run dev\`, and every start before the compiled
build). Repeats --rounds times per database, the runs interleaved, and reports medians and ranges, with
the CPU seconds the server had used at its first answers (from /proc, Linux only), which a busy machine
disturbs far less than the wall time. On SQLite a fresh dist start copies the build's sandbox template
(docs/startup.md#sandbox-template); --no-template creates the database file empty first, so that the start
generates the data as a tsx start and PostgreSQL do.

Options:
  --db <sqlite|postgres|both>   database(s) (default: sqlite)
  --run <dist|tsx|both>         what is started (default: both)
  --rounds <n>                  starts of each kind per database and run (default: 3)
  --cpu-prof-dir <dir>          write a V8 CPU profile of every start there (node --cpu-prof)
  --no-template                 SQLite: fresh starts generate the data instead of copying the template
  --pg-url <url>                PostgreSQL server (default: $BENCH_POSTGRES_URL or postgres://postgres@127.0.0.1:5432/test)
  --no-write                    do not update bench/RESULTS.md
  -h, --help                    show this help
`;

const ROOT = resolve(import.meta.dirname, '..');
const RESULTS = resolve(import.meta.dirname, 'RESULTS.md');
const SANDBOX_KEY = 'd687412e7b53146b2631dc01974ad0a4';

type Run = 'dist' | 'tsx';

/** Node's arguments that start `serve` each way. */
const ENTRIES: Record<Run, string[]> = {
  dist: [resolve(ROOT, 'dist', 'main.js'), 'serve'],
  tsx: ['--import', 'tsx', resolve(ROOT, 'src', 'main.ts'), 'serve'],
};

interface Start {
  live: number;
  ready: number;
  search: number;
  /** CPU seconds the server had used when it first answered /health/live and the plan search (Linux only). */
  liveCpu?: number;
  searchCpu?: number;
}

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`; 100 on Linux unless set otherwise). */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * CPU seconds (user and system, every thread) process `pid` has used so far, from /proc; undefined where
 * there is no /proc. Unlike the wall time, this hardly depends on what else the machine is running.
 */
function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is the first, utime the 12th, stime the 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** The first moment (ms after `since`) `probe` answers 200, polling every 5 ms. */
async function firstOk(probe: () => Promise<Response>, since: number, child: ChildProcess): Promise<number> {
  const deadline = since + 120_000;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode})`);
    try {
      const response = await probe();
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - since;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('no 200 within 120 s');
}

async function startOnce(
  database: BenchDatabase,
  run: Run,
  profileDir: string | undefined,
  generate = false,
): Promise<Start> {
  // An existing file, even empty, is never replaced by the template: the start generates the data.
  if (generate && database.url.startsWith('sqlite:')) writeFileSync(database.url.slice('sqlite:'.length), '');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const year = new Date().getUTCFullYear();
  const started = performance.now();
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...profile, ...ENTRIES[run]], {
    cwd: ROOT,
    env: serverEnv(database, port),
    stdio: 'ignore',
  });
  try {
    const live = await firstOk(() => fetch(`${url}/health/live`), started, child);
    const liveCpu = cpuSeconds(child.pid);
    const ready = await firstOk(() => fetch(`${url}/health/ready`), started, child);
    const search = await firstOk(
      () =>
        fetch(`${url}/api/v1/plans/search?apikey=${SANDBOX_KEY}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            household: {
              income: 52_000,
              people: [{ age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
            },
            market: 'Individual',
            place: { countyfips: '48091', state: 'TX', zipcode: '78130' },
            year,
          }),
        }),
      started,
      child,
    );
    return { live, ready, search, liveCpu, searchCpu: cpuSeconds(child.pid) };
  } finally {
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Measured {
  kind: DatabaseKind;
  run: Run;
  label: string;
  fresh: Start[];
  restart: Start[];
}

/** `rounds` fresh starts and restarts on `kind`, each run in turn within a round (so load spreads evenly). */
async function runOn(
  kind: DatabaseKind,
  runs: Run[],
  rounds: number,
  pgUrl: string,
  profileDir?: string,
  generate = false,
) {
  const results = runs.map((run): Measured => ({ kind, run, label: '', fresh: [], restart: [] }));
  for (let i = 0; i < rounds; i++) {
    for (const result of results) {
      const database = await createDatabase(kind, pgUrl);
      result.label = database.label;
      try {
        result.fresh.push(await startOnce(database, result.run, profileDir, generate));
        result.restart.push(await startOnce(database, result.run, profileDir));
      } finally {
        await database.drop();
      }
      console.log(
        `${kind} ${result.run} round ${i + 1}: fresh ${JSON.stringify(result.fresh.at(-1))}, restart ${JSON.stringify(result.restart.at(-1))}`,
      );
    }
  }
  return results;
}

/** Median seconds, and the range when there are several rounds ('–' when the figure was not measured). */
function cell(starts: Start[], key: keyof Start): string {
  const scale = key === 'liveCpu' || key === 'searchCpu' ? 1 : 1000;
  const values = starts
    .map((s) => s[key])
    .filter((v) => v !== undefined)
    .map((v) => v / scale);
  if (values.length === 0) return '–';
  const text = median(values).toFixed(2);
  if (values.length < 2) return text;
  return `${text} (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      db: { type: 'string', default: 'sqlite' },
      run: { type: 'string', default: 'both' },
      rounds: { type: 'string', default: '3' },
      'cpu-prof-dir': { type: 'string' },
      'pg-url': { type: 'string' },
      'no-template': { type: 'boolean', default: false },
      'no-write': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const choices: Record<string, DatabaseKind[]> = {
    sqlite: ['sqlite'],
    postgres: ['postgres'],
    both: ['sqlite', 'postgres'],
  };
  const kinds = choices[values.db];
  const runChoices: Record<string, Run[]> = { dist: ['dist'], tsx: ['tsx'], both: ['dist', 'tsx'] };
  const runs = runChoices[values.run];
  const rounds = Number(values.rounds);
  if (!kinds || !runs || !(rounds >= 1)) {
    console.error(
      '--db must be sqlite, postgres or both; --run dist, tsx or both; --rounds a positive number',
    );
    return 2;
  }
  // What `npm ci` builds; built again so the figures are of the sources as they are now.
  if (runs.includes('dist'))
    execFileSync(process.execPath, [resolve(ROOT, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  const loadBefore = loadavg()[0]!;
  const pgUrl =
    values['pg-url'] ?? process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const results: Measured[] = [];
  for (const kind of kinds) {
    results.push(...(await runOn(kind, runs, rounds, pgUrl, values['cpu-prof-dir'], values['no-template'])));
  }
  const loadAfter = loadavg()[0]!;
  // A tree exported without its history (git archive) has no commit to name.
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
      stdio: 'pipe',
    }).trim();
  } catch {
    /* not a git checkout */
  }
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}`;
  const lines = [
    `Command: \`npm run bench:startup -- ${process.argv.slice(2).join(' ')}\` — ${new Date().toISOString().slice(0, 10)}, commit ${commit}, ${machine}, Node ${process.version}, 1-minute load average ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after (other work on the machine when above ~0.5). Seconds from spawning the process to the first 200: median of ${rounds} rounds (fastest–slowest), and the CPU seconds the server process (all its threads) had used by then, which depends far less on other work on the machine; "fresh" is a new database: migrations, sandbox enrollees and claims, the generated sample market, or for dist on SQLite a copy of the build's sandbox template of them (${values['no-template'] ? 'not here: --no-template' : 'here'}); "restart" the same database again. "dist" is \`node dist/main.js serve\` (\`npm start\` once \`npm ci\` has built it: one bundle run with a V8 code cache), "tsx" is \`node --import tsx src/main.ts serve\` (\`npm run dev\`).`,
    '',
    '| Database | Run | Start | /health/live | /health/ready | first plan search | CPU to /health/live | CPU to first plan search |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    for (const [start, starts] of [
      ['fresh', r.fresh],
      ['restart', r.restart],
    ] as const) {
      lines.push(
        `| ${r.label} | ${r.run} | ${start} | ${cell(starts, 'live')} | ${cell(starts, 'ready')} | ${cell(starts, 'search')} | ${cell(starts, 'liveCpu')} | ${cell(starts, 'searchCpu')} |`,
      );
    }
  }
  const section = lines.join('\n');
  console.log(section);
  if (!values['no-write']) writeSection(RESULTS, 'startup-compiled', 'Start-up (compiled)', section);
  return 0;
}

process.exitCode = await main();
