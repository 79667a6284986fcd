import { sql } from 'kysely';
import type { App } from '../shared/http.js';
import type { Availability } from '../storage/availability.js';
import { pendingMigrations, type Storage } from '../storage/connect.js';

/**
 * Probes the database while it is marked down, so its recovery is seen (and logged) even when no request
 * comes, and answers readiness checks. Every probe is bounded by `timeoutMs`.
 */
export function createDatabaseProbe(storage: Storage, availability: Availability, timeoutMs: number) {
  let inFlight: Promise<boolean> | undefined;
  const probe = (): Promise<boolean> => {
    inFlight ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout exceeded when trying to connect')), timeoutMs);
      });
      try {
        await Promise.race([sql`select 1`.execute(storage.db), timeout]);
        availability.succeeded();
        return true;
      } catch (error) {
        availability.failed(error);
        return false;
      } finally {
        clearTimeout(timer);
        inFlight = undefined;
      }
    })();
    return inFlight;
  };
  const timer = setInterval(() => {
    if (!availability.isUp()) void probe();
  }, 1000);
  timer.unref();
  return {
    probe,
    stop: () => clearInterval(timer),
  };
}

export type DatabaseProbe = ReturnType<typeof createDatabaseProbe>;

export interface HealthDeps {
  storage: Storage;
  probe: DatabaseProbe;
  redis?: Availability;
  /** True once shutdown has begun: readiness fails so a load balancer stops sending new requests. */
  draining: () => boolean;
}

const NO_STORE = { 'cache-control': 'no-store' };

/**
 * Kubernetes-style probes. Liveness (`/health/live`) answers while the process can serve at all: a
 * restart would not bring the database back. Readiness (`/health/ready`, and `/health` as before) fails
 * while the database is unreachable, migrations are pending or the instance is shutting down, so a load
 * balancer sends its traffic elsewhere. Redis is reported but does not fail readiness: counting falls
 * back to the process or the database while it is away.
 */
export function registerHealthRoutes(app: App, deps: HealthDeps): void {
  let migrated = false;
  const config = { offline: true };
  app.get('/health/live', { schema: { hide: true }, config }, async (_request, reply) =>
    reply.headers(NO_STORE).send({ status: 'ok' }),
  );
  const ready = async (_request: unknown, reply: import('fastify').FastifyReply) => {
    const redis = deps.redis ? (deps.redis.isUp() ? 'up' : 'down') : 'not configured';
    const database = (await deps.probe.probe()) ? 'up' : 'down';
    if (!migrated && database === 'up') {
      migrated = (await pendingMigrations(deps.storage).catch(() => ['?'])).length === 0;
    }
    const migrations = database === 'down' ? 'unknown' : migrated ? 'current' : 'pending';
    const draining = deps.draining();
    const ok = database === 'up' && migrated && !draining;
    const body = { status: ok ? 'ok' : draining ? 'draining' : 'unavailable', database, migrations, redis };
    return reply
      .code(ok ? 200 : 503)
      .headers(ok ? NO_STORE : { ...NO_STORE, 'retry-after': '5' })
      .send(body);
  };
  app.get('/health/ready', { schema: { hide: true }, config }, ready);
  app.get('/health', { schema: { hide: true }, config }, ready);
}
