import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSampleMarket } from '../../src/plans/sample/files.js';
import { runCli } from '../helpers/cli.js';
import { startTwoServers, stopServer, type ServerProcess } from '../helpers/processes.js';
import { createTestDatabase, redisUrl, type TestDatabase } from '../helpers/service.js';

/**
 * Two real `openenroll serve` processes on one database and one Redis: a key's limits are one budget for
 * every instance (the counters live in Redis), and a key revoked through the CLI is refused by both at
 * once (keys are read from the shared database on every request).
 */
let database: TestDatabase;
const servers: ServerProcess[] = [];
let a: ServerProcess;
let b: ServerProcess;

before(async () => {
  database = createTestDatabase();
  await (await database.open()).close();
  [a, b] = await startTwoServers(database.processUrl, { SANDBOX_ENROLLEES: '0', SAMPLE_MARKET: 'false' });
  servers.push(a, b);
});

after(async () => {
  await Promise.all(servers.map(stopServer));
  await database.drop();
});

async function createKey(...limits: string[]): Promise<{ key: string; id: string }> {
  const created = await runCli(database.processUrl, [
    'keys',
    'create',
    '--name',
    'scale-out',
    ...limits,
    '--json',
  ]);
  assert.equal(created.code, 0, created.stderr);
  return JSON.parse(created.stdout) as { key: string; id: string };
}

async function versions(server: ServerProcess, key: string) {
  const response = await fetch(`${server.url}/api/v1/versions?apikey=${key}`);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The servers count in fixed windows of the real clock: start a burst with at least 15 s of the minute left. */
async function awayFromMinuteEnd(): Promise<void> {
  const into = Date.now() % 60_000;
  if (into > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - into + 50));
}

const REDIS_SKIP = redisUrl
  ? false
  : 'REDIS_URL is not set: without Redis each instance counts its own limits (in memory), by design';

