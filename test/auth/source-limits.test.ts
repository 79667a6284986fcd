import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { Browser } from '../helpers/flow.js';
import { CALLBACK_PATH } from '../helpers/federation-flow.js';
import { logIn } from '../helpers/pages.js';
import { freePort } from '../helpers/processes.js';
import { redisUrl, startService, type RunningService } from '../helpers/service.js';
import { startTestIdp } from '../helpers/test-idp.js';

/**
 * Per-source limits on unauthenticated sign-in writes (OWASP ASVS 4.0 V2.2.1): one client address may
 * not spray password guesses across many usernames, nor lock them all, nor fill the database with
 * counter rows. Each request comes from 127.0.0.1 unless a forwarded address is trusted.
 */

const LIMITS = { SIGN_IN_PER_MINUTE: '3', SIGN_IN_PER_HOUR: '1000' };
const started: RunningService[] = [];
after(() => Promise.all(started.map((s) => s.close())));

async function start(env: Record<string, string> = {}) {
  const running = await startService({ ...LIMITS, ...env });
  started.push(running);
  return running;
}

/**
 * Moves the services' clocks (started together, so alike) to one second into a minute: the limits count
 * in windows aligned to the clock, and a test must not see its minute end half-way through.
 */
function startOfMinute(...services: RunningService[]): void {
  const now = services[0]!.clock.now();
  const ms = 60_000 - (now % 60_000) + 1_000;
  for (const s of services) s.clock.advance(ms);
}

/** A login attempt for a username nobody has, from `forwardedFor` when given. */
async function guess(running: RunningService, forwardedFor?: string, lang = 'en') {
  const browser = new Browser(running.url, {
    ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
    'accept-language': lang,
  });
  const response = await logIn(browser, `nobody-${randomBytes(4).toString('hex')}`, 'wrong');
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    html: await response.text(),
  };
}

/** Rows of per-username lock-out counters in the database (where they live without Redis). */
async function lockoutRows(running: RunningService): Promise<number> {
  const rows = await running.service.storage.db
    .selectFrom('counters')
    .select('key')
    .where('key', 'like', 'login-failures:%')
    .execute();
  return rows.length;
}

describe('POST /v2/accounts/login, per client address', () => {
  test('past the limit: 429 with Retry-After and a page in its language; no username is counted', async () => {
    const running = await start();
    startOfMinute(running);
    for (let i = 0; i < 3; i++) assert.equal((await guess(running)).status, 401);
    const before = redisUrl ? 0 : await lockoutRows(running);
    const refused = await guess(running, undefined, 'es');
    assert.equal(refused.status, 429);
    const seconds = Number(refused.retryAfter);
    assert.ok(seconds >= 1 && seconds <= 61, `Retry-After ${refused.retryAfter}`);
    assert.match(
      refused.html,
      new RegExp(
        `Demasiados intentos de inicio de sesión desde su red\\. Inténtelo de nuevo en ${seconds} segundos`,
      ),
    );
    assert.match(refused.html, /<html lang="es"/);
    // Refused before any per-username work: no lock-out counter was added for the new username.
    if (!redisUrl) assert.equal(await lockoutRows(running), before);
    // A real enrollee from the same address is refused too until the window ends…
    const browser = new Browser(running.url);
    assert.equal((await logIn(browser, 'BBUser00000', 'PW00000!')).status, 429);
    // …and admitted once it has.
    running.clock.advance(seconds * 1000);
    assert.equal((await logIn(browser, 'BBUser00000', 'PW00000!')).status, 200);
  });

  test('behind TRUST_PROXY the forwarded address counts; without it a forged header changes nothing', async () => {
    const trusting = await start({ TRUST_PROXY: 'true' });
    startOfMinute(trusting);
    for (let i = 0; i < 3; i++) assert.equal((await guess(trusting, '198.51.100.1')).status, 401);
    assert.equal((await guess(trusting, '198.51.100.1')).status, 429);
    assert.equal((await guess(trusting, '198.51.100.2')).status, 401, 'another client is not limited');

    const direct = await start();
    startOfMinute(direct);
    for (let i = 0; i < 3; i++) assert.equal((await guess(direct, `198.51.100.${10 + i}`)).status, 401);
    assert.equal((await guess(direct, '198.51.100.99')).status, 429, 'a forged header is not a new source');
  });

  test('the lock-out of one username stays; the source limit caps how many a client can lock', async () => {
    const running = await start({ SIGN_IN_PER_MINUTE: '12', LOGIN_MAX_FAILURES: '5' });
    startOfMinute(running);
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) {
      const browser = new Browser(running.url);
      statuses.push((await logIn(browser, `BBUser0000${i % 2}`, 'wrong')).status);
    }
    // Two usernames × 5 failures lock both (the 6th of each is 429 from the lock-out); past 12 in the
    // minute, every attempt is refused by the source limit whatever the username.
    assert.deepEqual(statuses.slice(0, 10), Array(10).fill(401));
    assert.deepEqual(statuses.slice(10), [429, 429, 429, 429]);
  });
});

describe('GET /v2/accounts/idp/start, per client address', () => {
  test('past the limit: 429 page with Retry-After; no pending sign-in stored for the refused', async () => {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    const idp = await startTestIdp({ redirectUris: [`${publicUrl}${CALLBACK_PATH}`], members: {} });
    try {
      const running = await startService({ ...LIMITS, ...idp.env(), PUBLIC_URL: publicUrl }, port);
      started.push(running);
      startOfMinute(running);
      const pending = async () =>
        (await running.service.storage.db.selectFrom('idp_requests').select('state_hash').execute()).length;
      for (let i = 0; i < 3; i++) {
        const answer = await fetch(`${running.url}/v2/accounts/idp/start?lang=en`, { redirect: 'manual' });
        assert.equal(answer.status, 302, `start ${i}`);
      }
      assert.equal(await pending(), 3);
      const refused = await fetch(`${running.url}/v2/accounts/idp/start?lang=es`, { redirect: 'manual' });
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      assert.match(await refused.text(), /Demasiados intentos de inicio de sesión desde su red/);
      assert.equal(await pending(), 3, 'the refused start stored nothing');
    } finally {
      await idp.close();
    }
  });
});

describe('per-source counts are shared through Redis, and kept in the process when it is down', () => {
  test(
    'two instances on one Redis share one budget',
    { skip: redisUrl ? false : 'only when REDIS_URL is set' },
    async () => {
      const prefix = `test-${randomBytes(6).toString('hex')}:`;
      const a = await start({ REDIS_KEY_PREFIX: prefix });
      const b = await start({ REDIS_KEY_PREFIX: prefix });
      startOfMinute(a, b);
      assert.equal((await guess(a)).status, 401);
      assert.equal((await guess(b)).status, 401);
      assert.equal((await guess(a)).status, 401);
      assert.equal((await guess(b)).status, 429);
      assert.equal((await guess(a)).status, 429);
    },
  );

  test('with Redis unreachable the limit still holds, counted in this process', async () => {
    // A port nothing listens on: the service starts degraded and counts in memory.
    const running = await start({ REDIS_URL: 'redis://127.0.0.1:1', REDIS_COMMAND_TIMEOUT_MS: '50' });
    startOfMinute(running);
    for (let i = 0; i < 3; i++) assert.equal((await guess(running)).status, 401);
    assert.equal((await guess(running)).status, 429);
  });
});
