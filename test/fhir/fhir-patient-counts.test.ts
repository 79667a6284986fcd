import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { rifClaimSources } from '../../src/fhir/bfd/claim-source.js';
import { createFhirStore } from '../../src/fhir/store/resources.js';
import { migrate, type Storage } from '../../src/storage/connect.js';
import { migrateBefore } from '../helpers/migrations.js';
import { minimalEob } from '../helpers/minimal-eob.js';
import { startCountingService, type CountingService } from '../helpers/round-trips.js';
import { createTestApp, createTestDatabase, onPostgres } from '../helpers/service.js';
import { enrollee, issueTokens, type TokenBody } from '../helpers/token-calls.js';

/**
 * The resource counts PostgreSQL keeps per patient by trigger (docs/decisions.md#fhir-patient-counts): the
 * total of a search with no filter is read there, in the page's own statement. Every way rows come and go —
 * an import, a replacement, a delete, a move to another patient, a body stored at its first read, writers
 * at once, an import that fails — leaves the counts equal to a count of the rows, and the pages' totals with
 * them. SQLite counts in process: there the same totals are checked against the rows.
 */

const PID = enrollee(0).patientId;
const OTHER_PID = enrollee(1).patientId;
const EOB = 'ExplanationOfBenefit';

let running: CountingService;
let tokens: TokenBody;
/** A second instance's storage: another pool on the same database. */
let other: Storage;

before(async () => {
  running = await startCountingService({ SANDBOX_ENROLLEES: '2' });
  tokens = await issueTokens(running, await createTestApp(running), { enrollee: 0 });
  other = await running.database.open();
});
after(async () => {
  await other.close();
  await running.close();
});

type Counts = Record<string, number>;

