import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { rifClaimSources } from '../../src/fhir/bfd/claim-source.js';
import type { KyselyPlugin } from 'kysely';
import { BodyCache } from '../../src/fhir/store/body-cache.js';
import { createFhirStore, type ResourceQuery } from '../../src/fhir/store/resources.js';
import { fhirDeps } from '../../src/server.js';
import type { Storage } from '../../src/storage/connect.js';
import { minimalEob } from '../helpers/minimal-eob.js';
import { startCountingService, type CountingService } from '../helpers/round-trips.js';
import { createTestApp, onPostgres } from '../helpers/service.js';
import { enrollee, issueTokens, type TokenBody } from '../helpers/token-calls.js';

/**
 * The FHIR body cache (docs/decisions.md#fhir-body-cache): on PostgreSQL each instance keeps the bodies it
 * read under their row's version and fetches a body again only when the row changed. Over the sandbox's
 * claims as the RIF ingest stores them, with changes made by a second instance (its own connection and
 * store, no cache) while the first keeps serving.
 */

interface Bundle {
  total: number;
  link: { relation: string; url: string }[];
  entry?: { resource: { id: string } }[];
}

const PID = enrollee(0).patientId;
const METRICS_TOKEN = 'metrics-scraper-token-body-cache-0123';
const EOB = 'ExplanationOfBenefit';

let running: CountingService;
let tokens: TokenBody;
let ids: string[];
/** The second instance's storage: another pool on the same database. */
let other: Storage;

before(async () => {
  running = await startCountingService({ SANDBOX_ENROLLEES: '2', METRICS_TOKEN });
  tokens = await issueTokens(running, await createTestApp(running), { enrollee: 0 });
  other = await running.database.open();
  const rows = await running.service.storage.db
    .selectFrom('fhir_resources')
    .select('id')
    .where('resource_type', '=', EOB)
    .where('patient_id', '=', PID)
    .orderBy('id')
    .execute();
  ids = rows.map((r) => r.id);
  assert.ok(ids.length >= 12, `sandbox EOBs: ${ids.length}`);
});
after(async () => {
  await other.close();
  await running.close();
});

const postgres = () => running.service.storage.dialect.name === 'postgres';
const stats = () => running.service.fhir.fhir.bodyCacheStats();

