import type { FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { BodyCacheStats } from '../fhir/store/body-cache.js';
import type { App } from '../shared/http.js';
import type { Availability } from '../storage/availability.js';
import type { Storage } from '../storage/connect.js';

export interface MetricsSources {
  storage: Storage;
  dependencies: { database: Availability; redis?: Availability };
  /** Path prefix of the plan API, whose answers are also counted by key id. */
  planApiPrefix: string;
  /** The FHIR body cache's figures, when the service has one (PostgreSQL). */
  fhirBodyCache?: () => BodyCacheStats | undefined;
}

/** Route label of a request that matched no route: one value, never the raw URL (unbounded cardinality). */
const UNMATCHED = '(unmatched)';

/**
 * The service's Prometheus metrics, in a registry of its own (several services may live in one process,
 * as in the tests). Everything is observed from the HTTP layer and read from the database at scrape time,
 * so neither service's domain code knows about metrics:
 * - requests by method, route pattern and status, with a latency histogram;
 * - token grants by grant type and outcome (`issued` or the OAuth error code);
 * - plan-API answers by key id (never the key) and status, and the requests refused over a limit;
 * - plan-data loads (rows and duration of each dataset's latest load; loads run in the CLI's process, so
 *   the database is where the server learns of them);
 * - the PostgreSQL pool's connections, and whether the database and Redis answer;
 * - the FHIR body cache's hits, misses and size (PostgreSQL).
 */
export function createMetrics(sources: MetricsSources) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'openenroll_' });

  const requests = new Counter({
    name: 'openenroll_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'openenroll_http_request_duration_seconds',
    help: 'Time from the request to the end of its answer, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const grants = new Counter({
    name: 'openenroll_token_grants_total',
    help: 'Token requests by grant type and outcome (issued, or the OAuth error code)',
    labelNames: ['grant_type', 'outcome'] as const,
    registers: [registry],
  });
  const planAnswers = new Counter({
    name: 'openenroll_plan_api_responses_total',
    help: 'Plan API answers by API key id and status',
    labelNames: ['key_id', 'status'] as const,
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'openenroll_plan_api_rate_limited_total',
    help: 'Plan API requests refused with 429 over a limit, by API key id',
    labelNames: ['key_id'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'openenroll_dependency_up',
    help: 'Whether a dependency answered when last used (1) or not (0)',
    labelNames: ['dependency'] as const,
    registers: [registry],
    collect() {
      this.set({ dependency: 'database' }, sources.dependencies.database.isUp() ? 1 : 0);
      const redis = sources.dependencies.redis;
      if (redis) this.set({ dependency: 'redis' }, redis.isUp() ? 1 : 0);
    },
  });
  if (sources.storage.poolStats) {
    const stats = sources.storage.poolStats;
    new Gauge({
      name: 'openenroll_db_pool_connections',
      help: 'PostgreSQL pool: connections open (total), idle, and requests waiting for one',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const { total, idle, waiting } = stats();
        this.set({ state: 'total' }, total);
        this.set({ state: 'idle' }, idle);
        this.set({ state: 'waiting' }, waiting);
      },
    });
  }
  registerIngestGauges(registry, sources);
  const bodyCache = sources.fhirBodyCache;
  if (bodyCache?.()) {
    new Counter({
      name: 'openenroll_fhir_body_cache_reads_total',
      help: 'FHIR bodies served from the body cache (hit) or read from the database (miss)',
      labelNames: ['result'] as const,
      registers: [registry],
      collect() {
        const { hits, misses } = bodyCache()!;
        this.reset();
        this.inc({ result: 'hit' }, hits);
        this.inc({ result: 'miss' }, misses);
      },
    });
    new Gauge({
      name: 'openenroll_fhir_body_cache_size',
      help: 'FHIR body cache: bodies kept, and their size (characters of text and bytes of UTF-8 copies)',
      labelNames: ['unit'] as const,
      registers: [registry],
      collect() {
        const { bodies, chars } = bodyCache()!;
        this.set({ unit: 'bodies' }, bodies);
        this.set({ unit: 'chars' }, chars);
      },
    });
  }

  const tokenOutcome = (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const body = request.body as Record<string, unknown> | undefined;
    const grantType = typeof body?.grant_type === 'string' ? body.grant_type : '(none)';
    let outcome = 'issued';
    if (reply.statusCode >= 400) {
      outcome = 'error';
      if (typeof payload === 'string') {
        try {
          const error = (JSON.parse(payload) as { error?: unknown }).error;
          if (typeof error === 'string') outcome = error;
        } catch {
          /* not JSON: counted as "error" */
        }
      }
    }
    // Unknown grant types are sent by clients: keep the label set bounded.
    const known = ['authorization_code', 'refresh_token', '(none)'].includes(grantType);
    grants.inc({ grant_type: known ? grantType : '(other)', outcome });
  };

  return {
    registry,
    /** Observes every answer of `app`. */
    observe(app: App): void {
      app.addHook('onSend', (request, reply, payload, done) => {
        if (request.routeOptions.url === '/v2/o/token' && request.method === 'POST') {
          tokenOutcome(request, reply, payload);
        }
        done(null, payload);
      });
      app.addHook('onResponse', (request, reply, done) => {
        const route = request.routeOptions.url ?? UNMATCHED;
        const labels = { method: request.method, route, status: String(reply.statusCode) };
        requests.inc(labels);
        latency.observe(labels, reply.elapsedTime / 1000);
        if (route.startsWith(sources.planApiPrefix)) {
          const keyId = request.apiKeyId ?? '(none)';
          planAnswers.inc({ key_id: keyId, status: labels.status });
          if (reply.statusCode === 429) rateLimited.inc({ key_id: keyId });
        }
        done();
      });
    },
    /** The text exposition (Prometheus 0.0.4) and its content type. */
    async render(): Promise<{ contentType: string; text: string }> {
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

interface DatasetRow {
  kind: string;
  year: number;
  rows: number;
  loaded_at: number;
  duration_ms: number | null;
}

/**
 * Rows, load time and duration of every dataset's latest load, read at scrape time (at most once a
 * second); while the database does not answer these series are left out rather than failing the scrape.
 */
function registerIngestGauges(registry: Registry, sources: MetricsSources): void {
  let cached: { at: number; rows: DatasetRow[] } | undefined;
  const datasets = async (): Promise<DatasetRow[]> => {
    if (cached && Date.now() - cached.at < 1000) return cached.rows;
    const rows = await sources.storage.db
      .selectFrom('plan_datasets')
      .select(['kind', 'year', 'rows', 'loaded_at', 'duration_ms'])
      .execute()
      .catch(() => undefined);
    if (!rows) return [];
    cached = { at: Date.now(), rows };
    return rows;
  };
  const gauge = (name: string, help: string, value: (row: DatasetRow) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ['kind', 'year'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const row of await datasets()) {
          const v = value(row);
          if (v !== null) this.set({ kind: row.kind, year: String(row.year) }, v);
        }
      },
    });
  gauge('openenroll_ingest_rows', 'Rows written by the latest load of each dataset', (r) => Number(r.rows));
  gauge('openenroll_ingest_duration_seconds', 'How long the latest load of each dataset took', (r) =>
    r.duration_ms === null ? null : Number(r.duration_ms) / 1000,
  );
  gauge(
    'openenroll_ingest_last_load_timestamp_seconds',
    'When the latest load of each dataset started (Unix time)',
    (r) => Number(r.loaded_at) / 1000,
  );
}
