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
import type { GetTarget } from './eob.js';
import { getLoad, inTurns, mergeLoads, type LoadResult } from './load.js';
import {
  mergeSearches,
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
  type RunningServer,
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
  --rounds <n>                  measured loads per path and database (default: 1); every database is
                                loaded and its server started first, then the databases take turns,
                                load by load (SQLite, PostgreSQL, then PostgreSQL, SQLite, …); a path's
                                figures merge its rounds and the ratio table gives each round's ratio
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
  /** Each round's req/s: the lookups', then the searches', in the order of the PostgreSQL vs SQLite table. */
  roundRates: number[][];
}

interface Options {
  duration: number;
  connections: number;
  /** Measured loads per path and database, the databases taking turns. */
  rounds: number;
  pgUrl: string;
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

/** One database loaded with the real files and a server over it, ready to be measured. */
interface Prepared {
  database: BenchDatabase;
  server: RunningServer;
  key: string;
  ingestSeconds: number;
  ingestRows: string;
  zipTargets: GetTarget[];
  planTargets: GetTarget[];
}

async function prepare(
  kind: DatabaseKind,
  options: Options,
  cleanup: (() => Promise<void>)[],
): Promise<Prepared> {
  const database = await createDatabase(kind, options.pgUrl);
  cleanup.push(() => database.drop());
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
  cleanup.push(() => server.close());
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
  return {
    database,
    server,
    key,
    ingestSeconds: pa.seconds,
    ingestRows: `${pa.summary.read} rows → ${pa.summary.stored} stored`,
    zipTargets,
    planTargets,
  };
}

/**
 * Every measurement on every prepared database, `options.rounds` times, the databases taking turns
 * measurement by measurement; a database's figures merge its rounds, and `roundRates` keeps each round's.
 */
async function measureAll(prepared: Prepared[], options: Options): Promise<Figures[]> {
  const lookup = (pick: (p: Prepared) => GetTarget[]) =>
    inTurns(prepared, options.rounds, (p) =>
      getLoad(p.server.url, '', pick(p), options.connections, options.duration),
    );
  const search = (utilization: boolean) =>
    inTurns(prepared, options.rounds, (p) =>
      searchBench(p.server.url, p.server.pid, p.key, options.connections, options.duration, utilization),
    );
  const zipRounds = await lookup((p) => p.zipTargets);
  const planRounds = await lookup((p) => p.planTargets);
  const searchRounds = [await search(false), await search(true)];
  const rate = (load: LoadResult) => load.latencies.length / load.activeSeconds;
  return prepared.map((p) => {
    const lookups = [
      { name: 'GET /counties/by/zip/{zip}', loads: zipRounds.get(p)! },
      { name: 'GET /plans/{plan_id}', loads: planRounds.get(p)! },
    ];
    const searches = searchRounds.map((rounds) => rounds.get(p)!);
    return {
      database: p.database.label,
      ingestSeconds: p.ingestSeconds,
      ingestRows: p.ingestRows,
      lookups: lookups.map(({ name, loads }) => ({ name, load: mergeLoads(loads, () => ({})) })),
      searches: searches.map(mergeSearches),
      roundRates: [
        ...lookups.map(({ loads }) => loads.map(rate)),
        ...searches.map((rounds) => rounds.map((r) => rate(r.load))),
      ],
    };
  });
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
    const rounds = sqlite.roundRates[0]!.length;
    lines.push(
      '',
      rounds > 1
        ? `PostgreSQL vs SQLite, same run, ${rounds} rounds in turns:`
        : 'PostgreSQL vs SQLite, same run:',
      '',
      `| Path | PostgreSQL req/s | SQLite req/s | PostgreSQL ÷ SQLite |${rounds > 1 ? ' Ratio by round |' : ''}`,
      `|---|---|---|---|${rounds > 1 ? '---|' : ''}`,
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
    pairs.forEach(([name, pg, lite], i) => {
      const byRound = postgres.roundRates[i]!.map((r, j) => (r / sqlite.roundRates[i]![j]!).toFixed(2));
      lines.push(
        `| ${name} | ${pg.toFixed(0)} | ${lite.toFixed(0)} | ${(pg / lite).toFixed(2)} |` +
          (rounds > 1 ? ` ${byRound.join(' / ')} |` : ''),
      );
    });
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
      rounds: { type: 'string', default: '1' },
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
  const rounds = Number(values.rounds);
  if (!(duration > 0) || !(connections > 0)) {
    console.error('--duration and --connections must be positive numbers');
    return 2;
  }
  if (!Number.isInteger(rounds) || rounds < 1) {
    console.error(`--rounds must be a whole number of at least 1, got "${values.rounds}"`);
    return 2;
  }
  const options: Options = { duration, connections, rounds, pgUrl: postgresUrl(values['pg-url']) };
  const cleanup: (() => Promise<void>)[] = [];
  let figures: Figures[];
  try {
    const prepared: Prepared[] = [];
    for (const kind of kinds) prepared.push(await prepare(kind, options, cleanup));
    figures = await measureAll(prepared, options);
  } finally {
    for (const step of cleanup.reverse()) await step();
  }
  const section = markdown(figures, `npm run bench:plans -- ${process.argv.slice(2).join(' ')}`.trim());
  console.log(section);
  if (!values['no-write'])
    writeSection(RESULTS, 'plan-api', 'Plan API (generated by `npm run bench:plans`)', section);
  return 0;
}

process.exitCode = await main();
