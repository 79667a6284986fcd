import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';

let running: RunningService;
let basic: string;
before(async () => {
  running = await startService();
  const app = await createTestApp(running);
  basic = `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`;
});
after(() => running.close());

const POST_PATHS = [
  '/v2/o/authorize/',
  '/v2/o/authorize/00000000-0000-4000-8000-000000000000/',
  '/v2/accounts/login',
  '/v2/o/token/',
  '/v2/o/revoke/',
  '/v2/o/revoke_token/',
  '/v2/o/expire_authenticated_user/-19990000000001/',
  '/v2/connect/userinfo',
];

const BODIES: { label: string; type: string; body: string | Buffer }[] = [
  { label: 'broken JSON', type: 'application/json', body: '{"grant_type":' },
  { label: 'JSON with wrong types', type: 'application/json', body: '{"grant_type":7,"code":{"a":[1]}}' },
  {
    label: 'bad percent-encoding',
    type: 'application/x-www-form-urlencoded',
    body: 'grant_type=%zz&code=%E0%A4',
  },
  {
    label: 'repeated parameters',
    type: 'application/x-www-form-urlencoded',
    body: 'token=a&token=b&code=1&code=2',
  },
  {
    label: 'bracket names',
    type: 'application/x-www-form-urlencoded',
    body: 'a[b]=c&__proto__[x]=1&constructor=1',
  },
  { label: 'empty names', type: 'application/x-www-form-urlencoded', body: '=&&==&=x' },
  { label: 'binary', type: 'application/octet-stream', body: Buffer.from([0, 255, 1, 254, 10, 13]) },
  { label: 'multipart without boundary', type: 'multipart/form-data', body: 'garbage' },
  {
    label: 'multipart with a file',
    type: 'multipart/form-data; boundary=x',
    body: '--x\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nhello\r\n--x--\r\n',
  },
  {
    label: '100 KiB form',
    type: 'application/x-www-form-urlencoded',
    body: `code=${'a'.repeat(100 * 1024)}`,
  },
  { label: 'unknown content type', type: 'text/x-nonsense', body: 'hello' },
];

test('a NUL in Basic credentials is refused as bad client authentication', async () => {
  const response = await fetch(`${running.url}/v2/o/token/`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from('abc\u0000:secret').toString('base64')}`,
    },
    body: 'grant_type=refresh_token&refresh_token=x',
  });
  assert.equal(response.status, 401);
  assert.equal(((await response.json()) as { error: string }).error, 'invalid_client');
});

test('malformed bodies get a 4xx in the endpoint’s shape, never a 5xx', async () => {
  for (const path of POST_PATHS) {
    for (const { label, type, body } of BODIES) {
      const response = await fetch(`${running.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': type, authorization: basic },
        body,
      });
      const text = await response.text();
      assert.ok(
        response.status >= 400 && response.status < 500,
        `${path} ${label}: ${response.status} ${text}`,
      );
      const contentType = response.headers.get('content-type') ?? '';
      if (contentType.startsWith('application/json'))
        assert.doesNotThrow(() => JSON.parse(text), `${path} ${label}`);
      assert.ok(!/stack|at \w+ \(/.test(text), `${path} ${label}: no stack trace in ${text}`);
    }
  }
});

test('malformed query strings and paths get a 4xx', async () => {
  const urls = [
    '/v2/o/authorize/?client_id=%',
    '/v2/o/authorize/?state=%E0%A4%A',
    '/v2/o/authorize/?client_id[]=1&client_id[]=2',
    '/v2/accounts/login?next=%ff',
    '/v2/o/authorize/?client_id=abc%00def',
    '/v2/connect/userinfo?access_token=%zz',
    '/v2/o/authorize/%E0%A4%A/',
    `/v2/o/authorize/?scope=${'x'.repeat(20_000)}`,
  ];
  for (const url of urls) {
    const response = await fetch(`${running.url}${url}`, { redirect: 'manual' });
    assert.ok(response.status >= 400 && response.status < 500, `${url}: ${response.status}`);
  }
});

test('a seeded random sweep of parameter values never gets a 5xx', async () => {
  // A small deterministic generator (mulberry32) so a failure can be replayed.
  let seed = 20261122;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pieces = [
    '',
    'a',
    '%',
    '%00',
    '%C3%A9',
    '+',
    '=',
    '&',
    '\u0000',
    '😀',
    '-1',
    '9'.repeat(40),
    'S256',
    'code',
  ];
  const names = [
    'grant_type',
    'code',
    'refresh_token',
    'token',
    'client_id',
    'client_secret',
    'redirect_uri',
    'state',
  ];
  for (let i = 0; i < 400; i += 1) {
    const params = names
      .filter(() => random() < 0.5)
      .map((name) => {
        const value = Array.from(
          { length: 1 + Math.floor(random() * 4) },
          () => pieces[Math.floor(random() * pieces.length)],
        ).join('');
        return `${name}=${encodeURIComponent(value)}`;
      })
      .join('&');
    const path = POST_PATHS[Math.floor(random() * POST_PATHS.length)]!;
    const response = await fetch(`${running.url}${path}?${params}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(random() < 0.5 ? { authorization: basic } : {}),
      },
      body: params,
      redirect: 'manual',
    });
    await response.arrayBuffer();
    assert.ok(response.status < 500, `#${i} ${path}?${params}: ${response.status}`);
  }
});
