import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redirectUriMatches, redirectUriProblem, withQuery } from './redirect-uri.js';

test('redirect URIs match exactly', () => {
  const registered = ['https://app.example/callback'];
  assert.ok(redirectUriMatches(registered, 'https://app.example/callback'));
  assert.ok(!redirectUriMatches(registered, 'https://app.example/callback/'));
  assert.ok(!redirectUriMatches(registered, 'https://app.example:8443/callback'));
  assert.ok(!redirectUriMatches(registered, 'http://app.example/callback'));
  assert.ok(!redirectUriMatches(registered, 'https://app.example/callback?x=1'));
});

test('a loopback URI registered without a port matches any port (RFC 8252 §7.3)', () => {
  assert.ok(redirectUriMatches(['http://127.0.0.1/cb'], 'http://127.0.0.1:51234/cb'));
  assert.ok(!redirectUriMatches(['http://127.0.0.1/cb'], 'http://127.0.0.1:51234/other'));
  assert.ok(!redirectUriMatches(['http://localhost/cb'], 'http://localhost:51234/cb'));
});

test('registration refuses fragments and script schemes', () => {
  assert.equal(redirectUriProblem('https://app.example/cb#x'), 'Redirect URIs must not contain fragments');
  assert.match(redirectUriProblem('javascript:alert(1)') ?? '', /scheme/);
  assert.equal(redirectUriProblem('com.example.app:/callback'), undefined);
});

test('parameters are added to a redirect URI that has a query', () => {
  assert.equal(
    withQuery('https://a.example/cb?x=1', { code: 'c', state: 's' }),
    'https://a.example/cb?x=1&code=c&state=s',
  );
});
