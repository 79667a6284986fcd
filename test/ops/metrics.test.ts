import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { freePort, spawnServer, stopServer, waitHealthy } from '../helpers/processes.js';
import {
  createTestApp,
  createTestDatabase,
  redisEnv,
  startService,
  type RunningService,
} from '../helpers/service.js';
import { ingest, sharedData, skipWithoutSharedData } from '../helpers/shared-data.js';
import { issueTokens, refresh, type TokenBody } from '../helpers/token-calls.js';

const TOKEN = 'metrics-scraper-token-0123456789';
const KEY = 'd687412e7b53146b2631dc01974ad0a4';
const COUNTIES = ['geo/census_2010_national_county_fips.csv', 'geo/county_fips_changes_since_2010.csv'];

/** The value of the series `name{labels}` in a Prometheus text exposition, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.lastIndexOf('}'));
    const found = Object.fromEntries([...inside.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v))
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

async function scrape(running: RunningService): Promise<string> {
  const response = await fetch(`${running.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return response.text();
}

describe('/metrics with METRICS_TOKEN', { skip: skipWithoutSharedData(...COUNTIES) }, () => {
  let running: RunningService;
  before(async () => {
    running = await startService({ METRICS_TOKEN: TOKEN });
  });
  after(() => running.close());

  test('a token flow, a plan search, a 429 and an ingest show up in their counters', async () => {
    const app = await createTestApp(running);
    const tokens: TokenBody = await issueTokens(running, app);
    assert.equal((await refresh(running.url, app, tokens.refresh_token)).status, 200);
    assert.equal((await refresh(running.url, app, tokens.refresh_token)).status, 400, 'a spent token');

    const search = await fetch(`${running.url}/api/v1/plans/search?apikey=${KEY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        place: { countyfips: '48091', state: 'TX', zipcode: '78130' },
        market: 'Individual',
        // The generated sample market is of the clock's year.
        year: new Date(running.clock.now()).getUTCFullYear(),
        household: {
          income: 40000,
          people: [{ age: 30, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
        },
      }),
    });
    assert.equal(search.status, 200, await search.text());
    const limited = await running.service.plans.apiKeys.createKey(
      { name: 'one a minute', perSecond: 10, perMinute: 1, expiresAt: null },
      Date.now(),
    );
    const statuses = [];
    for (let i = 0; i < 3; i += 1) {
      statuses.push((await fetch(`${running.url}/api/v1/states?apikey=${limited.key}`)).status);
    }
    assert.ok(statuses.includes(429), statuses.join(','));

    const summary = await ingest(running.service.storage, 'counties', COUNTIES.map(sharedData));
    assert.equal(summary.rejectedCount, 0);

    const text = await scrape(running);
    assert.equal(
      sample(text, 'openenroll_token_grants_total', { grant_type: 'authorization_code', outcome: 'issued' }),
      1,
    );
    assert.equal(
      sample(text, 'openenroll_token_grants_total', { grant_type: 'refresh_token', outcome: 'issued' }),
      1,
    );
    assert.equal(
      sample(text, 'openenroll_token_grants_total', {
        grant_type: 'refresh_token',
        outcome: 'invalid_grant',
      }),
      1,
    );
    assert.equal(
      sample(text, 'openenroll_http_requests_total', {
        method: 'POST',
        route: '/api/v1/plans/search',
        status: '200',
      }),
      1,
    );
    assert.equal(
      sample(text, 'openenroll_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/v1/plans/search',
        status: '200',
      }),
      1,
    );
    // By key id, never the key.
    assert.ok(!text.includes(KEY) && !text.includes(limited.key));
    assert.ok(
      (sample(text, 'openenroll_plan_api_responses_total', { key_id: limited.record.id, status: '429' }) ??
        0) >= 1,
    );
    assert.ok(
      (sample(text, 'openenroll_plan_api_rate_limited_total', { key_id: limited.record.id }) ?? 0) >= 1,
    );
    const [loaded] = (await running.service.plans.datasets.listDatasets()).filter(
      (d) => d.kind === 'counties',
    );
    assert.equal(
      sample(text, 'openenroll_ingest_rows', { kind: 'counties', year: String(loaded!.year) }),
      loaded!.rows,
    );
    const duration = sample(text, 'openenroll_ingest_duration_seconds', {
      kind: 'counties',
      year: String(loaded!.year),
    });
    assert.ok(
      duration !== undefined && duration > 0 && duration === loaded!.durationMs! / 1000,
      String(duration),
    );
    assert.equal(sample(text, 'openenroll_dependency_up', { dependency: 'database' }), 1);
    if (running.service.storage.poolStats) {
      assert.ok((sample(text, 'openenroll_db_pool_connections', { state: 'total' }) ?? 0) >= 1);
    }
    // Paths no route serves share one label: a scan of random URLs cannot grow the series without end.
    await fetch(`${running.url}/no/such/path/${Date.now()}`);
    const after = await scrape(running);
    assert.ok(
      (sample(after, 'openenroll_http_requests_total', { route: '(unmatched)', status: '404' }) ?? 0) >= 1,
    );
    assert.ok(!after.includes('/no/such/path'));
  });

  test('without the bearer token: 401', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789abc', `Basic ${TOKEN}`]) {
      const response = await fetch(`${running.url}/metrics`, {
        headers: authorization ? { authorization } : {},
      });
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('www-authenticate'), 'Bearer realm="metrics"');
    }
  });
});

test('without METRICS_TOKEN, /metrics is not served on the service port', async () => {
  const running = await startService();
  try {
    const response = await fetch(`${running.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(response.status, 404);
  } finally {
    await running.close();
  }
});

test('METRICS_PORT: a listener of its own, the service port does not serve /metrics', async () => {
  const database = createTestDatabase();
  await (await database.open()).close();
  const metricsPort = await freePort();
  const server = spawnServer('metrics instance', await freePort(), {
    DATABASE_URL: database.processUrl,
    LOG_LEVEL: 'warn',
    SANDBOX_ENROLLEES: '1',
    METRICS_PORT: String(metricsPort),
    ...redisEnv(),
  });
  try {
    await waitHealthy(server);
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    assert.equal(response.status, 200);
    const text = await response.text();
    assert.ok(
      sample(text, 'openenroll_http_requests_total', { route: '/health', status: '200' }),
      text.slice(0, 500),
    );
    assert.equal((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status, 404);
    assert.equal((await fetch(`${server.url}/metrics`)).status, 404);
  } finally {
    await stopServer(server);
    await database.drop();
  }
});
