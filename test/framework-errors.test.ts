import assert from 'node:assert/strict';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createTestApp, startService, type RunningService } from './helpers/service.js';
import { issueTokens, type TestApp, type TokenBody } from './helpers/token-calls.js';
import { SANDBOX_KEY } from './plans/plan-api.js';

// Answers the framework would otherwise give in its own words: requests Node's HTTP parser refuses,
// known paths asked with a method no route takes, paths the router refuses before a route is known.
// Each surface answers them in its own error shape.

let running: RunningService;
let port: number;
let app: TestApp;
let tokens: TokenBody;
let portal: TestApp;
before(async () => {
  running = await startService({ SAMPLE_MARKET: 'false' });
  port = Number(new URL(running.url).port);
  app = await createTestApp(running);
  tokens = await issueTokens(running, app, { enrollee: 0 });
  portal = await createTestApp(running, { name: 'Member Portal', tokenManagement: true });
});
after(() => running.close());

const KEY = `apikey=${SANDBOX_KEY}`;
const BIG = 'a'.repeat(20_000);

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

async function send(path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(`${running.url}${path}`, { redirect: 'manual', ...init });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

function json(answer: Answer): unknown {
  assert.match(answer.headers.get('content-type') ?? '', /^application\/json; charset=utf-8$/);
  return JSON.parse(answer.text) as unknown;
}

/** The plan API's body for a client error: `{code,status,message,error}`, all strings, code 1003. */
function planError(status: number, error: string) {
  return { code: '1003', status: String(status), message: 'invalid input', error };
}

interface RawAnswer {
  statusLine: string;
  headers: Record<string, string>;
  body: string;
  /** The server ended the connection in order (FIN), not with a reset. */
  closedInOrder: boolean;
}

/** Writes `bytes` on a fresh connection and reads the answer until the server closes it. */
function exchange(bytes: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let reset = false;
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') reset = true;
      else reject(error);
    });
    socket.on('close', () => {
      const all = Buffer.concat(chunks).toString('utf8');
      const split = all.indexOf('\r\n\r\n');
      if (split < 0) {
        reject(new Error(`no answer (reset: ${reset}): ${JSON.stringify(all)}`));
        return;
      }
      const [statusLine, ...lines] = all.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ statusLine: statusLine!, headers, body: all.slice(split + 4), closedInOrder: !reset });
    });
    socket.write(bytes);
  });
}

