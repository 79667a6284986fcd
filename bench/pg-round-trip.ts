/**
 * What one round trip to PostgreSQL costs on this machine, apart from any request around it: the CPU time
 * this process (node-postgres) and the server's backends spend per statement when 10 clients each send a
 * named one-row statement and wait for its answer, as the service's hot paths do. A read by primary key,
 * and a one-row update committed with and without waiting for the WAL flush. It bounds what any path with
 * k round trips per request can reach against SQLite, which runs the same statements in process: on a
 * machine whose cores the database shares, each round trip adds about this much CPU to every request.
 *
 *   npm run bench:round-trip -- [--pg-url URL] [--statements 40000] [--connections 10]
 *
 * Linux only (reads the backends' CPU from /proc). The figures are not written to RESULTS.md.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { postgresUrl } from './server.js';

const HELP = `Usage: npm run bench:round-trip -- [options]

Measures the CPU one round trip to PostgreSQL costs: 10 clients (--connections) each send a named
one-row statement and wait for its answer, --statements in all, for a read by primary key, an update
committed with synchronous_commit=on and one with synchronous_commit=off (a table of its own, created and
dropped). Prints statements per second and the CPU per statement of this process and of the server's
backends (from /proc; Linux only).

Options:
  --pg-url <url>       PostgreSQL server (default: $BENCH_POSTGRES_URL or postgres://postgres@127.0.0.1:5432/test)
  --statements <n>     statements per kind (default: 40000)
  --connections <n>    clients sending at once (default: 10)
  -h, --help           show this help
`;

const { values } = parseArgs({
  options: {
    'pg-url': { type: 'string' },
    statements: { type: 'string', default: '40000' },
    connections: { type: 'string', default: '10' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
const statements = Number(values.statements);
const connections = Number(values.connections);
const url = postgresUrl(values['pg-url']);
const TICK_US = 10_000; // /proc CPU times are in clock ticks of 10 ms (USER_HZ = 100 on Linux)

/** CPU microseconds used so far by every PostgreSQL server process (`postgres: …` in /proc). */
function serverCpuUs(): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('postgres')) continue;
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return ticks * TICK_US;
}

interface Figures {
  perSecond: number;
  clientUs: number;
  serverUs: number;
}

async function measure(pool: pg.Pool, text: string, args: (i: number) => unknown[]): Promise<Figures> {
  const name = `rt_${Math.abs(hash(text))}`;
  await Promise.all(Array.from({ length: connections }, () => pool.query({ name, text, values: args(0) })));
  let sent = 0;
  const server = serverCpuUs();
  const client = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (sent < statements) {
        const i = sent++;
        await pool.query({ name, text, values: args(i) });
      }
    }),
  );
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(client);
  return {
    perSecond: (statements / elapsed) * 1000,
    clientUs: (used.user + used.system) / statements,
    serverUs: (serverCpuUs() - server) / statements,
  };
}

function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
  return h;
}

const table = `round_trip_${process.pid}`;
const flushed = new pg.Pool({ connectionString: url, max: connections });
const relaxed = new pg.Pool({
  connectionString: url,
  max: connections,
  options: '-c synchronous_commit=off',
});
try {
  await flushed.query(`create table ${table} (id int primary key, h text not null, n bigint not null)`);
  await flushed.query(`insert into ${table} select g, md5(g::text), 0 from generate_series(1, 1000) g`);
  const rows: [string, Figures][] = [
    [
      'read by primary key',
      await measure(flushed, `select id, h, n from ${table} where id = $1`, (i) => [1 + (i % 1000)]),
    ],
    [
      'update, synchronous_commit=on',
      await measure(
        flushed,
        `update ${table} set h = md5($2::text), n = n + 1 where id = $1 returning n`,
        (i) => [1 + (i % 1000), i],
      ),
    ],
    [
      'update, synchronous_commit=off',
      await measure(
        relaxed,
        `update ${table} set h = md5($2::text), n = n + 1 where id = $1 returning n`,
        (i) => [1 + (i % 1000), i],
      ),
    ],
  ];
  console.log(
    `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load ${loadavg()[0]!.toFixed(1)}; ` +
      `${connections} clients, ${statements} statements each`,
  );
  console.log(
    '| Statement | per second | node-postgres CPU µs | PostgreSQL CPU µs | total CPU µs per round trip |',
  );
  console.log('| --- | --- | --- | --- | --- |');
  for (const [label, f] of rows) {
    console.log(
      `| ${label} | ${f.perSecond.toFixed(0)} | ${f.clientUs.toFixed(1)} | ${f.serverUs.toFixed(1)} | ${(f.clientUs + f.serverUs).toFixed(1)} |`,
    );
  }
} finally {
  await flushed.query(`drop table if exists ${table}`);
  await flushed.end();
  await relaxed.end();
}
