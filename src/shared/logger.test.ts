import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redactUrl } from './logger.js';

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
