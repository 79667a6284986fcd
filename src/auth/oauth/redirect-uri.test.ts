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

test('registration accepts https web hosts, http on loopback and reverse-domain private-use schemes', () => {
  for (const uri of [
    'https://app.example/cb',
    'https://app.example:8443/cb?tenant=1',
    'https://127.0.0.1/cb',
    'http://127.0.0.1/callback',
    'http://127.0.0.1:3001/callback',
    'http://[::1]/cb',
    'http://[::1]:51234/cb',
    'http://localhost:5555/callback',
    'com.example.app:/callback',
    'com.example.app://callback',
  ]) {
    assert.equal(redirectUriProblem(uri), undefined, uri);
  }
});

test('registration refuses unsafe redirect URIs with the rule each breaks (RFC 8252, RFC 9700)', () => {
  const refused: [string, RegExp][] = [
    [
      'http://app.example/cb',
      /^http redirect URIs are allowed only on loopback \(127\.0\.0\.1, \[::1\], localhost\)/,
    ],
    ['http://localhost.app.example/cb', /allowed only on loopback/],
    ['http://127.0.0.1.nip.io/cb', /allowed only on loopback/],
    ['https://user:pass@x.example/cb', /must not contain user information/],
    ['https://user@x.example/cb', /must not contain user information/],
    ['https://@x.example/cb', /must not contain user information/],
    ['com.example.app://user@host/cb', /must not contain user information/],
    ['https://app.example/cb#x', /must not contain fragments/],
    ['https://app.example/cb#', /must not contain fragments/],
    ['javascript:alert(1)', /the javascript: scheme is not allowed/],
    ['JavaScript:alert(1)', /the javascript: scheme is not allowed/],
    ['data:text/html,x', /the data: scheme is not allowed/],
    ['file:///etc/passwd', /the file: scheme is not allowed/],
    ['vbscript:msgbox(1)', /the vbscript: scheme is not allowed/],
    ['about:blank', /the about: scheme is not allowed/],
    ['blob:https://app.example/0f8e', /the blob: scheme is not allowed/],
    ['mailto:a@app.example', /the mailto: scheme is not allowed/],
    ['ftp://app.example/cb', /the ftp: scheme is not allowed/],
    ['ws://127.0.0.1/cb', /the ws: scheme is not allowed/],
    ['wss://app.example/cb', /the wss: scheme is not allowed/],
    ['http:/relative', /http redirect URIs must be written http:\/\/host\/path/],
    ['http:relative', /must be written http:\/\/host\/path/],
    ['https:///app.example/cb', /must be written https:\/\/host\/path/],
    ['myapp:/callback', /private-use redirect URI schemes must be reverse domain names/],
    ['com.:/callback', /reverse domain names/],
    ['/callback', /must be absolute URIs/],
    ['callback', /must be absolute URIs/],
    ['', /may contain only URI characters/],
    [' https://app.example/cb', /may contain only URI characters/],
    ['https://app.example/c b', /may contain only URI characters/],
    ['https://app.example/cb\n', /may contain only URI characters/],
    ['https:\\\\app.example\\cb', /may contain only URI characters/],
  ];
  for (const [uri, rule] of refused) {
    const problem = redirectUriProblem(uri);
    assert.match(problem ?? 'accepted', rule, JSON.stringify(uri));
    assert.ok(problem!.endsWith(uri) || problem!.endsWith(JSON.stringify(uri)), `names the URI: ${problem}`);
  }
});

test('URIs registered before these rules still match as they did', () => {
  assert.ok(redirectUriMatches(['http://app.example/cb'], 'http://app.example/cb'));
  assert.ok(redirectUriMatches(['myapp:/callback'], 'myapp:/callback'));
});

test('parameters are added to a redirect URI that has a query', () => {
  assert.equal(
    withQuery('https://a.example/cb?x=1', { code: 'c', state: 's' }),
    'https://a.example/cb?x=1&code=c&state=s',
  );
});
