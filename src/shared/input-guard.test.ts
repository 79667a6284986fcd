import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findInvalidValue, MAX_INPUT_DEPTH } from './input-guard.js';

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

test('values may nest up to the limit, not one level more', () => {
  assert.equal(findInvalidValue(nested(MAX_INPUT_DEPTH), 'body'), undefined);
  assert.equal(
    findInvalidValue(nested(MAX_INPUT_DEPTH + 1), 'body'),
    `body: must not nest deeper than ${MAX_INPUT_DEPTH} levels`,
  );
});

test('a million levels are refused without exhausting the stack', () => {
  assert.match(findInvalidValue(nested(1_000_000), 'body')!, /nest deeper/);
  const arrays = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)) as unknown;
  assert.match(findInvalidValue(arrays, 'body')!, /nest deeper/);
});

test('the first bad value in document order is named by its path', () => {
  const body = { a: [1, 'x\0y'], b: { c: Infinity } };
  assert.equal(findInvalidValue(body, 'body'), 'body.a[1]: must not contain a NUL character');
  assert.equal(findInvalidValue({ b: { c: -Infinity } }, ''), 'b.c: must be a finite number');
  assert.equal(findInvalidValue({ ['k\0']: 1 }, 'query'), 'query: a name must not contain a NUL character');
  assert.equal(findInvalidValue({ a: [1, 2, { b: 'ok' }] }, 'body'), undefined);
});
