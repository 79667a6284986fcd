import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BodyCache } from './body-cache.js';

test('a body is kept under its version and replaced by a newer one', () => {
  const cache = new BodyCache(100);
  cache.set('EOB', 'a', '7', '{"v":1}');
  assert.deepEqual(cache.get('EOB', 'a'), { version: '7', body: '{"v":1}' });
  cache.set('EOB', 'a', '9', '{"v":22}');
  assert.deepEqual(cache.get('EOB', 'a'), { version: '9', body: '{"v":22}' });
  assert.equal(cache.get('Patient', 'a'), undefined);
  assert.deepEqual(cache.stats(), { hits: 0, misses: 0, bodies: 1, chars: 8 });
});

test('past its size the least recently used bodies go first', () => {
  const cache = new BodyCache(30);
  cache.set('EOB', 'a', '1', 'x'.repeat(10));
  cache.set('EOB', 'b', '1', 'x'.repeat(10));
  cache.set('EOB', 'c', '1', 'x'.repeat(10));
  cache.get('EOB', 'a'); // now b is the least recently used
  cache.set('EOB', 'd', '1', 'x'.repeat(10));
  assert.equal(cache.get('EOB', 'b'), undefined);
  assert.ok(cache.get('EOB', 'a') && cache.get('EOB', 'c') && cache.get('EOB', 'd'));
  assert.equal(cache.stats().chars, 30);
  // A body larger than the whole cache is not kept, and evicts nothing.
  cache.set('EOB', 'e', '1', 'x'.repeat(31));
  assert.equal(cache.get('EOB', 'e'), undefined);
  assert.equal(cache.stats().bodies, 3);
});

test('hits and misses are counted as the store reports them', () => {
  const cache = new BodyCache(10);
  cache.count(true);
  cache.count(false);
  cache.count(false);
  assert.deepEqual(cache.stats(), { hits: 1, misses: 2, bodies: 0, chars: 0 });
});

test('a kept body is encoded once, only for the text kept, and its bytes count in the size', () => {
  const cache = new BodyCache(100);
  const body = '{"name":"Zoë"}';
  cache.set('EOB', 'a', '1', body);
  const bytes = cache.bytesOf('EOB', 'a', body);
  assert.deepEqual(bytes, Buffer.from(body, 'utf8'));
  assert.equal(cache.bytesOf('EOB', 'a', body), bytes, 'the same bytes again, not encoded anew');
  assert.equal(cache.stats().chars, body.length + Buffer.byteLength(body));
  // Other text (a body another read made) or a resource not kept has none.
  assert.equal(cache.bytesOf('EOB', 'a', '{"name":"Zoe"}'), undefined);
  assert.equal(cache.bytesOf('EOB', 'b', body), undefined);
  // A newer version replaces the body and its bytes.
  cache.set('EOB', 'a', '2', '{"v":2}');
  assert.equal(cache.stats().chars, 7);
});

test('encoding a body can push the least recently used out', () => {
  const cache = new BodyCache(35);
  cache.set('EOB', 'a', '1', 'x'.repeat(10));
  cache.set('EOB', 'b', '1', 'y'.repeat(10));
  cache.set('EOB', 'c', '1', 'z'.repeat(10));
  cache.bytesOf('EOB', 'c', 'z'.repeat(10));
  assert.equal(cache.get('EOB', 'a'), undefined);
  assert.deepEqual(cache.stats(), { hits: 0, misses: 0, bodies: 2, chars: 30 });
});

test('a body whose text and bytes would not fit together is served as text, and evicts nothing', () => {
  const cache = new BodyCache(30);
  cache.set('EOB', 'a', '1', 'x'.repeat(10));
  cache.set('EOB', 'b', '1', 'y'.repeat(16));
  assert.equal(cache.bytesOf('EOB', 'b', 'y'.repeat(16)), undefined);
  assert.deepEqual(cache.stats(), { hits: 0, misses: 0, bodies: 2, chars: 26 });
});
