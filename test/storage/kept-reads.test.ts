import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { keptReads } from '../../src/storage/kept-reads.js';

/** A read that counts its calls and answers the current value of `row`. */
function counted(row: { value: string | undefined }) {
  let reads = 0;
  return {
    read: async () => {
      reads += 1;
      return row.value;
    },
    reads: () => reads,
  };
}

describe('rows kept per process (storage/kept-reads.ts)', () => {
  test('with a change counter: kept until another connection commits or this process writes', async () => {
    let version = 1;
    const kept = keptReads<string | undefined>({}, 't', () => version);
    const row = { value: 'a' as string | undefined };
    const source = counted(row);
    assert.equal(await kept.get('k', source.read), 'a');
    row.value = 'b';
    assert.equal(await kept.get('k', source.read), 'a');
    assert.equal(source.reads(), 1);
    version = 2;
    assert.equal(await kept.get('k', source.read), 'b');
    row.value = 'c';
    kept.forget('other');
    assert.equal(await kept.get('k', source.read), 'b', 'forgetting another key keeps this one');
    kept.forget('k');
    assert.equal(await kept.get('k', source.read), 'c');
    assert.equal(source.reads(), 3);
  });

  test('with a lease: kept for its length from the read; missing rows are not kept', async () => {
    const kept = keptReads<string | undefined>({}, 't', undefined, { leaseMs: 40 });
    const row = { value: undefined as string | undefined };
    const source = counted(row);
    assert.equal(await kept.get('k', source.read), undefined);
    row.value = 'a';
    assert.equal(await kept.get('k', source.read), 'a', 'a row that appears is found at once');
    row.value = 'b';
    assert.equal(await kept.get('k', source.read), 'a');
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal(await kept.get('k', source.read), 'b');
    assert.equal(source.reads(), 3);
  });

  test('reread reads now and keeps what it read', async () => {
    const kept = keptReads<string | undefined>({}, 't', undefined, { leaseMs: 10_000 });
    const row = { value: 'a' as string | undefined };
    const source = counted(row);
    await kept.get('k', source.read);
    row.value = 'b';
    assert.equal(await kept.reread('k', source.read), 'b');
    assert.equal(await kept.get('k', source.read), 'b');
    assert.equal(source.reads(), 2);
  });

  test('written waits the lease out; a read in flight during a write is not kept', async () => {
    const kept = keptReads<string | undefined>({}, 't', undefined, { leaseMs: 50 });
    const started = performance.now();
    await kept.written();
    assert.ok(performance.now() - started >= 50);

    const row = { value: 'old' as string | undefined };
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = kept.get('k', async () => {
      const value = row.value;
      await gate;
      return value;
    });
    row.value = 'new';
    kept.forget('k');
    release();
    assert.equal(await slow, 'old');
    const source = counted(row);
    assert.equal(await kept.get('k', source.read), 'new', 'the read begun before the write was not kept');
  });

  test('one handle per database and table: another store over the same database forgets for all', async () => {
    const db = {};
    const a = keptReads<string | undefined>(db, 't', undefined, { leaseMs: 10_000 });
    const b = keptReads<string | undefined>(db, 't', undefined, { leaseMs: 10_000 });
    const row = { value: 'a' as string | undefined };
    const source = counted(row);
    await a.get('k', source.read);
    row.value = 'b';
    b.forget();
    assert.equal(await a.get('k', source.read), 'b');
  });
});
