import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isOlderVersion, MINIMUM_REDIS_VERSION, redisVersion, redisVersionProblem } from './redis-version.js';

const info = (version: string) =>
  `# Server\r\nredis_version:${version}\r\nredis_git_sha1:00000000\r\nredis_mode:standalone\r\n`;

test('the version is read from an INFO reply, with or without section headers', () => {
  assert.equal(redisVersion(info('7.0.15')), '7.0.15');
  assert.equal(redisVersion('redis_git_sha1:0\r\nredis_version:2.4.18\r\nloading:0\r\n'), '2.4.18');
  assert.equal(redisVersion('# Server\r\nredis_mode:standalone\r\n'), undefined);
  assert.equal(redisVersion(info('unstable')), undefined);
  assert.equal(redisVersion(''), undefined);
});

test('versions compare by number, not as text', () => {
  assert.ok(isOlderVersion('2.6.11', '2.6.12'));
  assert.ok(isOlderVersion('2.4.18', '2.6.12'));
  assert.ok(isOlderVersion('1.99.99', '2.6.12'));
  assert.ok(!isOlderVersion('2.6.12', '2.6.12'));
  assert.ok(!isOlderVersion('2.10.0', '2.6.12'));
  assert.ok(!isOlderVersion('10.0.0', '2.6.12'));
  assert.ok(!isOlderVersion('7.2.4-rc1', '2.6.12'));
  assert.throws(() => isOlderVersion('seven', '2.6.12'), /not a major\.minor\.patch version: seven/);
});

test(`a server older than ${MINIMUM_REDIS_VERSION} is refused with the version it needs`, () => {
  assert.equal(
    redisVersionProblem(info('2.4.18')),
    'Redis 2.4.18 is too old: openenroll needs Redis 2.6.12 or newer (SET with PX and NX)',
  );
  assert.match(redisVersionProblem(info('2.6.11')) ?? '', /Redis 2\.6\.11 is too old/);
  for (const version of ['2.6.12', '2.8.0', '6.2.14', '7.0.15', '8.0.2']) {
    assert.equal(redisVersionProblem(info(version)), undefined, version);
  }
  assert.equal(redisVersionProblem('# Server\r\n'), undefined, 'no version: the caller decides');
});
