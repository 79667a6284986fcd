/**
 * Drug, provider and coverage benchmarks (issue 14): ingest speed and peak memory of the NPPES and MR-PUF
 * kinds on GENERATED files, then typeahead, provider search, drug coverage and plan search with and without
 * a coverage filter, with autocannon against a real server. `npm run bench:coverage -- --help`.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { getLoad, postLoad, type LoadResult } from './load.js';
import { writeDrugRelease, writeIssuerFiles, zipPoints } from './coverage-files.js';
import { generatedNpi, writeNppesFullFile } from './nppes-file.js';
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
import { buildSampleMarket } from '../src/plans/sample/market.js';
import { buildSampleCoverage } from '../src/plans/sample/coverage.js';

const HELP = `Usage: npm run bench:coverage -- [options]

Writes GENERATED files in the published layouts (an RxNorm release of invented drugs, an NPPES file of
invented providers at the real Census 2021 ZCTA points, an invented issuer's MR-PUF with a providers.json of
--mr-puf-mb MB), loads them with \`openenroll ingest\` (wall clock and peak RSS of each CLI process), starts
\`openenroll serve\` (the sample market loads, for plan search), and loads with autocannon:
GET /drugs/autocomplete, GET /providers/search (25 miles), GET /drugs/covered (10 drugs × 100 plans), and
POST /plans/search with and without filter.drugs (5) and filter.providers (3).

Options:
  --db <sqlite|postgres|both>   database(s) (default: sqlite)
  --providers <n>               NPPES rows (default: 1000000)
  --drugs <n>                   RxNorm drugs (default: 30000)
  --mr-puf-mb <n>               size of the generated providers.json (default: 200)
  --duration <s>                seconds per load (default: 10)
  --connections <n>             autocannon connections (default: 10)
  --pg-url <url>                PostgreSQL (default: $BENCH_POSTGRES_URL or postgres://postgres@127.0.0.1:5432/test)
  --no-write                    do not update bench/RESULTS.md
  -h, --help                    show this help
`;

const ROOT = resolve(import.meta.dirname, '..');
const RESULTS = resolve(import.meta.dirname, 'RESULTS.md');

interface Ingest {
  kind: string;
  seconds: number;
  read: number;
  stored: number;
  megabytes: number;
  peakRssMb: number;
}

/** `openenroll ingest` under /usr/bin/time -v: wall clock and the process's peak resident set. */
function timedIngest(
  database: BenchDatabase,
  kind: string,
  files: string[],
  megabytes: number,
): Promise<Ingest> {
  const started = performance.now();
  return new Promise((done, fail) => {
    execFile(
      '/usr/bin/time',
      ['-v', process.execPath, join(ROOT, 'bin/openenroll.js'), 'ingest', kind, ...files, '--json'],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'warn' },
        maxBuffer: 1 << 26,
        timeout: 3_600_000,
      },
      (error, stdout, stderr) => {
        if (error) return fail(new Error(`ingest ${kind}: ${error.message}\n${stderr.slice(-2000)}`));
        const summary = JSON.parse(stdout.trim().split('\n').pop()!) as { read: number; stored: number };
        const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
        done({
          kind,
          seconds: (performance.now() - started) / 1000,
          read: summary.read,
          stored: summary.stored,
          megabytes,
          peakRssMb: rss ? Number(rss[1]) / 1024 : NaN,
        });
      },
    );
  });
}

const sizeMb = (path: string) => statSync(path).size / 1e6;

interface Figures {
  database: string;
  ingests: Ingest[];
  loads: { name: string; load: LoadResult }[];
}