/** Every (type, patient) with resources, and how many, counted from the rows. */
async function countedRows(storage: Storage = running.service.storage): Promise<Counts> {
  const rows = await storage.db
    .selectFrom('fhir_resources')
    .select(['resource_type', 'patient_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy(['resource_type', 'patient_id'])
    .execute();
  return Object.fromEntries(rows.map((r) => [`${r.resource_type}/${r.patient_id}`, Number(r.n)]));
}

/** What `fhir_patient_counts` sums to per pair, leaving out the pairs whose resources all went. */
async function keptCounts(storage: Storage = running.service.storage): Promise<Counts> {
  const rows = await storage.db
    .selectFrom('fhir_patient_counts')
    .select(['resource_type', 'patient_id', (eb) => eb.fn.sum<number | string>('n').as('n')])
    .groupBy(['resource_type', 'patient_id'])
    .execute();
  return Object.fromEntries(
    rows.filter((r) => Number(r.n) !== 0).map((r) => [`${r.resource_type}/${r.patient_id}`, Number(r.n)]),
  );
}

/** Rows of `fhir_patient_counts`: one per write that changed a count, until a load compacts them. */
async function countRows(): Promise<number> {
  const row = await running.service.storage.db
    .selectFrom('fhir_patient_counts')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The kept counts equal the rows' (PostgreSQL), and the enrollee's EOB pages say the same total. */
async function assertCountsHold(): Promise<number> {
  const counted = await countedRows();
  if (onPostgres) assert.deepEqual(await keptCounts(), counted);
  const expected = counted[`${EOB}/${PID}`] ?? 0;
  for (const query of ['_count=5', '_count=5&startIndex=3']) {
    const response = await fetch(`${running.url}/v2/fhir/${EOB}?${query}`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    const bundle = (await response.json()) as { total: number };
    assert.equal(response.status, 200);
    assert.equal(bundle.total, expected, query);
  }
  return expected;
}

const importOn = (storage: Storage, resources: ReturnType<typeof minimalEob>[]) =>
  createFhirStore(storage.db, rifClaimSources).importAll((writer) => writer.upsert(resources));

const eobOf = (id: string, patient = PID, status = 'active') =>
  minimalEob(id, patient, running.clock.now(), { status });

describe('the patients’ resource counts', () => {
  test('match the sandbox’s rows, and a first page reads its total from them on PostgreSQL', async () => {
    const total = await assertCountsHold();
    assert.ok(total > 0);
    const { statements } = await running.statementsDuring(() =>
      fetch(`${running.url}/v2/fhir/${EOB}?_count=5&startIndex=2`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      }).then((r) => r.text()),
    );
    const page = statements.filter((s) => /from "fhir_resources"/.test(s));
    assert.equal(page.length, 1, statements.join('\n'));
    assert.equal(/fhir_patient_counts/.test(page[0]!), onPostgres, page[0]);
    assert.equal(/count\(\*\)/.test(page[0]!), !onPostgres, page[0]);
  });

  test('follow imports, replacements, deletes, moves to another patient and stored bodies', async () => {
    const before = await assertCountsHold();
    await importOn(other, [eobOf('count-1'), eobOf('count-2'), eobOf('count-3')]);
    assert.equal(await assertCountsHold(), before + 3);
    // A replacement is an update of the row: no count changes.
    await importOn(other, [eobOf('count-1', PID, 'cancelled')]);
    assert.equal(await assertCountsHold(), before + 3);
    await other.db
      .deleteFrom('fhir_resources')
      .where('resource_type', '=', EOB)
      .where('id', '=', 'count-2')
      .execute();
    assert.equal(await assertCountsHold(), before + 2);
    const otherBefore = (await countedRows())[`${EOB}/${OTHER_PID}`] ?? 0;
    await other.db
      .updateTable('fhir_resources')
      .set({ patient_id: OTHER_PID })
      .where('resource_type', '=', EOB)
      .where('id', '=', 'count-3')
      .execute();
    assert.equal(await assertCountsHold(), before + 1);
    assert.equal((await countedRows())[`${EOB}/${OTHER_PID}`], otherBefore + 1);
    // Re-importing a resource under another patient moves it too.
    await importOn(other, [eobOf('count-3', PID)]);
    assert.equal(await assertCountsHold(), before + 2);
    // Bodies stored at a first read (every page walked) change no count.
    for (let start = 0; start < before + 2; start += 10) {
      const response = await fetch(`${running.url}/v2/fhir/${EOB}?_count=10&startIndex=${start}`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      assert.equal(response.status, 200);
    }
    assert.equal(await assertCountsHold(), before + 2);
  });

  test('an import that fails changes no count', async () => {
    const before = await assertCountsHold();
    await assert.rejects(
      createFhirStore(other.db, rifClaimSources).importAll(async (writer) => {
        await writer.upsert([eobOf('count-failed-1'), eobOf('count-failed-2')]);
        throw new Error('the import fails after its rows');
      }),
      /the import fails/,
    );
    assert.equal(await assertCountsHold(), before);
  });

  // Two handles on one SQLite file in one process would wait for each other's write lock in one thread.
  const concurrent = { skip: !onPostgres && 'PostgreSQL: SQLite writers take turns' };
  test('imports of one patient by two instances at once both count', concurrent, async () => {
    const before = await assertCountsHold();
    const batch = (prefix: string) => Array.from({ length: 5 }, (_, i) => eobOf(`${prefix}-${i}`));
    await Promise.all([
      importOn(running.service.storage, batch('count-a')),
      importOn(other, batch('count-b')),
      importOn(other, [eobOf('count-c-0', OTHER_PID)]),
    ]);
    assert.equal(await assertCountsHold(), before + 10);
  });

  test(
    'loads that each hold two patients’ counts, taken in opposite orders, both land',
    concurrent,
    async () => {
      const before = await assertCountsHold();
      // Each load writes one patient, waits until the other has written the other patient, then writes the
      // patient the other one wrote: rows kept per patient and updated in place would deadlock here.
      let arrived = 0;
      let release!: () => void;
      const bothWrote = new Promise<void>((resolve) => (release = resolve));
      const load = (storage: Storage, first: string, second: string, prefix: string) =>
        createFhirStore(storage.db, rifClaimSources).importAll(async (writer) => {
          await writer.upsert([eobOf(`${prefix}-1`, first)]);
          if (++arrived === 2) release();
          await bothWrote;
          await writer.upsert([eobOf(`${prefix}-2`, second)]);
        });
      await Promise.all([
        load(running.service.storage, PID, OTHER_PID, 'cross-a'),
        load(other, OTHER_PID, PID, 'cross-b'),
      ]);
      assert.equal(await assertCountsHold(), before + 2);
    },
  );

  test('a load’s compaction leaves one row per patient and type, the same counts', concurrent, async () => {
    const counted = await countedRows();
    assert.ok((await countRows()) > Object.keys(counted).length, 'the writes above left several rows');
    await createFhirStore(other.db, rifClaimSources).analyze();
    assert.equal(await countRows(), Object.keys(counted).length);
    assert.equal(await assertCountsHold(), counted[`${EOB}/${PID}`]);
  });

  test('TRUNCATE empties the counts with the resources', concurrent, async () => {
    const database = createTestDatabase();
    const storage = await database.open();
    try {
      await migrate(storage);
      await importOn(storage, [minimalEob('t-1', 'p1', 1)]);
      assert.deepEqual(await keptCounts(storage), { [`${EOB}/p1`]: 1 });
      await sql`truncate fhir_resources`.execute(storage.db);
      assert.deepEqual(await keptCounts(storage), {});
    } finally {
      await storage.close();
      await database.drop();
    }
  });
});

test(
  'the migration counts the resources stored before it',
  { skip: !onPostgres && 'PostgreSQL only' },
  async () => {
    const database = createTestDatabase();
    const storage = await database.open();
    try {
      await migrateBefore(storage, '0018');
      await createFhirStore(storage.db, rifClaimSources).importAll((writer) =>
        writer.upsert([minimalEob('m-1', 'p1', 1), minimalEob('m-2', 'p1', 1), minimalEob('m-3', 'p2', 1)]),
      );
      await migrate(storage);
      assert.deepEqual(await keptCounts(storage), {
        [`${EOB}/p1`]: 2,
        [`${EOB}/p2`]: 1,
      });
      // And from then on the triggers keep them.
      await sql`delete from fhir_resources where id = 'm-1'`.execute(storage.db);
      assert.deepEqual(await keptCounts(storage), await countedRows(storage));
    } finally {
      await storage.close();
      await database.drop();
    }
  },
);