async function get(path: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${running.url}${path.replace(/^https?:\/\/[^/]+/, '')}`, {
    headers: { authorization: `Bearer ${tokens.access_token}` },
  });
  return { status: response.status, text: await response.text() };
}

/** Every page from the first by `next`, as the JSON text of each match in order, with each page's total. */
async function walk(
  count: number,
): Promise<{ bodies: Map<string, string>; totals: number[]; pages: number }> {
  const bodies = new Map<string, string>();
  const totals: number[] = [];
  let pages = 0;
  for (let url: string | undefined = `/v2/fhir/${EOB}?_count=${count}`; url; pages++) {
    const answer = await get(url);
    assert.equal(answer.status, 200, answer.text);
    const bundle = JSON.parse(answer.text) as Bundle;
    totals.push(bundle.total);
    for (const entry of bundle.entry ?? []) bodies.set(entry.resource.id, JSON.stringify(entry.resource));
    url = bundle.link.find((l) => l.relation === 'next')?.url;
  }
  return { bodies, totals, pages };
}

/** Replaces a claim as another instance's `fhir import` would: a new body, stored whole. */
async function replaceOnOtherInstance(id: string, status: string): Promise<void> {
  await createFhirStore(other.db, rifClaimSources).importAll((writer) =>
    writer.upsert([minimalEob(id, PID, running.clock.now(), { status, versionId: '2' })]),
  );
}

test('FHIR_BODY_CACHE_MB is 64 unless set; 0 turns the cache off; other values are refused', () => {
  const base = { DATABASE_URL: 'sqlite::memory:' };
  assert.equal(loadConfig(base).fhirBodyCacheMb, 64);
  assert.equal(loadConfig({ ...base, FHIR_BODY_CACHE_MB: '0' }).fhirBodyCacheMb, 0);
  for (const bad of ['-1', 'lots', '1.5']) {
    assert.throws(() => loadConfig({ ...base, FHIR_BODY_CACHE_MB: bad }), ConfigError, bad);
  }
});

describe('the FHIR body cache', () => {
  test('SQLite has none; PostgreSQL has one by default, and none with FHIR_BODY_CACHE_MB=0', async () => {
    if (postgres()) assert.ok(stats());
    else assert.equal(stats(), undefined);
    const { storage, deps } = running.service;
    assert.equal(fhirDeps(storage, deps, 1).fhir.bodyCacheStats() !== undefined, postgres());
    const none = fhirDeps(storage, deps, 0).fhir;
    assert.equal(none.bodyCacheStats(), undefined);
    // Without a cache the reads and pages are as before.
    assert.equal((await none.findResource(EOB, ids[0]!))?.id, ids[0]);
    const page = await none.search({
      resourceType: EOB,
      patientId: PID,
      lastUpdated: [],
      serviceDate: [],
      offset: 0,
      limit: 3,
    });
    assert.deepEqual(
      page.bodies.map((b) => b.id),
      ids.slice(0, 3),
    );
  });

  test('a read of an unchanged resource is served from the cache, the same body', async () => {
    // The first read makes the RIF claim's body and stores it, which is a new version of its row; the
    // second reads that version's body and keeps it; the third finds it kept.
    const first = await get(`/v2/fhir/${EOB}/${ids[0]}`);
    const second = await get(`/v2/fhir/${EOB}/${ids[0]}`);
    const before = stats();
    const third = await get(`/v2/fhir/${EOB}/${ids[0]}`);
    assert.equal(first.status, 200);
    assert.equal(second.text, first.text);
    assert.equal(third.text, first.text);
    if (postgres()) assert.equal(stats()!.hits, before!.hits + 1);
  });

  test('a body made at its first read is kept under the version its store gave the row', async () => {
    const id = ids[5]!;
    const stored = async () =>
      (
        await running.service.storage.db
          .selectFrom('fhir_resources')
          .select('body')
          .where('resource_type', '=', EOB)
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).body;
    assert.equal(await stored(), '', 'the claim has no body made yet');
    const before = stats();
    const first = await get(`/v2/fhir/${EOB}/${id}`);
    const second = await get(`/v2/fhir/${EOB}/${id}`);
    assert.equal(first.status, 200, first.text);
    assert.equal(second.text, first.text);
    assert.notEqual(await stored(), '', 'the first read stored the body it made');
    // The first read finds no body (a miss) and makes one; the second finds it kept.
    if (postgres())
      assert.deepEqual(stats(), { ...stats(), hits: before!.hits + 1, misses: before!.misses + 1 });
  });

  test('/metrics shows the cache hits, misses and size on PostgreSQL, nothing of it on SQLite', async () => {
    const response = await fetch(`${running.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const text = await response.text();
    const value = (series: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
    const hit = value('openenroll_fhir_body_cache_reads_total{result="hit"}');
    const bodies = value('openenroll_fhir_body_cache_size{unit="bodies"}');
    if (!postgres()) return assert.equal(text.includes('openenroll_fhir_body_cache'), false);
    const { hits, bodies: kept } = stats()!;
    assert.ok(hit !== undefined && hit >= 1 && hit <= hits, String(hit));
    assert.ok(bodies !== undefined && bodies >= 1 && bodies <= kept, String(bodies));
    assert.ok(value('openenroll_fhir_body_cache_reads_total{result="miss"}')! >= 1);
  });

  test('a resource another instance replaced is read as it is now', async () => {
    await get(`/v2/fhir/${EOB}/${ids[1]}`);
    await get(`/v2/fhir/${EOB}/${ids[1]}`);
    await replaceOnOtherInstance(ids[1]!, 'cancelled');
    const now = await get(`/v2/fhir/${EOB}/${ids[1]}`);
    assert.equal(now.status, 200);
    assert.equal((JSON.parse(now.text) as { status: string }).status, 'cancelled');
    await other.db
      .deleteFrom('fhir_resources')
      .where('resource_type', '=', EOB)
      .where('id', '=', ids[1]!)
      .execute();
    assert.equal((await get(`/v2/fhir/${EOB}/${ids[1]}`)).status, 404);
    ids.splice(1, 1);
  });

  test('pages walked again serve the same bodies from the cache, one statement each', async () => {
    const walks = [await walk(5), await walk(5)];
    const before = stats();
    const { result: third, statements } = await running.statementsDuring(() => walk(5));
    for (const again of [walks[1]!, third]) assert.deepEqual([...again.bodies], [...walks[0]!.bodies]);
    assert.deepEqual([...third.bodies.keys()], ids);
    const reads = statements.filter((s) => /fhir_resources/.test(s));
    assert.equal(reads.length, third.pages, reads.join('\n'));
    if (postgres()) {
      // The first page reads its bodies (it finds them all kept); the pages after it read none.
      assert.ok(stats()!.hits - before!.hits >= ids.length - 5, JSON.stringify([before, stats()]));
    }
  });

  test('a page whose rows another instance changed or deleted shows them as they are now', async () => {
    await walk(5);
    await walk(5);
    const changed = ids[7]!;
    const deleted = ids[8]!;
    await replaceOnOtherInstance(changed, 'entered-in-error');
    for (const table of ['fhir_resources', 'fhir_search_tokens', 'fhir_search_dates'] as const) {
      await other.db.deleteFrom(table).where('resource_type', '=', EOB).where('id', '=', deleted).execute();
    }
    ids = ids.filter((id) => id !== deleted);
    const { bodies, totals } = await walk(5);
    assert.deepEqual([...bodies.keys()], ids);
    assert.equal((JSON.parse(bodies.get(changed)!) as { status: string }).status, 'entered-in-error');
    assert.ok(
      totals.every((t) => t === ids.length),
      String(totals),
    );
    // And the walk after it, warm again, agrees.
    assert.deepEqual([...(await walk(5)).bodies], [...bodies]);
  });

  test(
    'a row changed between a warm page and the read of its body is not served unless it still matches',
    { skip: !onPostgres && 'the body cache is PostgreSQL only' },
    async () => {
      // The store over a handle that runs `between` right after a page's facts statement has answered.
      let between: (() => Promise<void>) | undefined;
      const hook: KyselyPlugin = {
        transformQuery: ({ node }) => node,
        async transformResult({ result }) {
          const first = result.rows[0];
          if (between && first && 'version' in first && !('body' in first)) {
            const run = between;
            between = undefined;
            await run();
          }
          return result;
        },
      };
      const cache = new BodyCache(50_000_000);
      const store = createFhirStore(running.service.storage.db.withPlugin(hook), rifClaimSources, {
        bodyCache: cache,
      });
      const query = (extra: Partial<ResourceQuery> = {}): ResourceQuery => ({
        resourceType: EOB,
        patientId: PID,
        lastUpdated: [],
        serviceDate: [],
        offset: 0,
        limit: 5,
        ...extra,
      });
      const pageIds = async (extra?: Partial<ResourceQuery>) =>
        (await store.search(query(extra))).bodies.map((b) => b.id);
      const warmUp = async () => {
        for (let i = 0; i < 3; i++) await pageIds();
        const before = cache.stats().hits;
        assert.deepEqual(await pageIds(), ids.slice(0, 5));
        assert.equal(cache.stats().hits, before + 5, 'the patient is warm: every body of the page was kept');
      };
      const target = ids[2]!;
      const onOther = () =>
        other.db.updateTable('fhir_resources').where('resource_type', '=', EOB).where('id', '=', target);

      await warmUp();
      // Changed since it was kept, so the warm page must read its body; meanwhile it moves to another patient.
      await replaceOnOtherInstance(target, 'active');
      between = async () => {
        await onOther().set({ patient_id: 'someone-else' }).execute();
      };
      assert.deepEqual(await pageIds(), ids.filter((id) => id !== target).slice(0, 5));
      assert.equal(between, undefined, 'the change ran between the statements');

      // Back to the patient; warm again; then marked SAMHSA-sensitive in between, under excludeSAMHSA.
      await replaceOnOtherInstance(target, 'active');
      await warmUp();
      await replaceOnOtherInstance(target, 'active');
      between = async () => {
        await onOther().set({ samhsa: 1 }).execute();
      };
      assert.deepEqual(await pageIds({ excludeSamhsa: true }), ids.filter((id) => id !== target).slice(0, 5));
      assert.equal(between, undefined, 'the change ran between the statements');
      await onOther().set({ samhsa: 0 }).execute();
    },
  );
});
