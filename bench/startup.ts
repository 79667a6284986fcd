/**
 * How long `openenroll serve` takes to answer: the time from spawning the process to its first 200 on a
 * fresh database (migrations and the generated sample market included) and on a restart over the same
 * database, measured from outside as a person at a terminal or an orchestrator sees it.
 *
 *   npm run bench:startup -- [--db sqlite|postgres|both] [--rounds 3] [--no-write]
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeSection } from './results.js';
import { createDatabase, freePort, serverEnv, type BenchDatabase, type DatabaseKind } from './server.js';

const HELP = `Usage: npm run bench:startup -- [options]

Spawns \`node bin/openenroll.js serve\` on a fresh database and times, from the spawn, the first 200 of
GET /health/live (the process answers), GET /health/ready (the database is reachable) and POST
/api/v1/plans/search on the sample market (the data is ready); stops it and starts it again on the same
database (a restart). Repeats --rounds times per database and reports medians.

Options:
  --db <sqlite|postgres|both>   database(s) (default: sqlite)
  --rounds <n>                  starts of each kind per database (default: 3)
  --pg-url <url>                PostgreSQL server (default: $BENCH_POSTGRES_URL or postgres://postgres@127.0.0.1:5432/test)
  --no-write                    do not update bench/RESULTS.md
  -h, --help                    show this help
`;

const ROOT = resolve(import.meta.dirname, '..');
const CLI = resolve(ROOT, 'bin', 'openenroll.js');
const RESULTS = resolve(import.meta.dirname, 'RESULTS.md');
const SANDBOX_KEY = 'd687412e7b53146b2631dc01974ad0a4';

interface Start {
  live: number;
  ready: number;
  search: number;
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

async function startOnce(database: BenchDatabase): Promise<Start> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const year = new Date().getUTCFullYear();
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, 'serve'], {
    cwd: ROOT,
    env: serverEnv(database, port),
    stdio: 'ignore',
  });
  try {
    const live = await firstOk(() => fetch(`${url}/health/live`), started, child);
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
    return { live, ready, search };
  } finally {
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function runOn(kind: DatabaseKind, rounds: number, pgUrl: string) {
  const fresh: Start[] = [];
  const restart: Start[] = [];
  let label = '';
  for (let i = 0; i < rounds; i++) {
    const database = await createDatabase(kind, pgUrl);
    label = database.label;
    try {
      fresh.push(await startOnce(database));
      restart.push(await startOnce(database));
    } finally {
      await database.drop();
    }
    console.log(
      `${kind} round ${i + 1}: fresh ${JSON.stringify(fresh.at(-1))}, restart ${JSON.stringify(restart.at(-1))}`,
    );
  }
  return { label, fresh, restart };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      db: { type: 'string', default: 'sqlite' },
      rounds: { type: 'string', default: '3' },
      'pg-url': { type: 'string' },
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
  const rounds = Number(values.rounds);
  if (!kinds || !(rounds >= 1)) {
    console.error('--db must be sqlite, postgres or both; --rounds a positive number');
    return 2;
  }
  const pgUrl =
    values['pg-url'] ?? process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const results = [];
  for (const kind of kinds) results.push(await runOn(kind, rounds, pgUrl));
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}`;
  const cell = (starts: Start[], key: keyof Start) =>
    `${(median(starts.map((s) => s[key])) / 1000).toFixed(2)}`;
  const lines = [
    `Command: \`npm run bench:startup -- ${process.argv.slice(2).join(' ')}\` — ${new Date().toISOString().slice(0, 10)}, commit ${commit}, ${machine}, Node ${process.version}. Seconds from spawning \`node bin/openenroll.js serve\` to the first 200, median of ${rounds} rounds; "fresh" is an empty database (migrations, the generated sample market), "restart" the same database again.`,
    '',
    '| Database | Start | /health/live | /health/ready | first plan search |',
    '|---|---|---|---|---|',
  ];
  for (const r of results) {
    lines.push(
      `| ${r.label} | fresh | ${cell(r.fresh, 'live')} | ${cell(r.fresh, 'ready')} | ${cell(r.fresh, 'search')} |`,
    );
    lines.push(
      `| ${r.label} | restart | ${cell(r.restart, 'live')} | ${cell(r.restart, 'ready')} | ${cell(r.restart, 'search')} |`,
    );
  }
  const section = lines.join('\n');
  console.log(section);
  if (!values['no-write'])
    writeSection(RESULTS, 'startup', 'Start-up (generated by `npm run bench:startup`)', section);
  return 0;
}

process.exitCode = await main();