describe('scale-out: two processes, one database, one Redis', () => {
  test(
    '--per-minute 10: 6 requests to A and 6 to B → exactly 10 succeed; B sees what A used',
    { skip: REDIS_SKIP },
    async () => {
      const { key } = await createKey('--per-minute', '10');
      await awayFromMinuteEnd();
      const onA = [];
      for (let i = 0; i < 6; i++) onA.push(await versions(a, key));
      const onB = [];
      for (let i = 0; i < 6; i++) onB.push(await versions(b, key));

      assert.deepEqual(
        onA.map((r) => r.status),
        [200, 200, 200, 200, 200, 200],
      );
      assert.deepEqual(
        onA.map((r) => r.headers.get('x-ratelimit-remaining-minute')),
        ['9', '8', '7', '6', '5', '4'],
      );
      // B's first answer already counts A's six requests.
      assert.deepEqual(
        onB.map((r) => r.headers.get('x-ratelimit-remaining-minute')),
        ['3', '2', '1', '0', '0', '0'],
      );
      assert.deepEqual(
        onB.map((r) => r.status),
        [200, 200, 200, 200, 429, 429],
      );
      for (const refused of onB.slice(4)) {
        assert.equal(refused.text, '{"message":"API rate limit exceeded"}');
        assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      }
    },
  );

  test('12 requests at once, alternating A and B: exactly 10 succeed', { skip: REDIS_SKIP }, async () => {
    const { key } = await createKey('--per-minute', '10');
    await awayFromMinuteEnd();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => versions(i % 2 ? b : a, key)));
    const statuses = answers.map((r) => r.status).sort();
    assert.deepEqual(statuses, [...Array<number>(10).fill(200), 429, 429]);
  });

  test('a key revoked through the CLI is refused by both instances at once', async () => {
    const { key, id } = await createKey();
    assert.equal((await versions(a, key)).status, 200);
    assert.equal((await versions(b, key)).status, 200);
    const revoked = await runCli(database.processUrl, ['keys', 'revoke', id]);
    assert.equal(revoked.code, 0, revoked.stderr);
    for (const server of [a, b]) {
      const answer = await versions(server, key);
      assert.equal(answer.status, 401, server.name);
      assert.equal(answer.text, '{"message":"Invalid authentication credentials"}');
    }
  });

  test('plan search: both instances price alike, and a new Rate PUF load reaches both cached markets', async () => {
    const { key } = await createKey();
    const dir = mkdtempSync(join(tmpdir(), 'scale-out-market-'));
    try {
      // The generated sample market's files (TX, labelled sample), loaded through the CLI like real files.
      const files = await writeSampleMarket(dir, { year: 2026, seed: 5 });
      for (const file of files) {
        const year = file.kind === 'rating-areas' ? ['--year', '2026'] : [];
        const loaded = await runCli(database.processUrl, ['ingest', file.kind, file.path, ...year, '--json']);
        assert.equal(loaded.code, 0, loaded.stderr);
      }
      const body = JSON.stringify({
        household: {
          income: 52_000,
          people: [
            { age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false },
            { age: 38, aptc_eligible: true, gender: 'Female', uses_tobacco: false },
          ],
        },
        market: 'Individual',
        place: { countyfips: '48091', state: 'TX', zipcode: '78130' },
        year: 2026,
        limit: 100,
      });
      const post = async (server: ServerProcess) => {
        const response = await fetch(`${server.url}/api/v1/plans/search?apikey=${key}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        return { status: response.status, text: await response.text() };
      };
      const search = async (server: ServerProcess) => {
        const { status, text } = await post(server);
        assert.equal(status, 200, text);
        return JSON.parse(text) as { total: number; plans: { id: string; premium: number }[] };
      };
      const premiums = (answer: Awaited<ReturnType<typeof search>>) =>
        Object.fromEntries(answer.plans.map((p) => [p.id, p.premium]));
      // The datasets are re-read within about 5 s of a load by any process; wait until both have it.
      const until = async (check: () => Promise<boolean>) => {
        for (let i = 0; i < 60 && !(await check()); i++) await new Promise((r) => setTimeout(r, 250));
      };
      // Until then an instance that read the list before the loads says no plans are loaded for 2026 (400).
      const priced = async (server: ServerProcess) => {
        const { status, text } = await post(server);
        return status === 200 && (JSON.parse(text) as { total: number }).total > 0;
      };
      await until(async () => (await priced(a)) && (await priced(b)));
      const before = [await search(a), await search(b)];
      assert.ok(before[0]!.total > 0);
      assert.deepEqual(premiums(before[1]!), premiums(before[0]!));

      // Bulk data is built once by the loads and stored in the shared database: both instances send the
      // same bytes under the same ETag, and one's tag is current on the other.
      const bulk = async (server: ServerProcess, headers: Record<string, string> = {}) => {
        const response = await fetch(`${server.url}/api/v1/data/county-zips?year=2026&apikey=${key}`, {
          headers,
        });
        return { status: response.status, etag: response.headers.get('etag'), text: await response.text() };
      };
      const [fromA, fromB] = [await bulk(a), await bulk(b)];
      assert.equal(fromA.status, 200, fromA.text);
      assert.deepEqual(fromB, fromA);
      assert.equal((await bulk(b, { 'if-none-match': fromA.etag! })).status, 304);

      // Every rate doubled, loaded by a third process: both instances' cached markets give way.
      const rates = files.find((f) => f.kind === 'rates')!.path;
      const doubled = readFileSync(rates, 'utf8').replace(
        /,(\d+\.\d{2}),(\d+\.\d{2}|),/g,
        (_all, rate: string, tobacco: string) =>
          `,${(Number(rate) * 2).toFixed(2)},${tobacco === '' ? '' : (Number(tobacco) * 2).toFixed(2)},`,
      );
      writeFileSync(rates, doubled);
      const reloaded = await runCli(database.processUrl, ['ingest', 'rates', rates, '--json']);
      assert.equal(reloaded.code, 0, reloaded.stderr);
      const first = before[0]!.plans[0]!;
      const doubledOn = async (server: ServerProcess) =>
        premiums(await search(server))[first.id] === Math.round(first.premium * 200) / 100;
      await until(async () => (await doubledOn(a)) && (await doubledOn(b)));
      const after = [await search(a), await search(b)];
      assert.deepEqual(premiums(after[1]!), premiums(after[0]!));
      for (const plan of before[0]!.plans) {
        assert.equal(premiums(after[0]!)[plan.id], Math.round(plan.premium * 200) / 100, plan.id);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