async function runOn(
  kind: DatabaseKind,
  options: {
    duration: number;
    connections: number;
    pgUrl: string;
    providers: number;
    drugs: number;
    mrPufMb: number;
  },
): Promise<Figures> {
  const database = await createDatabase(kind, options.pgUrl);
  const dir = mkdtempSync(join(tmpdir(), 'bench-coverage-'));
  try {
    await runCli(database, ['migrate']);
    const year = new Date().getUTCFullYear();
    const drugs = await writeDrugRelease(join(dir, 'rrf'), options.drugs);
    // NPPES in its published layout: 330 columns, every cell quoted.
    const providers = await writeNppesFullFile(join(dir, 'npidata.csv'), options.providers);
    const gazetteer = join(dir, 'zcta.txt');
    writeFileSync(
      gazetteer,
      [
        'GEOID\tINTPTLAT\tINTPTLONG',
        ...Object.entries(zipPoints()).map(([z, p]) => `${z}\t${p.latitude}\t${p.longitude}`),
      ].join('\n') + '\n',
    );
    const formularyDrugs = drugs.rxcuis.filter((_, i) => i % 15 === 0);
    const issuer = await writeIssuerFiles(
      join(dir, 'mr-puf'),
      year,
      formularyDrugs,
      function* () {
        for (let i = 0; ; i++) yield generatedNpi(i % options.providers);
      },
      options.mrPufMb,
    );
    // The generated files (2 GB and more) are written out to disk first: the kernel flushing them during
    // the loads slowed their commits by seconds, a cost of this benchmark, not of ingest.
    execFileSync('sync');
    const ingests = [
      await timedIngest(database, 'zip-locations', [gazetteer], sizeMb(gazetteer)),
      await timedIngest(database, 'rxnorm', [drugs.dir], sizeMb(join(drugs.dir, 'RXNCONSO.RRF'))),
      await timedIngest(database, 'nppes', [providers.path], sizeMb(providers.path)),
      await timedIngest(database, 'mr-puf', [issuer.index], issuer.bytes / 1e6),
    ];
    for (const i of ingests)
      console.log(
        `${kind}: ingest ${i.kind} ${i.read} rows in ${i.seconds.toFixed(1)} s, peak RSS ${i.peakRssMb.toFixed(0)} MB`,
      );
    const KEY = await createUnlimitedKey(database);
    const server = await startServer({ database, sandboxEnrollees: 1 });
    try {
      const words = readFileSync(join(drugs.dir, 'RXNCONSO.RRF'), 'utf8')
        .split('\n', 2000)
        .map((line) => line.split('|')[14]?.split(' ')[0]?.toLowerCase() ?? '')
        .filter((w) => w.length >= 6);
      const autocomplete = words.map((w, i) => ({
        path: `/api/v1/drugs/autocomplete?q=${w.slice(0, 3 + (i % 4))}&apikey=${KEY}`,
        check: (body: string) => body.startsWith('['),
      }));
      // Provider search from the ZIPs of the densest parts of the country (every ZIP is equally likely to
      // hold a provider, so the density follows the ZIPs') and from elsewhere.
      const zips = ['10029', '60614', '90012', '77002', '30303', '98101', '19104', '85004', '55401', '02139'];
      const search = providers.prefixes.flatMap((prefix, i) => ({
        path: `/api/v1/providers/search?q=${prefix.slice(0, 3 + (i % 2))}&zipcode=${zips[i % zips.length]}&apikey=${KEY}`,
        check: (body: string) => body.startsWith('{"providers":['),
      }));
      const plans = issuer.planIds.join(',');
      const covered = Array.from({ length: 50 }, (_, i) => ({
        path: `/api/v1/drugs/covered?drugs=${Array.from({ length: 10 }, (_, k) => formularyDrugs[(i * 10 + k) % formularyDrugs.length]).join(',')}&planids=${plans}&year=${year}&apikey=${KEY}`,
        check: (body: string) => body.startsWith('{"coverage":['),
      }));
      const sample = buildSampleMarket(year);
      const sampleCoverage = buildSampleCoverage(sample);
      const sampleDrugs = ['198440', '313782', '310965', '314076', '197361'];
      const sampleProviders = [...sampleCoverage.networks.values()][0]!.slice(0, 3).map((m) => m.npi);
      const body = (filter: Record<string, unknown>) =>
        JSON.stringify({
          place: { countyfips: '48091', state: 'TX', zipcode: '78130' },
          market: 'Individual',
          year,
          household: {
            income: 52_000,
            people: [
              { age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false },
              { age: 38, aptc_eligible: true, gender: 'Female', uses_tobacco: false },
            ],
          },
          filter,
        });
      const searchTarget = (filter: Record<string, unknown>) => [
        {
          path: `/api/v1/plans/search?apikey=${KEY}`,
          body: body(filter),
          check: (b: string) => b.startsWith('{"plans":['),
        },
      ];
      const run = async (name: string, targets: Parameters<typeof getLoad>[2]) => {
        await getLoad(server.url, '', targets, options.connections, 2);
        return { name, load: await getLoad(server.url, '', targets, options.connections, options.duration) };
      };
      const runPost = async (name: string, targets: ReturnType<typeof searchTarget>) => {
        await postLoad(server.url, targets, options.connections, 2);
        return { name, load: await postLoad(server.url, targets, options.connections, options.duration) };
      };
      const loads = [
        await run(`GET /drugs/autocomplete (${options.drugs} drugs)`, autocomplete),
        await run(`GET /providers/search (${options.providers} providers, 25 miles)`, search),
        await run('GET /drugs/covered (10 drugs × 100 plans)', covered),
        await runPost('POST /plans/search (sample county)', searchTarget({})),
        await runPost(
          'POST /plans/search + 5 drugs + 3 providers',
          searchTarget({ drugs: sampleDrugs, providers: sampleProviders }),
        ),
      ];
      return { database: database.label, ingests, loads };
    } finally {
      await server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  }
}

function markdown(figures: Figures[], command: string): string {
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}`;
  const lines = [
    `Command: \`${command}\` — ${new Date().toISOString().slice(0, 10)}, ${machine}, Node ${process.version}. Files GENERATED in the published layouts (invented names; real Census 2021 ZCTA points).`,
    '',
    '| Database | Ingest | Rows read | Input (MB) | Seconds | Rows/s | MB/s | Peak RSS (MB) |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const f of figures) {
    for (const i of f.ingests) {
      lines.push(
        `| ${f.database} | ${i.kind} | ${i.read} | ${i.megabytes.toFixed(0)} | ${i.seconds.toFixed(1)} | ${(i.read / i.seconds).toFixed(0)} | ${(i.megabytes / i.seconds).toFixed(1)} | ${i.peakRssMb.toFixed(0)} |`,
      );
    }
  }
  lines.push(
    '',
    '| Database | Load | Req/s | p50 (ms) | p99 (ms) | Errors | Malformed |',
    '|---|---|---|---|---|---|---|',
  );
  for (const f of figures) {
    for (const { name, load } of f.loads) lines.push(`| ${f.database} | ${name} | ${loadCells(load)} |`);
  }
  return lines.join('\n');
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      db: { type: 'string', default: 'sqlite' },
      providers: { type: 'string', default: '1000000' },
      drugs: { type: 'string', default: '30000' },
      'mr-puf-mb': { type: 'string', default: '200' },
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
  const kinds = databaseKinds(values.db);
  const numbers = {
    providers: Number(values.providers),
    drugs: Number(values.drugs),
    mrPufMb: Number(values['mr-puf-mb']),
    duration: Number(values.duration),
    connections: Number(values.connections),
  };
  if (!kinds || Object.values(numbers).some((n) => !(n > 0))) {
    console.error('bad options; see --help');
    return 2;
  }
  const pgUrl = postgresUrl(values['pg-url']);
  const figures: Figures[] = [];
  for (const kind of kinds) figures.push(await runOn(kind, { ...numbers, pgUrl }));
  const section = markdown(figures, `npm run bench:coverage -- ${process.argv.slice(2).join(' ')}`.trim());
  console.log(section);
  if (!values['no-write'])
    writeSection(
      RESULTS,
      'coverage',
      'Drugs, providers and coverage (generated by `npm run bench:coverage`)',
      section,
    );
  return 0;
}

process.exitCode = await main();
