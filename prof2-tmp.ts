import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getLoad } from './bench/load.js';
import { writeDrugRelease, writeIssuerFiles } from './bench/coverage-files.js';
import { createDatabase, runCli, startServer } from './bench/server.js';
const database = await createDatabase('sqlite', '');
const dir = mkdtempSync(join(tmpdir(), 'p2-'));
await runCli(database, ['migrate']);
const drugs = await writeDrugRelease(join(dir, 'rrf'), 5000);
const f = drugs.rxcuis.filter((_, i) => i % 15 === 0);
const year = new Date().getUTCFullYear();
const issuer = await writeIssuerFiles(join(dir, 'mr'), year, f, function* () { for (let i = 0; ; i++) yield String(8_000_000_000 + i); }, 1);
await runCli(database, ['ingest', 'rxnorm', drugs.dir]);
await runCli(database, ['ingest', 'mr-puf', issuer.index]);
const key = (JSON.parse((await runCli(database, ['keys', 'create', '--name', 'b', '--per-second', '1000000', '--per-minute', '100000000', '--json'])).trim()) as { key: string }).key;
const server = await startServer({ database, sandboxEnrollees: 1, cpuProfileDir: '/tmp/prof3' });
const targets = Array.from({ length: 30 }, (_, i) => ({
  path: `/api/v1/drugs/covered?drugs=${Array.from({ length: 10 }, (_, k) => f[(i * 10 + k) % f.length]).join(',')}&planids=${issuer.planIds.join(',')}&year=${year}&apikey=${key}`,
  check: (b: string) => b.startsWith('{"coverage"'),
}));
const r = await getLoad(server.url, '', targets, 10, 8);
console.log('rps', r.latencies.length / r.activeSeconds);
await server.close();
await database.drop();