function get(path: string, headers: string[] = []): string {
  return [`GET ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, ...headers, '', ''].join('\r\n');
}

/** A complete answer that says it closes the connection, with the headers every answer carries. */
function assertClosingAnswer(answer: RawAnswer, status: string, label: string): void {
  assert.equal(answer.statusLine, `HTTP/1.1 ${status}`, label);
  assert.equal(answer.headers.connection, 'close', label);
  assert.equal(Number(answer.headers['content-length']), Buffer.byteLength(answer.body), label);
  assert.equal(answer.headers['x-content-type-options'], 'nosniff', label);
  assert.equal(answer.headers['x-frame-options'], 'DENY', label);
  assert.match(answer.headers['content-security-policy'] ?? '', /default-src 'none'/, label);
  assert.equal(answer.headers['cache-control'], 'no-store', label);
  assert.ok(answer.closedInOrder, `${label}: the server closes the connection in order, without a reset`);
}

describe('requests Node refuses before fastify sees them', () => {
  test('over 16 KB of headers: 431 in the shape of the path’s surface, with Connection: close', async () => {
    const bigHeader = [`X-Big: ${BIG}`];
    const cases: [string, RegExp, (body: string) => void][] = [
      [
        '/v2/fhir/Patient/',
        /^application\/json/,
        (body) => assert.match(String((JSON.parse(body) as { detail: string }).detail), /larger than 16 KB/),
      ],
      [
        '/v2/o/tokens/',
        /^application\/json/,
        (body) => assert.deepEqual(Object.keys(JSON.parse(body) as object), ['detail']),
      ],
      [
        '/v2/o/token/',
        /^application\/json/,
        (body) => assert.deepEqual(Object.keys(JSON.parse(body) as object), ['error', 'error_description']),
      ],
      [
        `/api/v1/states?${KEY}`,
        /^application\/json/,
        (body) =>
          assert.deepEqual(
            JSON.parse(body),
            planError(431, 'The request line and headers are larger than 16 KB.'),
          ),
      ],
      ['/v2/accounts/login', /^text\/html/, (body) => assert.match(body, /<html[\s\S]*larger than 16 KB/)],
      [
        '/v2/o/expire_authenticated_user/x/',
        /^text\/plain/,
        (body) => assert.equal(body, 'The request line and headers are larger than 16 KB.'),
      ],
      [
        '/no-such-path',
        /^application\/json/,
        (body) =>
          assert.deepEqual(JSON.parse(body), {
            status_code: 431,
            message: 'The request line and headers are larger than 16 KB.',
          }),
      ],
    ];
    for (const [path, type, assertBody] of cases) {
      const answer = await exchange(get(path, bigHeader));
      assertClosingAnswer(answer, '431 Request Header Fields Too Large', path);
      assert.match(answer.headers['content-type'] ?? '', type, path);
      assertBody(answer.body);
    }
  });

  test('a request line over 16 KB: 431 in the shape of the surface its path names', async () => {
    const plans = await exchange(get(`/api/v1/states?${KEY}&x=${BIG}`));
    assertClosingAnswer(plans, '431 Request Header Fields Too Large', 'plan API');
    assert.deepEqual(
      JSON.parse(plans.body),
      planError(431, 'The request line and headers are larger than 16 KB.'),
    );
    const page = await exchange(get(`/v2/o/authorize/?scope=${BIG}`));
    assertClosingAnswer(page, '431 Request Header Fields Too Large', 'authorize');
    assert.match(page.headers['content-type'] ?? '', /^text\/html/);
  });

  test('an unparseable request: 400 in the surface’s shape, with Connection: close', async () => {
    const badHeader = await exchange(get('/v2/fhir/Patient/', ['Bad Header Name: x']));
    assertClosingAnswer(badHeader, '400 Bad Request', 'bad header');
    assert.deepEqual(JSON.parse(badHeader.body), { detail: 'Malformed HTTP request.' });
    const garbage = await exchange('\u0001\u0002 nonsense\r\n\r\n');
    assertClosingAnswer(garbage, '400 Bad Request', 'garbage');
    assert.deepEqual(JSON.parse(garbage.body), { status_code: 400, message: 'Malformed HTTP request.' });
  });

  test('a keep-alive client’s next request after a 431 succeeds, 20 times of 20 (node:http agent)', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const call = (path: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
        const req = httpRequest(`${running.url}${path}`, { agent, headers }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      for (let i = 0; i < 20; i += 1) {
        assert.equal((await call('/v2/fhir/metadata')).status, 200, `#${i} before`);
        const refused = await call('/v2/fhir/metadata', { 'x-big': BIG });
        assert.equal(refused.status, 431, `#${i}`);
        assert.equal(refused.connection, 'close', `#${i}`);
        assert.ok('detail' in (JSON.parse(refused.body) as object), `#${i}: ${refused.body}`);
        assert.equal((await call('/v2/fhir/metadata')).status, 200, `#${i} after`);
      }
    } finally {
      agent.destroy();
    }
  });

  test('the same with fetch (undici’s keep-alive pool), 20 times of 20', async () => {
    for (let i = 0; i < 20; i += 1) {
      assert.equal((await send(`/api/v1/states?${KEY}`)).status, 200, `#${i} before`);
      const refused = await send(`/api/v1/states?${KEY}`, { headers: { 'x-big': BIG } });
      assert.equal(refused.status, 431, `#${i}`);
      assert.equal(refused.headers.get('connection'), 'close', `#${i}`);
      assert.equal((json(refused) as { code: string }).code, '1003', `#${i}`);
      assert.equal((await send(`/api/v1/states?${KEY}`)).status, 200, `#${i} after`);
    }
  });
});

