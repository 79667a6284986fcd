/**
 * Plan API benchmarks: the ingest time of the real PY2025 Plan Attributes PUF, and lookup throughput
 * (GET /api/v1/counties/by/zip/{zip}, GET /api/v1/plans/{id}) with autocannon against a real server
 * process. Reads the real files from ../shared/data. `npm run bench:plans -- --help` for the options.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { connect } from '../src/storage/connect.js';
import { getLoad, type LoadResult } from './load.js';
import {
  searchBench,
  writeGeneratedRates,
  SEARCH_PLACE,
  writeGeneratedBenefits,
  SEARCH_YEAR,
  type SearchFigures,
} from './plan-search.js';
import { loadCells, percentile, writeSection } from './results.js';
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

const HELP = `Usage: npm run bench:plans -- [options]

Loads the real public files of ../shared/data into a fresh database with \`openenroll ingest\` (timing the
PY2025 Plan Attributes PUF load), starts \`openenroll serve\`, creates an API key with \`openenroll keys
create\`, and loads GET /api/v1/counties/by/zip/{zip} (every ZIP of the HUD file in turn), GET
/api/v1/plans/{id}?year=2025 (every PY2025 plan in turn) and POST /api/v1/plans/search (households of four
in Dallas County, TX, priced with APTC from rates generated for the benchmark in the Rate PUF layout) with
autocannon, and times JSON.stringify of the search answer in the same run.

Options:
  --db <sqlite|postgres|both>   database(s) (default: sqlite)
  --duration <s>                seconds of load per lookup benchmark (default: 10)
  --connections <n>             autocannon connections (default: 10)
  --pg-url <url>                PostgreSQL server (default: $BENCH_POSTGRES_URL or postgres://postgres@127.0.0.1:5432/test)
  --no-write                    do not update bench/RESULTS.md
  -h, --help                    show this help
`;

const DATA = resolve(import.meta.dirname, '../../shared/data');
const RESULTS = resolve(import.meta.dirname, 'RESULTS.md');
const FILES = {
  counties: [
    `${DATA}/geo/census_2010_national_county_fips.csv`,
    `${DATA}/geo/county_fips_changes_since_2010.csv`,
  ],
  zip: `${DATA}/geo/ZIP_COUNTY_032023.csv`,
  planAttributes: `${DATA}/marketplace_puf/2025/plan-attributes-puf.zip`,
  serviceAreas: `${DATA}/marketplace_puf/2025/service-area-puf.csv`,
  ratingAreas: [
    `${DATA}/premiums/policyengine_derived/county_rating_area_2025_policyengine.csv`,
    `${DATA}/premiums/policyengine_derived/ca_los_angeles_zip3_rating_area.csv`,
  ],
  medicaid: `${DATA}/medicaid/medicaid_chip_income_limits_pct_fpl.csv`,
};

interface Figures {
  database: string;
  ingestSeconds: number;
  ingestRows: string;
  lookups: { name: string; load: LoadResult }[];
  /** Plan search without, then with, utilization levels (the yearly out-of-pocket estimate). */
  searches: SearchFigures[];
}

async function timedIngest(database: BenchDatabase, kind: string, files: string[], year?: number) {
  const started = performance.now();
  const out = await runCli(database, [
    'ingest',
    kind,
    ...files,
    ...(year ? ['--year', String(year)] : []),
    '--json',
  ]);
  const seconds = (performance.now() - started) / 1000;
  const summary = JSON.parse(out.trim().split('\n').pop()!) as { read: number; stored: number };
  return { seconds, summary };
}

async function targetsFrom(database: BenchDatabase) {
  const storage = await connect(database.url.startsWith('sqlite:') ? database.url : database.url);
  try {
    const zips = await storage.db
      .selectFrom('geo_zip_counties')
      .select('zip')
      .distinct()
      .orderBy('zip')
      .execute();
    const plans = await storage.db
      .selectFrom('plans')
      .select('plan_id')
      .where('year', '=', 2025)
      .orderBy('plan_id')
      .execute();
    return { zips: zips.map((r) => r.zip), plans: plans.map((r) => r.plan_id) };
  } finally {
    await storage.close();
  }
}

