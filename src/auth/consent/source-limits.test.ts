import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMemoryCounters } from '../../storage/counters.js';
import { countSource, sourceOf } from './source-limits.js';

test('a source is an IPv4 address, or the /64 of an IPv6 one', () => {
  assert.equal(sourceOf('203.0.113.7'), '203.0.113.7');
  assert.equal(sourceOf('::ffff:203.0.113.7'), '203.0.113.7');
  assert.equal(sourceOf('2001:db8:0:1:aaaa:bbbb:cccc:dddd'), '2001:db8:0:1::/64');
  assert.equal(sourceOf('2001:db8:0:1::9'), '2001:db8:0:1::/64');
  assert.equal(sourceOf('2001:0db8::1'), '2001:db8:0:0::/64');
  assert.equal(sourceOf('::1'), '0:0:0:0::/64');
});

test('each window admits its limit, then refuses until it starts over', async () => {
  const counters = createMemoryCounters();
  const windows = [
    { seconds: 60, limit: 3 },
    { seconds: 3600, limit: 5 },
  ];
  const start = Date.UTC(2026, 0, 1, 10, 0, 15); // 15 s into a minute
  for (let i = 0; i < 3; i++)
    assert.equal(await countSource(counters, 'login', 'a', windows, start), undefined);
  // The fourth in the minute: refused until the minute ends, 45 s later.
  assert.equal(await countSource(counters, 'login', 'a', windows, start), 45);
  // Another source and another action count apart.
  assert.equal(await countSource(counters, 'login', 'b', windows, start), undefined);
  assert.equal(await countSource(counters, 'idp-start', 'a', windows, start), undefined);
  // Next minute: the hour has one left (four counted, the refused one too), then it is spent.
  const next = start + 60_000;
  assert.equal(await countSource(counters, 'login', 'a', windows, next), undefined);
  assert.equal(await countSource(counters, 'login', 'a', windows, next), 3600 - 75);
});
