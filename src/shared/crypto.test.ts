import assert from 'node:assert/strict';
import { test } from 'node:test';
import { randomToken } from './crypto.js';

test('randomToken: 43 base64url characters, never repeated across many refills of the pool', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 2000; i += 1) {
    const token = randomToken();
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.ok(!seen.has(token), `repeated after ${i} tokens`);
    seen.add(token);
  }
});

test('randomToken: other sizes, including more than the pool holds', () => {
  assert.match(randomToken(16), /^[A-Za-z0-9_-]{22}$/);
  assert.equal(Buffer.from(randomToken(5000), 'base64url').length, 5000);
});
