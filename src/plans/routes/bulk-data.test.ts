import assert from 'node:assert/strict';
import { test } from 'node:test';
import { acceptsGzip, noneMatch } from './bulk-data.js';

test('If-None-Match: any listed tag by the weak comparison, or * (RFC 9110 §13.1.2)', () => {
  const etag = '"abc"';
  assert.equal(noneMatch(undefined, etag), false);
  assert.equal(noneMatch('"abc"', etag), true);
  assert.equal(noneMatch('W/"abc"', etag), true);
  assert.equal(noneMatch('"x", "abc"', etag), true);
  assert.equal(noneMatch('*', etag), true);
  assert.equal(noneMatch('"abcd"', etag), false);
  assert.equal(noneMatch('abc', etag), false);
});

test('Accept-Encoding: gzip unless refused with q=0 (RFC 9110 §12.5.3)', () => {
  assert.equal(acceptsGzip(undefined), false);
  assert.equal(acceptsGzip(''), false);
  assert.equal(acceptsGzip('gzip, deflate, br'), true);
  assert.equal(acceptsGzip('br;q=1.0, GZIP;q=0.5'), true);
  assert.equal(acceptsGzip('x-gzip'), true);
  assert.equal(acceptsGzip('gzip;q=0'), false);
  assert.equal(acceptsGzip('identity'), false);
  assert.equal(acceptsGzip('*'), true);
  assert.equal(acceptsGzip('*;q=0'), false);
  assert.equal(acceptsGzip('gzip;q=0, *'), false);
});
