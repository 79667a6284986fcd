import assert from 'node:assert/strict';
import { test } from 'node:test';
import { batchedReads } from './batched-reads.js';

/** A reader whose batches the test answers by hand, noting the keys of each. */
function handReader() {
  const batches: { keys: string[]; answer(found: Record<string, string>): void; fail(e: Error): void }[] = [];
  const read = batchedReads<string>(
    (keys) =>
      new Promise((resolve, reject) => {
        batches.push({
          keys,
          answer: (found) => resolve(new Map(Object.entries(found))),
          fail: reject,
        });
      }),
    { maxBatch: 3 },
  );
  return { read, batches };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('a lone read is sent at once, alone', async () => {
  const { read, batches } = handReader();
  const one = read('a');
  assert.deepEqual(
    batches.map((b) => b.keys),
    [['a']],
  );
  batches[0]!.answer({ a: 'A' });
  assert.equal(await one, 'A');
});

test('reads that arrive while a batch is in flight go out together, each key once, at most maxBatch', async () => {
  const { read, batches } = handReader();
  const first = read('a');
  const waiting = ['b', 'c', 'b', 'd', 'e'].map((key) => read(key));
  assert.equal(batches.length, 1, 'nothing more is sent while the lane is busy');
  batches[0]!.answer({ a: 'A' });
  assert.equal(await first, 'A');
  await tick();
  assert.deepEqual(batches[1]!.keys, ['b', 'c', 'd']);
  batches[1]!.answer({ b: 'B', d: 'D' });
  await tick();
  assert.deepEqual(batches[2]!.keys, ['e']);
  batches[2]!.answer({ e: 'E' });
  assert.deepEqual(await Promise.all(waiting), ['B', undefined, 'B', 'D', 'E']);
});

test('a failed batch fails each of its reads, and the next batch goes out', async () => {
  const { read, batches } = handReader();
  const first = read('a');
  const second = [read('b'), read('c')];
  const failure = new Error('statement timeout');
  batches[0]!.fail(failure);
  await assert.rejects(first, failure);
  await tick();
  assert.deepEqual(batches[1]!.keys, ['b', 'c']);
  batches[1]!.fail(failure);
  for (const read of second) await assert.rejects(read, failure);
  const later = read('a');
  await tick();
  batches[2]!.answer({ a: 'A' });
  assert.equal(await later, 'A');
});
