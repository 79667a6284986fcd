/**
 * Bulk data benchmark: how long the largest document (county ZIPs of every state) takes to build from the
 * real HUD ZIP–county and Census county files, and how fast a real server streams it under autocannon, with
 * the server's resident memory sampled through the load. `npm run bench:bulk -- --help` for the options.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { connect } from '../src/storage/connect.js';
import { getLoad, type LoadResult } from './load.js';
import { loadCells, writeSection } from './results.js';
import {
  createDatabase,
  runCli,
  startServer,
  type BenchDatabase,
  type DatabaseKind,
  createUnlimitedKey,
  databaseKinds,
  postgresUrl,
} from './server.js';

const HELP = `Usage: npm run bench:bulk -- [options]

Loads the real Census county list and HUD ZIP–county crosswalk of ../shared/data into a fresh database with
\`openenroll ingest\` (the load builds the bulk documents once it commits: the build time is the one the
load stored), starts \`openenroll serve\`, creates an API key, and loads GET
/api/v1/data/county-zips?year=<current> with autocannon twice: as stored (Accept-Encoding: gzip) and
decompressed by the server (Accept-Encoding: identity). The server's resident memory (VmRSS) is sampled
every 100 ms through each load.

Options:
  --db <sqlite|postgres|both>   database(s) (default: sqlite)
  --duration <s>                seconds of load per encoding (default: 10)
  --connections <n>             autocannon connections (default: 10)
  --pg-url <url>                PostgreSQL server (default: $BENCH_POSTGRES_URL or postgres://postgres@127.0.0.1:5432/test)
  --no-write                    do not update bench/RESULTS.md
  -h, --help                    show this help
`;

const DATA = resolve(import.meta.dirname, '../../shared/data');
const RESULTS = resolve(import.meta.dirname, 'RESULTS.md');
const COUNTIES = [
  `${DATA}/geo/census_2010_national_county_fips.csv`,
  `${DATA}/geo/county_fips_changes_since_2010.csv`,
];
const ZIP_COUNTY = `${DATA}/geo/ZIP_COUNTY_032023.csv`;

/** The server's resident set size, MB (Linux /proc; NaN elsewhere). */
function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

interface Memory {
  before: number;
  peak: number;
  after: number;
}

/** Runs `work` while sampling the server's memory. */
async function sampled<T>(pid: number, work: () => Promise<T>): Promise<{ value: T; memory: Memory }> {
  const before = rssMb(pid);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);
  try {
    const value = await work();
    return { value, memory: { before, peak, after: rssMb(pid) } };
  } finally {
    clearInterval(timer);
  }
}

interface Figures {
  database: string;
  year: number;
  bytes: number;
  gzipBytes: number;
  buildMs: number;
  loads: { encoding: string; load: LoadResult; memory: Memory }[];
}

async function storedDocument(database: BenchDatabase) {
  const storage = await connect(database.url);
  try {
    return await storage.db
      .selectFrom('bulk_documents')
      .select(['year', 'bytes', 'gzip_bytes', 'build_ms'])
      .where('name', '=', 'county-zips')
      .orderBy('year', 'desc')
      .executeTakeFirstOrThrow();
  } finally {
    await storage.close();
  }
}

async function runOn(kind: DatabaseKind, options: { duration: number; connections: number; pgUrl: string }) {
  const database = await createDatabase(kind, options.pgUrl);
  try {
    await runCli(database, ['migrate']);
    await runCli(database, ['ingest', 'counties', ...COUNTIES]);
    await runCli(database, ['ingest', 'zip-county', ZIP_COUNTY]);
    const document = await storedDocument(database);
    const key = await createUnlimitedKey(database);
    const server = await startServer({ database, sandboxEnrollees: 1 });
    try {
      const path = `/api/v1/data/county-zips?year=${Number(document.year)}&apikey=${key}`;
      const loads: Figures['loads'] = [];
      for (const encoding of ['gzip', 'identity']) {
        const target = {
          path,
          check: (body: string) =>
            encoding === 'gzip' ? body.length > 1000 : body.startsWith('[{"state":"') && body.endsWith(']'),
        };
        const authorization = '';
        // Warm the server's JIT before measuring.
        await getLoad(server.url, authorization, [target], options.connections, 2, {
          'accept-encoding': encoding,
        });
        const { value, memory } = await sampled(server.pid, () =>
          getLoad(server.url, authorization, [target], options.connections, options.duration, {
            'accept-encoding': encoding,
          }),
        );
        loads.push({ encoding, load: value, memory });
      }
      return {
        database: database.label,
        year: Number(document.year),
        bytes: Number(document.bytes),
        gzipBytes: Number(document.gzip_bytes),
        buildMs: Number(document.build_ms),
        loads,
      } satisfies Figures;
    } finally {
      await server.close();
    }
  } finally {
    await database.drop();
  }
}

function markdown(figures: Figures[], command: string): string {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}`;
  const mb = (n: number) => n.toFixed(0);
  const lines = [
    `Command: \`${command}\` — ${new Date().toISOString().slice(0, 10)}, commit ${commit}, ${machine}, Node ${process.version}.`,
    '',
    "GET /api/v1/data/county-zips (every state: 54,444 ZIP–county pairs of the real HUD 2023 Q1 crosswalk, Census county names). Build = the time the `zip-county` load spent building and storing the document after it committed (read the tables, write the JSON, gzip level 9, store the chunks). Memory = the server's VmRSS before the measured load, its peak (sampled every 100 ms) and after it.",
    '',
    '| Database | Document (bytes) | Gzipped (bytes) | Build (ms) | Accept-Encoding | Req/s | p50 (ms) | p99 (ms) | Errors | Malformed | RSS before → peak → after (MB) |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const f of figures) {
    for (const { encoding, load, memory } of f.loads) {
      lines.push(
        `| ${f.database} | ${f.bytes.toLocaleString('en-US')} | ${f.gzipBytes.toLocaleString('en-US')} | ${f.buildMs} | ${encoding} | ${loadCells(load)} | ${mb(memory.before)} → ${mb(memory.peak)} → ${mb(memory.after)} |`,
      );
    }
  }
  return lines.join('\n');
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      db: { type: 'string', default: 'sqlite' },
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '10' },
      'pg-url': { type: 'string' },
      'no-write': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (!existsSync(ZIP_COUNTY)) {
    console.error(`bench:bulk needs the real files in ${DATA} (../shared/data beside the checkout)`);
    return 2;
  }
  const kinds = databaseKinds(values.db);
  if (!kinds) {
    console.error(`--db must be sqlite, postgres or both, got "${values.db}"`);
    return 2;
  }
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  if (!(duration > 0) || !(connections > 0)) {
    console.error('--duration and --connections must be positive numbers');
    return 2;
  }
  const pgUrl = postgresUrl(values['pg-url']);
  const figures: Figures[] = [];
  for (const kind of kinds) figures.push(await runOn(kind, { duration, connections, pgUrl }));
  const section = markdown(figures, `npm run bench:bulk -- ${process.argv.slice(2).join(' ')}`.trim());
  console.log(section);
  if (!values['no-write'])
    writeSection(RESULTS, 'bulk-data', 'Bulk data (generated by `npm run bench:bulk`)', section);
  return 0;
}

process.exitCode = await main();