async function runOn(kind: DatabaseKind, options: { duration: number; connections: number; pgUrl: string }) {
  const database = await createDatabase(kind, options.pgUrl);
  try {
    await runCli(database, ['migrate']);
    await timedIngest(database, 'counties', FILES.counties);
    await timedIngest(database, 'zip-county', [FILES.zip]);
    const pa = await timedIngest(database, 'plan-attributes', [FILES.planAttributes]);
    await timedIngest(database, 'service-areas', [FILES.serviceAreas]);
    await timedIngest(database, 'rating-areas', FILES.ratingAreas, SEARCH_YEAR);
    await timedIngest(database, 'medicaid', [FILES.medicaid]);
    const dir = mkdtempSync(join(tmpdir(), 'bench-rates-'));
    const rates = await writeGeneratedRates(database, dir);
    await timedIngest(database, 'rates', [rates.file], SEARCH_YEAR);
    await timedIngest(database, 'benefits', [await writeGeneratedBenefits(database, dir)], SEARCH_YEAR);
    rmSync(dir, { recursive: true, force: true });
    console.log(`${kind}: generated rates for ${rates.plans} TX plans in rating area ${rates.area}`);
    console.log(
      `${kind}: plan-attributes ${pa.summary.read} rows read, ${pa.summary.stored} stored in ${pa.seconds.toFixed(2)} s`,
    );
    const key = await createUnlimitedKey(database);
    const { zips, plans } = await targetsFrom(database);
    const server = await startServer({ database, sandboxEnrollees: 1 });
    try {
      const zipTargets = zips.map((zip) => ({
        path: `/api/v1/counties/by/zip/${zip}?apikey=${key}`,
        check: (body: string) => body.startsWith('{"counties":[{'),
      }));
      const planTargets = plans.map((id) => ({
        path: `/api/v1/plans/${id}?year=2025&apikey=${key}`,
        check: (body: string) => body.includes(`"id":"${id}"`),
      }));
      // Warm the server's JIT before measuring.
      await getLoad(server.url, '', zipTargets, options.connections, 2);
      await getLoad(server.url, '', planTargets, options.connections, 2);
      const lookups = [
        {
          name: 'GET /counties/by/zip/{zip}',
          load: await getLoad(server.url, '', zipTargets, options.connections, options.duration),
        },
        {
          name: 'GET /plans/{plan_id}',
          load: await getLoad(server.url, '', planTargets, options.connections, options.duration),
        },
      ];
      const searches = [
        await searchBench(server.url, server.pid, key, options.connections, options.duration, false),
        await searchBench(server.url, server.pid, key, options.connections, options.duration, true),
      ];
      return {
        database: database.label,
        ingestSeconds: pa.seconds,
        ingestRows: `${pa.summary.read} rows → ${pa.summary.stored} stored`,
        lookups,
        searches,
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
  const lines = [
    `Command: \`${command}\` — ${new Date().toISOString().slice(0, 10)}, commit ${commit}, ${machine}, Node ${process.version}.`,
    '',
    '| Database | Plan Attributes PUF ingest (CLI process, wall clock) | Lookup | Req/s | p50 (ms) | p99 (ms) | Errors | Malformed |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const f of figures) {
    for (const { name, load } of f.lookups) {
      lines.push(
        `| ${f.database} | ${f.ingestSeconds.toFixed(2)} s (${f.ingestRows}) | ${name} | ${loadCells(load)} |`,
      );
    }
  }
  lines.push(
    '',
    `POST /api/v1/plans/search, ${SEARCH_YEAR}, Dallas County TX (${SEARCH_PLACE.countyfips}, ZIP ${SEARCH_PLACE.zipcode}): real PY2025 Plan Attributes and Service Area PUFs, rates GENERATED in the Rate PUF layout and cost sharing GENERATED in the Benefits and Cost Sharing PUF layout for the benchmark (no real PY2025 Rate or Benefits PUF is available); 32 households of four (two adults 25–60, two children, 225–400 % FPL: every plan priced with APTC; CSR 73 % variants below 250 %; a smoker in every fourth, about half the plans filing tobacco rates), cycled; each measured twice in the same run, without and with a \`utilization_level\` for every member (with: every plan carries its yearly out-of-pocket estimate, \`oopc\`; the ratio row divides the two). Server time: medians of the answers' Server-Timing — \`search\` (the route's own work: eligibility, pricing every plan, filters, sort, facets, the answer's text) and \`app\` (the whole request inside the server: key, limits, body parsing and validation, route). JSON.stringify = mean time to serialise one parsed answer in the benchmark process, same run; the ratios divide the search's and the whole request's server time by it. Server CPU per search = the server process's user + system CPU time over the measured load (/proc) ÷ answers: autocannon (a JavaScript HTTP parser reading ~31 kB answers) runs on the same 2 cores, so 1000 ÷ that figure is what one core of the server alone would sustain.`,
    '',
    '| Database | Utilization | Plans in county | Body (bytes) | Req/s | p50 (ms) | p99 (ms) | Server search p50 (ms) | Server app p50 (ms) | Server CPU per search (ms) | JSON.stringify (ms) | Search ÷ stringify | App ÷ stringify | Errors | Malformed |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const f of figures) {
    for (const search of f.searches) lines.push(searchRow(f.database, search));
  }
  lines.push(
    '',
    '| Database | Req/s with ÷ without utilization | Server search p50 with ÷ without | Server CPU per search with ÷ without |',
    '|---|---|---|---|',
  );
  for (const f of figures) {
    const [without, withUse] = f.searches as [SearchFigures, SearchFigures];
    const rate = (s: SearchFigures) => s.load.latencies.length / s.load.activeSeconds;
    const cpu =
      without.serverCpuMs && withUse.serverCpuMs
        ? (withUse.serverCpuMs / without.serverCpuMs).toFixed(2)
        : 'n/a';
    lines.push(
      `| ${f.database} | ${(rate(withUse) / rate(without)).toFixed(2)} | ${(withUse.routeMedianMs / without.routeMedianMs).toFixed(2)} | ${cpu} |`,
    );
  }
  const [sqlite, postgres] = [
    figures.find((f) => f.database.startsWith('SQLite')),
    figures.find((f) => f.database.startsWith('PostgreSQL')),
  ];
  if (sqlite && postgres) {
    const rate = (load: LoadResult | SearchFigures['load']) => load.latencies.length / load.activeSeconds;
    lines.push(
      '',
      'PostgreSQL vs SQLite, same run:',
      '',
      '| Path | PostgreSQL req/s | SQLite req/s | PostgreSQL ÷ SQLite |',
      '|---|---|---|---|',
    );
    const pairs: [string, number, number][] = [
      ...sqlite.lookups.map((l, i): [string, number, number] => [
        l.name,
        rate(postgres.lookups[i]!.load),
        rate(l.load),
      ]),
      ...sqlite.searches.map((search, i): [string, number, number] => [
        `POST /plans/search (utilization: ${search.utilization ? 'every member' : 'none'})`,
        rate(postgres.searches[i]!.load),
        rate(search.load),
      ]),
    ];
    for (const [name, pg, lite] of pairs)
      lines.push(`| ${name} | ${pg.toFixed(0)} | ${lite.toFixed(0)} | ${(pg / lite).toFixed(2)} |`);
  }
  return lines.join('\n');
}

function searchRow(database: string, search: SearchFigures): string {
  const { load } = search;
  const sorted = [...load.latencies].sort((a, b) => a - b);
  const errors =
    Object.values(load.failures).reduce((a, b) => a + b, 0) + load.result.errors + load.result.timeouts;
  const cpu = search.serverCpuMs === null ? 'n/a' : search.serverCpuMs.toFixed(3);
  return `| ${database} | ${search.utilization ? 'every member' : 'none'} | ${search.plans} | ${search.bodyBytes} | ${(load.latencies.length / load.activeSeconds).toFixed(0)} | ${percentile(sorted, 50).toFixed(1)} | ${percentile(sorted, 99).toFixed(1)} | ${search.routeMedianMs.toFixed(3)} | ${search.serverMedianMs.toFixed(3)} | ${cpu} | ${search.stringifyMs.toFixed(3)} | ${(search.routeMedianMs / search.stringifyMs).toFixed(2)} | ${(search.serverMedianMs / search.stringifyMs).toFixed(2)} | ${errors} | ${load.malformed} |`;
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
  if (!existsSync(FILES.planAttributes)) {
    console.error(`bench:plans needs the real files in ${DATA} (../shared/data beside the checkout)`);
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
  const section = markdown(figures, `npm run bench:plans -- ${process.argv.slice(2).join(' ')}`.trim());
  console.log(section);
  if (!values['no-write'])
    writeSection(RESULTS, 'plan-api', 'Plan API (generated by `npm run bench:plans`)', section);
  return 0;
}

process.exitCode = await main();
