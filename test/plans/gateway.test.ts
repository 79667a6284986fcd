import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sha256 } from '../../src/shared/crypto.js';
import { runCli } from '../helpers/cli.js';
import { startService, type RunningService } from '../helpers/service.js';

/**
 * The plan API's gateway over HTTP (Kong key-auth and rate-limiting: docs/decisions.md#plan-api-keys,
 * #plan-rate-limits): key
 * checks, the limit headers on every answer, 429 over a limit, and the `keys` CLI through a real process.
 */
let running: RunningService;

before(async () => {
  running = await startService({ SAMPLE_MARKET: 'false' });
});
after(() => running.close());

const NO_KEY = '{"message":"No API key found in request"}';
const INVALID = '{"message":"Invalid authentication credentials"}';
const OVER_LIMIT = '{"message":"API rate limit exceeded"}';

async function versions(key?: string, init: RequestInit = {}) {
  const query = key === undefined ? '' : `?apikey=${encodeURIComponent(key)}`;
  const response = await fetch(`${running.url}/api/v1/versions${query}`, init);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

let keyCounter = 0;

async function newKey(limits: { perSecond?: number; perMinute?: number; expiresAt?: number | null } = {}) {
  keyCounter += 1;
  const { key, record } = await running.service.plans.apiKeys.createKey(
    {
      name: `gateway test ${keyCounter}`,
      perSecond: limits.perSecond ?? 100,
      perMinute: limits.perMinute ?? 1000,
      expiresAt: limits.expiresAt ?? null,
    },
    running.clock.now(),
  );
  return { key, id: record.id };
}

/**
 * Moves the service's clock (the limiter reads it) to just after a minute starts, so a test's requests
 * all fall in one second window and one minute window however slow the machine is.
 */
function startOfMinute(): void {
  const now = running.clock.now();
  running.clock.advance(60_000 - (now % 60_000) + 1);
}

function limitHeaders(headers: Headers) {
  const number = (name: string) => Number(headers.get(name));
  return {
    limitSecond: number('x-ratelimit-limit-second'),
    remainingSecond: number('x-ratelimit-remaining-second'),
    limitMinute: number('x-ratelimit-limit-minute'),
    remainingMinute: number('x-ratelimit-remaining-minute'),
    limit: number('ratelimit-limit'),
    remaining: number('ratelimit-remaining'),
    reset: number('ratelimit-reset'),
  };
}

describe('API keys', () => {
  test('no key: 401 "No API key found in request", with a Key challenge', async () => {
    for (const key of [undefined, '']) {
      const answer = await versions(key);
      assert.equal(answer.status, 401);
      assert.equal(answer.text, NO_KEY);
      assert.match(answer.headers.get('www-authenticate') ?? '', /^Key realm=/);
    }
  });

  test('an unknown key: 401 "Invalid authentication credentials"', async () => {
    const answer = await versions('0123456789abcdef0123456789abcdef');
    assert.equal(answer.status, 401);
    assert.equal(answer.text, INVALID);
  });

  test('a good key in the query or in an apikey header: 200', async () => {
    const { key } = await newKey();
    const byQuery = await versions(key);
    assert.equal(byQuery.status, 200, byQuery.text);
    assert.deepEqual(JSON.parse(byQuery.text), []);
    const byHeader = await versions(undefined, { headers: { apikey: key } });
    assert.equal(byHeader.status, 200, byHeader.text);
  });

  test('a revoked key is refused from the next request on', async () => {
    const { key, id } = await newKey();
    assert.equal((await versions(key)).status, 200);
    assert.equal(await running.service.plans.apiKeys.revokeKey(id, running.clock.now()), true);
    const answer = await versions(key);
    assert.equal(answer.status, 401);
    assert.equal(answer.text, INVALID);
    const byHeader = await versions(undefined, { headers: { apikey: key } });
    assert.equal(byHeader.text, INVALID);
  });

  test('an expired key is refused', async () => {
    const past = await newKey({ expiresAt: running.clock.now() - 1 });
    assert.equal((await versions(past.key)).text, INVALID);

    const soon = await newKey({ expiresAt: running.clock.now() + 60_000 });
    assert.equal((await versions(soon.key)).status, 200);
    running.clock.advance(60_001);
    const answer = await versions(soon.key);
    assert.equal(answer.status, 401);
    assert.equal(answer.text, INVALID);
  });
});

describe('rate limits', () => {
  test('every answer carries the limits and what remains, counting down', async () => {
    const { key } = await newKey({ perSecond: 50, perMinute: 100 });
    startOfMinute();
    const first = limitHeaders((await versions(key)).headers);
    assert.deepEqual(first, {
      limitSecond: 50,
      remainingSecond: 49,
      limitMinute: 100,
      remainingMinute: 99,
      // The window closest to exhaustion (49/50 of the second's left, 99/100 of the minute's).
      limit: 50,
      remaining: 49,
      reset: 1,
    });
    const second = limitHeaders((await versions(key)).headers);
    assert.equal(second.remainingSecond, 48);
    assert.equal(second.remainingMinute, 98);
    assert.equal(second.remaining, 48);
  });

  test('401 answers carry no limit headers (no key, no limit)', async () => {
    const answer = await versions();
    assert.equal(answer.headers.get('x-ratelimit-limit-minute'), null);
  });

  test('--per-second 3: the 4th request in one second is 429 with Retry-After; the next second is fine', async () => {
    const { key } = await newKey({ perSecond: 3, perMinute: 1000 });
    startOfMinute();
    for (const remaining of [2, 1, 0]) {
      const answer = await versions(key);
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.headers.get('x-ratelimit-remaining-second'), String(remaining));
    }
    const refused = await versions(key);
    assert.equal(refused.status, 429);
    assert.equal(refused.text, OVER_LIMIT);
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.equal(refused.headers.get('x-ratelimit-remaining-second'), '0');
    assert.equal(refused.headers.get('ratelimit-limit'), '3');
    assert.equal(refused.headers.get('ratelimit-remaining'), '0');

    running.clock.advance(1000);
    const later = await versions(key);
    assert.equal(later.status, 200, later.text);
    assert.equal(later.headers.get('x-ratelimit-remaining-second'), '2');
  });

  test('a per-minute limit: refused until the minute is over, Retry-After says how long', async () => {
    const { key } = await newKey({ perSecond: 100, perMinute: 2 });
    startOfMinute();
    assert.equal((await versions(key)).status, 200);
    running.clock.advance(1500);
    assert.equal((await versions(key)).status, 200);
    running.clock.advance(1500);
    const refused = await versions(key);
    assert.equal(refused.status, 429);
    assert.equal(refused.text, OVER_LIMIT);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter >= 55 && retryAfter <= 57, `Retry-After ${retryAfter}`);
    assert.equal(refused.headers.get('ratelimit-limit'), '2');
    assert.equal(refused.headers.get('ratelimit-reset'), String(retryAfter));

    running.clock.advance(retryAfter * 1000);
    assert.equal((await versions(key)).status, 200);
  });
});

