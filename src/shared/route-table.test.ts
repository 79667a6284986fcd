import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pathOfRawPacket } from './client-error.js';
import { defaultErrors, type ErrorRenderer } from './error-renderer.js';
import { createRouteTable } from './route-table.js';

/** Two renderers the table must tell apart (what they render does not matter here). */
const oauth: ErrorRenderer = { ...defaultErrors };
const detail: ErrorRenderer = { ...defaultErrors };
const plans: ErrorRenderer = { ...defaultErrors };

function table() {
  const routes = createRouteTable({ ignoreTrailingSlash: true });
  routes.add({ method: 'POST', url: '/v2/o/token', config: { errors: oauth } });
  routes.add({ method: ['GET', 'DELETE'], url: '/v2/o/tokens/:id', config: { errors: detail } });
  routes.add({ method: 'GET', url: '/v2/o/tokens', config: {} });
  routes.add({ method: 'POST', url: '/api/v1/plans/search' });
  routes.add({ method: ['GET', 'POST'], url: '/api/v1/plans/:plan_id' });
  routes.add({ method: 'GET', url: '/docs/static/*' });
  routes.add({ method: 'GET', url: '/names/:name::verb' });
  routes.add({ method: 'GET', url: '/numbers/:n(^\\d+$)' });
  return routes;
}

test('a pattern matches its path with or without the trailing slash, not a longer or shorter one', () => {
  const routes = table();
  assert.deepEqual(routes.lookup('/v2/o/token')?.methods, ['POST']);
  assert.deepEqual(routes.lookup('/v2/o/token/?x=1')?.methods, ['POST']);
  assert.equal(routes.lookup('/v2/o/token/x'), undefined);
  assert.equal(routes.lookup('/v2/o'), undefined);
  assert.equal(routes.lookup('/V2/O/TOKEN'), undefined, 'case-sensitive, as the router');
  assert.equal(routes.lookup('//v2/o/token'), undefined, 'duplicate slashes are not ignored');
});

test('parameters match one non-empty segment; the methods of every matching route, HEAD with GET', () => {
  const routes = table();
  assert.deepEqual(routes.lookup('/v2/o/tokens/abc/')?.methods, ['GET', 'HEAD', 'DELETE']);
  assert.deepEqual(routes.lookup('/v2/o/tokens/')?.methods, ['GET', 'HEAD']);
  assert.equal(routes.lookup('/v2/o/tokens/a/b'), undefined);
  assert.deepEqual(routes.lookup('/api/v1/plans/search')?.methods, ['GET', 'HEAD', 'POST']);
  assert.deepEqual(routes.lookup('/names/x:verb')?.methods, ['GET', 'HEAD'], '`::` is a literal colon');
});

test('a trailing wildcard matches the rest; regular-expression parameters are left out', () => {
  const routes = table();
  assert.deepEqual(routes.lookup('/docs/static/a/b.js')?.methods, ['GET', 'HEAD']);
  assert.equal(routes.lookup('/docs/other'), undefined);
  assert.equal(routes.lookup('/numbers/12'), undefined);
});

test('the config is read when asked (a later hook may replace it), preferring one with an error shape', () => {
  const routes = createRouteTable({ ignoreTrailingSlash: true });
  const route: { method: string; url: string; config?: { errors?: ErrorRenderer } } = {
    method: 'GET',
    url: '/api/v1/states',
  };
  routes.add(route);
  route.config = { errors: plans };
  assert.equal(routes.lookup('/api/v1/states')?.config?.errors, plans);
  assert.equal(table().lookup('/v2/o/tokens')?.config?.errors, undefined);
  assert.equal(table().lookup('/v2/o/tokens/1')?.config?.errors, detail);
});

test('the path is percent-decoded as the router decodes it, and a malformed one is compared as sent', () => {
  const routes = table();
  assert.deepEqual(routes.lookup('/v2/o/%74oken')?.methods, ['POST']);
  assert.deepEqual(routes.lookup('/v2/o/tokens/%C0%80')?.methods, ['GET', 'HEAD', 'DELETE']);
  assert.equal(routes.lookup('/v2/o%2Ftoken'), undefined, 'an encoded slash is not a separator');
});

test('the path of a refused request is read from the bytes received, when they start with it', () => {
  const packet = (text: string) => Buffer.from(text, 'latin1');
  assert.equal(
    pathOfRawPacket(packet('GET /v2/fhir/Patient?x=1 HTTP/1.1\r\nX-Big: aaa')),
    '/v2/fhir/Patient',
  );
  assert.equal(
    pathOfRawPacket(packet(`\r\nPOST /api/v1/plans/search${'x'.repeat(20_000)}`))?.length,
    8192 - 7,
  );
  assert.equal(pathOfRawPacket(packet('aaaaaaa: bbbb\r\n')), undefined);
  assert.equal(pathOfRawPacket(packet('GET http://example.org/ HTTP/1.1')), undefined);
  assert.equal(pathOfRawPacket(undefined), undefined);
});
