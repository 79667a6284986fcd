/**
 * `openenroll ingest rif` speed: writes a GENERATED carrier RIF file (BFD's sample carrier claim line as
 * the template, every claim of one to eight lines, claims spread over many invented beneficiaries, with
 * their own dates, amounts, codes and NPIs) to a temp dir, loads it with the CLI on a fresh database and
 * prints lines per second and the process's peak resident set. `npm run bench:rif -- --help`.
 */
import { execFile } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { createDatabase, databaseKinds, postgresUrl, runCli, type BenchDatabase } from './server.js';

const HELP = `Usage: npm run bench:rif -- [options]

Writes a GENERATED carrier RIF file (BFD's sample carrier line as the template; claims of 1-8 lines, about
4.5 on average, over many beneficiaries) and times \`openenroll ingest rif\` on it (wall clock, lines/s,
peak RSS of the CLI process) on a fresh database.

Options:
  --lines <n>          claim lines to write (default: 1000000)
  --beneficiaries <n>  beneficiaries the claims belong to (default: 50000)
  --db <sqlite|postgres|both>   database(s) (default: sqlite)
  --pg-url <url>       PostgreSQL (default: $BENCH_POSTGRES_URL or postgres://postgres@127.0.0.1:5432/test)
  --keep               keep the generated file and print its path
  -h, --help           show this help
`;

const ROOT = resolve(import.meta.dirname, '..');
const TEMPLATE = join(ROOT, 'test/fixtures/bfd/rif/sample-a-bcarrier.txt');
/** What the run must reach on SQLite (lines per second). */
const TARGET = 30_000;

/** A small deterministic generator, so two runs write the same file. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const rifDay = (day: Date) =>
  `${String(day.getUTCDate()).padStart(2, '0')}-${MONTHS[day.getUTCMonth()]}-${day.getUTCFullYear()}`;
const HCPCS = ['99213', '99214', '99203', '36415', '80053', '85025', '93000', '71046', 'G0439', '97110'];
const DIAGNOSES = ['I10', 'E119', 'E785', 'M545', 'J449', 'Z0000', 'R0789', 'N179', 'K219', 'F329'];

/** Writes `lines` carrier claim lines; returns the file's size in bytes. */
async function writeCarrierFile(path: string, lines: number, beneficiaries: number): Promise<number> {
  const [head, first] = readFileSync(TEMPLATE, 'utf8').split(/\r?\n/);
  const header = head!.split('|');
  const template = first!.split('|');
  const at = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`the template has no ${name}`);
    return i;
  };
  const columns = {
    bene: at('BENE_ID'),
    claim: at('CLM_ID'),
    group: at('CLM_GRP_ID'),
    from: at('CLM_FROM_DT'),
    thru: at('CLM_THRU_DT'),
    weekly: at('NCH_WKLY_PROC_DT'),
    payment: at('CLM_PMT_AMT'),
    line: at('LINE_NUM'),
    lineFrom: at('LINE_1ST_EXPNS_DT'),
    lineThru: at('LINE_LAST_EXPNS_DT'),
    hcpcs: at('HCPCS_CD'),
    linePayment: at('LINE_NCH_PMT_AMT'),
    allowed: at('LINE_ALOWD_CHRG_AMT'),
    diagnosis: at('PRNCPAL_DGNS_CD'),
    lineDiagnosis: at('LINE_ICD_DGNS_CD'),
    performer: at('PRF_PHYSN_NPI'),
    referrer: at('RFR_PHYSN_NPI'),
  };
  const next = random(20250101);
  const out = createWriteStream(path);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`${header.join('|')}\n`);
  const start = Date.UTC(2020, 0, 1);
  let written = 0;
  let claim = 0;
  let chunk = '';
  while (written < lines) {
    claim += 1;
    const count = Math.min(lines - written, 1 + Math.floor(next() * 8));
    const cells = [...template];
    const from = new Date(start + Math.floor(next() * 1400) * 86_400_000);
    const thru = new Date(from.getTime() + Math.floor(next() * 5) * 86_400_000);
    cells[columns.bene] = String(1 + Math.floor(next() * beneficiaries));
    cells[columns.claim] = String(10_000_000 + claim);
    cells[columns.group] = String(20_000_000 + claim);
    cells[columns.from] = rifDay(from);
    cells[columns.thru] = rifDay(thru);
    cells[columns.weekly] = rifDay(new Date(thru.getTime() + 7 * 86_400_000));
    cells[columns.diagnosis] = DIAGNOSES[Math.floor(next() * DIAGNOSES.length)]!;
    cells[columns.referrer] = String(1_000_000_000 + Math.floor(next() * 900_000));
    let total = 0;
    for (let line = 1; line <= count; line++) {
      const amount = Math.round(next() * 40_000) / 100;
      total += amount;
      cells[columns.line] = String(line);
      cells[columns.lineFrom] = cells[columns.from]!;
      cells[columns.lineThru] = cells[columns.thru]!;
      cells[columns.hcpcs] = HCPCS[Math.floor(next() * HCPCS.length)]!;
      cells[columns.linePayment] = amount.toFixed(2);
      cells[columns.allowed] = (amount * 1.25).toFixed(2);
      cells[columns.lineDiagnosis] = DIAGNOSES[Math.floor(next() * DIAGNOSES.length)]!;
      cells[columns.performer] = String(1_000_000_000 + Math.floor(next() * 900_000));
      cells[columns.payment] = total.toFixed(2);
      chunk += `${cells.join('|')}\n`;
    }
    written += count;
    if (chunk.length > 1 << 20) {
      await write(chunk);
      chunk = '';
    }
  }
  await write(chunk);
  out.end();
  await once(out, 'finish');
  return statSync(path).size;
}

