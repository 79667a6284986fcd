import assert from 'node:assert/strict';
import { test } from 'node:test';
import { batchedReads, batchedCalls } from './batched-statements.js';

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

test('writes: a second write to one key waits for a later statement, in the order they were made', async () => {
  const batches: { items: string[]; answer(found: Record<string, string>): void }[] = [];
  const write = batchedCalls<string, string>(
    (items) =>
      new Promise((resolve) => {
        batches.push({ items, answer: (found) => resolve(new Map(Object.entries(found))) });
      }),
  );
  const first = write('f1', 'f1:a');
  const rest = [write('f2', 'f2:a'), write('f1', 'f1:b'), write('f3', 'f3:a'), write('f1', 'f1:c')];
  batches[0]!.answer({ f1: 'rotated a' });
  assert.equal(await first, 'rotated a');
  await tick();
  assert.deepEqual(batches[1]!.items, ['f2:a', 'f1:b', 'f3:a']);
  // f1:b's condition did not hold (say, the token was already spent): it gets undefined.
  batches[1]!.answer({ f2: 'rotated f2', f3: 'rotated f3' });
  await tick();
  assert.deepEqual(batches[2]!.items, ['f1:c']);
  batches[2]!.answer({ f1: 'rotated c' });
  assert.deepEqual(await Promise.all(rest), ['rotated f2', undefined, 'rotated f3', 'rotated c']);
});

test('a batch whose statement throws at once fails its calls, and later calls still go out', async () => {
  let batches = 0;
  const read = batchedReads<string>((keys) => {
    batches += 1;
    if (batches === 1) throw new Error('cannot build the statement');
    return Promise.resolve(new Map(keys.map((k) => [k, k.toUpperCase()])));
  });
  await assert.rejects(read('a'), /cannot build the statement/);
  assert.equal(await read('b'), 'B');
});

test('writes: with two lanes, a write to a row in flight still waits for it', async () => {
  const batches: { items: string[]; answer(): void }[] = [];
  const write = batchedCalls<string, string>(
    (items) =>
      new Promise((resolve) => {
        batches.push({ items, answer: () => resolve(new Map(items.map((i) => [i.split(':')[0]!, i]))) });
      }),
    { lanes: 2 },
  );
  const first = write('f1', 'f1:a');
  const second = write('f1', 'f1:b');
  const other = write('f2', 'f2:a');
  assert.deepEqual(
    batches.map((b) => b.items),
    [['f1:a'], ['f2:a']],
    'the free lane takes f2, not the second write to f1',
  );
  batches[1]!.answer();
  assert.equal(await other, 'f2:a');
  await tick();
  assert.equal(batches.length, 2, 'f1:b waits while f1:a is in flight');
  batches[0]!.answer();
  assert.equal(await first, 'f1:a');
  await tick();
  assert.deepEqual(batches[2]!.items, ['f1:b']);
  batches[2]!.answer();
  assert.equal(await second, 'f1:b');
});
