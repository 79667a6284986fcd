import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { createLogger, prettyStream, redactUrl, stdoutFormat } from './logger.js';

const STATE = 'st4te-0f-the-app-1234';
const NONCE = 'n0nce-0f-the-app-5678';

test('secrets nested in a logged URL are redacted at any depth', () => {
  const authorize = `/v2/o/authorize/?client_id=abc&state=${STATE}&nonce=${NONCE}&scope=openid`;
  const login = `/v2/accounts/login?next=${encodeURIComponent(authorize)}&lang=en`;
  const idpStart = `/v2/accounts/idp/start?next=${encodeURIComponent(login)}`;
  for (const url of [authorize, login, idpStart]) {
    const logged = redactUrl(url);
    assert.ok(!logged.includes(STATE) && !logged.includes(NONCE), logged);
    // What is not secret stays readable for an operator.
    assert.ok(decodeURIComponent(decodeURIComponent(decodeURIComponent(logged))).includes('client_id=abc'));
  }
  // Deeper than the redactor follows: the innermost value goes as a whole.
  let deep = `/x?state=${STATE}`;
  for (let i = 0; i < 12; i++) deep = `/x?next=${encodeURIComponent(deep)}`;
  assert.ok(!redactUrl(deep).includes(STATE));
});

test('key-like parameter names are redacted however they are spelled', () => {
  const logged = redactUrl('/api/v1/states?APIKEY=k1&apiKey=k2&apikey%00=k3&api_key=k4&Api-Key=k5&year=2025');
  for (const key of ['k1', 'k2', 'k3', 'k4', 'k5']) assert.ok(!logged.includes(`=${key}`), logged);
  assert.match(logged, /year=2025/);
  for (const name of ['access_token', 'ACCESS_TOKEN', 'client_secret', 'code_verifier', 'password', 'code'])
    assert.ok(!redactUrl(`/p?${name}=s3cret`).includes('s3cret'), name);
});

test('a URL without a query is unchanged', () => {
  assert.equal(redactUrl('/v2/fhir/Patient/123'), '/v2/fhir/Patient/123');
  assert.equal(redactUrl('/a?b=c'), '/a?b=c');
});

/** A stream that keeps what is written to it. */
function sink() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

const SECRET_URL = '/api/v1/states?apikey=k3y-0f-the-caller&year=2025';

test('stdout: readable lines at a terminal, JSON lines otherwise, unless LOG_FORMAT says', () => {
  assert.equal(stdoutFormat(true, 'auto'), 'pretty');
  assert.equal(stdoutFormat(false, 'auto'), 'json');
  // A pipe or a file: process.stdout.isTTY is undefined.
  assert.equal(stdoutFormat(undefined, 'auto'), 'json');
  assert.equal(stdoutFormat(true, 'json'), 'json');
  assert.equal(stdoutFormat(undefined, 'pretty'), 'pretty');
});

test('a destination that is not a terminal gets JSON lines, whatever the format setting', () => {
  const out = sink();
  const logger = createLogger('info', out.stream, 'pretty');
  logger.info({ req: { method: 'GET', url: SECRET_URL } }, 'request completed');
  const lines = out.text().trimEnd().split('\n');
  assert.equal(lines.length, 1);
  const entry = JSON.parse(lines[0]!) as { msg: string; req: { url: string } };
  assert.equal(entry.msg, 'request completed');
  assert.ok(!entry.req.url.includes('k3y-0f-the-caller'), entry.req.url);
});

test('readable lines hide the same secrets as JSON lines', async () => {
  const out = sink();
  const logger = createLogger('info', prettyStream(out.stream));
  logger.info({ req: { method: 'GET', url: SECRET_URL } }, 'request completed');
  // pino-pretty formats in a stream of its own: the line arrives a few ticks later.
  for (let i = 0; i < 100 && !out.text().includes('request completed'); i++) await delay(10);
  const text = out.text();
  assert.match(text, /INFO.*request completed/);
  assert.throws(() => JSON.parse(text));
  assert.ok(!text.includes('k3y-0f-the-caller'), text);
  assert.match(text, /year=2025/);
});