describe('a known path with a method no route takes: 405 with Allow, before the body is read', () => {
  test('OAuth endpoints answer in RFC 6749’s shape', async () => {
    for (const path of ['/v2/o/token/', '/v2/o/token', '/v2/o/revoke_token/', '/v2/o/revoke/']) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const answer = await send(path, { method });
        assert.equal(answer.status, 405, `${method} ${path}`);
        assert.equal(answer.headers.get('allow'), 'POST', `${method} ${path}`);
        assert.deepEqual(json(answer), {
          error: 'invalid_request',
          error_description: `Method "${method}" not allowed.`,
        });
      }
    }
    const head = await send('/v2/o/token/', { method: 'HEAD' });
    assert.equal(head.status, 405);
    assert.equal(head.headers.get('allow'), 'POST');
  });

  test('FHIR answers DRF’s {detail}, whatever the body and its type, with or without a token', async () => {
    const cases: [string, string, string][] = [
      ['POST', '/v2/fhir/Patient/', 'GET, HEAD'],
      ['POST', '/v2/fhir/ExplanationOfBenefit', 'GET, HEAD'],
      ['PUT', '/v2/fhir/Coverage/part-a--19990000000001', 'GET, HEAD'],
      ['DELETE', '/v2/fhir/Patient/-19990000000001', 'GET, HEAD'],
      ['POST', '/v2/fhir/metadata', 'GET, HEAD'],
      ['POST', '/v2/fhir/.well-known/smart-configuration', 'GET, HEAD'],
    ];
    for (const [method, path, allow] of cases) {
      for (const authorization of [undefined, `Bearer ${tokens.access_token}`]) {
        const answer = await send(path, {
          method,
          headers: {
            'content-type': 'application/fhir+json',
            ...(authorization ? { authorization } : {}),
          },
          body: '{"resourceType":"Patient"',
        });
        assert.equal(answer.status, 405, `${method} ${path}: ${answer.text}`);
        assert.equal(answer.headers.get('allow'), allow, `${method} ${path}`);
        assert.deepEqual(json(answer), { detail: `Method "${method}" not allowed.` }, `${method} ${path}`);
      }
    }
  });

  test('userinfo and the token-management API answer in {detail}', async () => {
    const cases: [string, string, string][] = [
      ['POST', '/v2/connect/userinfo', 'GET, HEAD'],
      ['POST', '/v2/o/tokens/', 'GET, HEAD'],
      ['DELETE', '/v2/o/tokens/', 'GET, HEAD'],
      ['PUT', '/v2/o/tokens/123/', 'GET, HEAD, DELETE'],
      ['PATCH', '/v2/o/tokens/123', 'GET, HEAD, DELETE'],
    ];
    for (const [method, path, allow] of cases) {
      const answer = await send(path, {
        method,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'a=%zz',
      });
      assert.equal(answer.status, 405, `${method} ${path}: ${answer.text}`);
      assert.equal(answer.headers.get('allow'), allow, `${method} ${path}`);
      assert.deepEqual(json(answer), { detail: `Method "${method}" not allowed.` }, `${method} ${path}`);
    }
  });

  test('the plan API answers in its {code,status,message,error}, with or without a key', async () => {
    const cases: [string, string, string][] = [
      ['POST', `/api/v1/households/pcfpl?${KEY}`, 'GET, HEAD'],
      ['POST', '/api/v1/households/pcfpl', 'GET, HEAD'],
      ['DELETE', `/api/v1/states?${KEY}`, 'GET, HEAD'],
      ['PUT', `/api/v1/plans/12345XX9876543?${KEY}`, 'GET, HEAD, POST'],
    ];
    for (const [method, path, allow] of cases) {
      const answer = await send(path, {
        method,
        headers: { 'content-type': 'application/json' },
        body: '{"broken":',
      });
      assert.equal(answer.status, 405, `${method} ${path}: ${answer.text}`);
      assert.equal(answer.headers.get('allow'), allow, `${method} ${path}`);
      assert.deepEqual(json(answer), planError(405, `Method "${method}" not allowed.`), `${method} ${path}`);
    }
    const unknown = await send(`/api/v1/no-such-endpoint?${KEY}`, { method: 'DELETE' });
    assert.equal(unknown.status, 404, 'a path no route serves stays the gateway’s 404');
    assert.deepEqual(json(unknown), { message: 'no Route matched with those values' });
  });

  test('pages answer with an HTML page; the sandbox expiry endpoint in text; the rest in the kernel’s shape', async () => {
    const login = await send('/v2/accounts/login', { method: 'PUT' });
    assert.equal(login.status, 405);
    assert.equal(login.headers.get('allow'), 'GET, HEAD, POST');
    assert.match(login.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(login.text, /Method (&quot;|&#34;|")PUT(&quot;|&#34;|") not allowed\./);
    const consent = await send('/v2/o/authorize/00000000-0000-4000-8000-000000000000/', { method: 'DELETE' });
    assert.equal(consent.status, 405);
    assert.equal(consent.headers.get('allow'), 'GET, HEAD, POST');
    assert.match(consent.headers.get('content-type') ?? '', /^text\/html/);
    const expire = await send('/v2/o/expire_authenticated_user/-19990000000001/');
    assert.equal(expire.status, 405);
    assert.equal(expire.headers.get('allow'), 'POST');
    assert.equal(expire.text, 'Method "GET" not allowed.');
    const discovery = await send('/.well-known/openid-configuration', { method: 'POST' });
    assert.equal(discovery.status, 405);
    assert.equal(discovery.headers.get('allow'), 'GET, HEAD');
    assert.deepEqual(json(discovery), { status_code: 405, message: 'Method "POST" not allowed.' });
    assert.equal(discovery.headers.get('x-content-type-options'), 'nosniff', 'the headers every answer gets');
  });
});

describe('errors raised before a route is known answer in the shape of the path’s surface', () => {
  test('an id over 100 characters is an id like any other: 401 without credentials, 404 with them', async () => {
    const long = 'x'.repeat(300);
    const unauthenticated = await send(`/v2/fhir/Coverage/${long}`);
    assert.equal(unauthenticated.status, 401);
    assert.deepEqual(json(unauthenticated), { detail: 'Authentication credentials were not provided.' });
    const read = await send(`/v2/fhir/Coverage/${long}`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    assert.equal(read.status, 404);
    assert.deepEqual(json(read), { detail: 'Not found.' });
    const anonymous = await send(`/v2/o/tokens/${long}/`);
    assert.equal(anonymous.status, 401);
    assert.deepEqual(json(anonymous), { detail: 'Invalid client credentials.' });
    const basic = Buffer.from(`${portal.clientId}:${portal.clientSecret}`).toString('base64');
    const sls = `SLS ${Buffer.from('BBUser00001').toString('base64')}`;
    for (const method of ['GET', 'DELETE']) {
      const answer = await send(`/v2/o/tokens/${long}/`, {
        method,
        headers: { authorization: `Basic ${basic}`, 'x-authentication': sls },
      });
      assert.equal(answer.status, 404, method);
      assert.deepEqual(json(answer), { detail: 'Not found.' }, method);
    }
  });

  test('a path that is not valid UTF-8: 400 in {detail} for FHIR and token management', async () => {
    for (const path of ['/v2/fhir/Coverage/%C0%80', '/v2/fhir/Patient/%ff', '/v2/o/tokens/%C0%80/']) {
      const answer = await send(path, { headers: { authorization: `Bearer ${tokens.access_token}` } });
      assert.equal(answer.status, 400, path);
      assert.deepEqual(json(answer), {
        detail: 'Malformed URL: the path is not valid percent-encoded UTF-8.',
      });
      assert.equal(answer.headers.get('x-content-type-options'), 'nosniff', path);
    }
  });

  test('a path no FHIR route serves: 404 in {detail}', async () => {
    const answer = await send('/v2/fhir/Condition/1', {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    assert.equal(answer.status, 404);
    assert.deepEqual(json(answer), { detail: 'Not found.' });
  });

  test('Basic credentials that do not parse get the answer wrong ones get', async () => {
    const sls = `SLS ${Buffer.from('BBUser00001').toString('base64')}`;
    const wrong = Buffer.from(`${portal.clientId}:wrong`).toString('base64');
    const expected = { detail: 'Invalid client credentials.' };
    for (const authorization of ['Basic !!!!', 'Basic', `Basic ${wrong}`, 'Basic Og==', 'Basic JUZGOiU=']) {
      for (const path of ['/v2/o/tokens/', '/v2/o/tokens/123/']) {
        const answer = await send(path, { headers: { authorization, 'x-authentication': sls } });
        assert.equal(answer.status, 401, `${authorization} ${path}`);
        assert.deepEqual(json(answer), expected, `${authorization} ${path}`);
      }
    }
  });
});