interface Timing {
  seconds: number;
  read: number;
  stored: number;
  rejected: number;
  peakRssMb: number;
}

/** `openenroll ingest rif` under /usr/bin/time -v: wall clock and the process's peak resident set. */
function timedIngest(database: BenchDatabase, file: string): Promise<Timing> {
  const started = performance.now();
  return new Promise((done, fail) => {
    execFile(
      '/usr/bin/time',
      ['-v', process.execPath, join(ROOT, 'bin/openenroll.js'), 'ingest', 'rif', file, '--json'],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'warn' },
        maxBuffer: 1 << 26,
        timeout: 7_200_000,
      },
      (error, stdout, stderr) => {
        if (error) return fail(new Error(`ingest rif: ${error.message}\n${stderr.slice(-2000)}`));
        const summary = JSON.parse(stdout.trim().split('\n').pop()!) as {
          read: number;
          stored: number;
          rejectedCount: number;
        };
        const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
        done({
          seconds: (performance.now() - started) / 1000,
          read: summary.read,
          stored: summary.stored,
          rejected: summary.rejectedCount,
          peakRssMb: rss ? Number(rss[1]) / 1024 : Number.NaN,
        });
      },
    );
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      lines: { type: 'string', default: '1000000' },
      beneficiaries: { type: 'string', default: '50000' },
      db: { type: 'string', default: 'sqlite' },
      'pg-url': { type: 'string' },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return void process.stdout.write(HELP);
  const kinds = databaseKinds(values.db);
  const lines = Number(values.lines);
  const beneficiaries = Number(values.beneficiaries);
  if (
    !kinds ||
    !Number.isInteger(lines) ||
    lines < 1 ||
    !Number.isInteger(beneficiaries) ||
    beneficiaries < 1
  ) {
    process.stderr.write(HELP);
    process.exit(2);
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-rif-'));
  const file = join(dir, 'carrier.txt');
  try {
    const began = performance.now();
    const bytes = await writeCarrierFile(file, lines, beneficiaries);
    console.log(
      `wrote ${lines.toLocaleString('en-US')} carrier lines (${(bytes / 1e6).toFixed(0)} MB) in ` +
        `${((performance.now() - began) / 1000).toFixed(1)} s: ${file}`,
    );
    console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}`);
    for (const kind of kinds) {
      const database = await createDatabase(kind, postgresUrl(values['pg-url']));
      try {
        await runCli(database, ['migrate']);
        const t = await timedIngest(database, file);
        const rate = t.read / t.seconds;
        console.log(
          `${database.label}: ${t.read.toLocaleString('en-US')} lines → ${t.stored.toLocaleString('en-US')} ` +
            `resources (${t.rejected} rejected) in ${t.seconds.toFixed(1)} s: ` +
            `${Math.round(rate).toLocaleString('en-US')} lines/s, peak RSS ${t.peakRssMb.toFixed(0)} MB` +
            (kind === 'sqlite' ? ` (target ≥ ${TARGET.toLocaleString('en-US')} lines/s)` : ''),
        );
      } finally {
        await database.drop();
      }
    }
  } finally {
    if (values.keep) console.log(`kept ${file}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

await main();