describe('openenroll keys (a real process on the service database)', () => {
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runCli(running.database.processUrl, ['keys', ...args], env);

  interface Listed {
    id: string;
    name: string;
    per_second: number;
    per_minute: number;
    created_at: string;
    expires_at: string | null;
    revoked_at: string | null;
    state: string;
  }
  const list = async () => JSON.parse((await cli(['list', '--json'])).stdout) as Listed[];

  test('create --json prints {"key","id"} once; the key works at once with its own limits', async () => {
    const created = await cli([
      'create',
      '--name',
      'CLI key',
      '--per-second',
      '3',
      '--per-minute',
      '7',
      '--json',
    ]);
    assert.equal(created.code, 0, created.stderr);
    const body = JSON.parse(created.stdout) as { key: string; id: string };
    assert.deepEqual(Object.keys(body), ['key', 'id']);
    assert.match(body.key, /^[0-9a-f]{32}$/);
    assert.match(body.id, /^key_[0-9a-f]{12}$/);

    startOfMinute();
    const answer = await versions(body.key);
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.headers.get('x-ratelimit-limit-second'), '3');
    assert.equal(answer.headers.get('x-ratelimit-limit-minute'), '7');

    const listed = await cli(['list', '--json']);
    assert.ok(!listed.stdout.includes(body.key), 'the key is never shown again');
    assert.ok(!listed.stdout.includes(sha256(body.key)), 'nor its hash');
    const mine = (JSON.parse(listed.stdout) as Listed[]).find((k) => k.id === body.id);
    assert.deepEqual(
      { ...mine, created_at: typeof mine?.created_at },
      {
        id: body.id,
        name: 'CLI key',
        per_second: 3,
        per_minute: 7,
        created_at: 'string',
        expires_at: null,
        revoked_at: null,
        state: 'active',
      },
    );
    const table = await cli(['list']);
    assert.match(table.stdout, /^ID\s+NAME\s+PER_SECOND\s+PER_MINUTE\s+CREATED\s+EXPIRES\s+STATE$/m);
    assert.match(
      table.stdout,
      new RegExp(`^${body.id}\\s+CLI key\\s+3\\s+7\\s+\\S+ \\S+\\s+never\\s+active$`, 'm'),
    );
  });

  test('defaults come from API_RATE_PER_SECOND / _MINUTE; --expires-in-days sets the expiry', async () => {
    const created = await cli(['create', '--name', 'defaults', '--expires-in-days', '2', '--json'], {
      API_RATE_PER_SECOND: '11',
      API_RATE_PER_MINUTE: '222',
    });
    assert.equal(created.code, 0, created.stderr);
    const { id } = JSON.parse(created.stdout) as { id: string };
    const mine = (await list()).find((k) => k.id === id)!;
    assert.equal(mine.per_second, 11);
    assert.equal(mine.per_minute, 222);
    const days = (Date.parse(mine.expires_at!) - Date.parse(mine.created_at)) / 86_400_000;
    assert.equal(days, 2);
    assert.equal(mine.state, 'active');
  });

  test('create without --json shows the key once with a warning', async () => {
    const created = await cli(['create', '--name', 'plain']);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /^id:\s+key_[0-9a-f]{12}\nkey:\s+[0-9a-f]{32}\n/);
    assert.match(created.stdout, /shown only now/);
  });

  test('revoke: the service refuses the key from the next request on; list shows it revoked', async () => {
    const { key, id } = JSON.parse((await cli(['create', '--name', 'to revoke', '--json'])).stdout) as {
      key: string;
      id: string;
    };
    assert.equal((await versions(key)).status, 200);
    const revoked = await cli(['revoke', id]);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal(revoked.stdout.trim(), `${id} revoked`);
    assert.equal((await versions(key)).text, INVALID);
    assert.equal((await list()).find((k) => k.id === id)?.state, 'revoked');
    const again = await cli(['revoke', id]);
    assert.equal(again.code, 0);
    assert.equal(again.stdout.trim(), `${id} was already revoked`);
  });

  test('an expired key is listed as expired', async () => {
    const { id } = await newKey({ expiresAt: Date.now() - 1000 });
    assert.equal((await list()).find((k) => k.id === id)?.state, 'expired');
  });

  test('unknown ids and bad options: exit 1 with a clear message', async () => {
    const unknown = await cli(['revoke', 'key_nosuchkey000']);
    assert.equal(unknown.code, 1);
    assert.equal(
      unknown.stderr.trim(),
      'openenroll: no API key with id key_nosuchkey000 (see "openenroll keys list")',
    );

    const cases: [string[], string][] = [
      [['--per-second', 'abc'], '--per-second must be a whole number from 1 to 1000000, got "abc"'],
      [['--expires-in-days', '1.5'], '--expires-in-days must be a whole number from 1 to 36500, got "1.5"'],
    ];
    for (const [options, message] of cases) {
      const bad = await cli(['create', '--name', 'bad', ...options]);
      assert.equal(bad.code, 1, options.join(' '));
      assert.equal(bad.stderr.trim(), `openenroll: ${message}`);
    }
    const empty = await cli(['create', '--name', '  ']);
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /--name must not be empty/);
    const missing = await cli(['create']);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /required option '--name <name>' not specified/);
    assert.ok(!(await list()).some((k) => k.name === 'bad'), 'nothing was created');
  });
});
