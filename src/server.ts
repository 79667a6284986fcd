import { Redis } from 'ioredis';
import type { Config } from './config.js';
import { createHttpServer, type App } from './shared/http.js';
import type { Logger } from './shared/logger.js';
import { collectApiDocs, serveApiDocs } from './shared/openapi.js';
import { connect, migrate, type Storage } from './storage/connect.js';
import { createDbCounters, createRedisCounters, type Counters } from './storage/counters.js';
import { registerAuthService } from './auth/app.js';
import type { AuthDeps } from './auth/oauth/deps.js';
import { renderErrorForRequest } from './auth/pages/error-page.js';
import { createAppStore } from './auth/store/apps.js';
import { createEnrolleeStore } from './auth/store/enrollees.js';
import { createSessionStore } from './auth/store/sessions.js';
import { createTokenStore } from './auth/store/tokens.js';
import { ensureSandboxEnrollees } from './auth/sandbox/enrollees.js';
import { createFhirStore } from './auth/store/fhir.js';
import { createConnectedAppStore } from './auth/store/connected-apps.js';
import { ensureSandboxClaims } from './ingest/sandbox-claims.js';
import { ensureSampleMarket } from './ingest/sample-market.js';
import { PLAN_API_PREFIX, PLAN_API_SECURITY_SCHEMES, registerPlansService } from './plans/app.js';
import type { PlansDeps } from './plans/deps.js';
import { createApiKeyStore } from './plans/store/api-keys.js';
import { createDatasetStore } from './plans/store/datasets.js';
import { createCrosswalkStore } from './plans/store/crosswalk.js';
import { createGeographyStore } from './plans/store/geography.js';
import { createIssuerStore } from './plans/store/issuers.js';
import { createMarketplaceStore } from './plans/store/marketplace.js';
import { createMedicaidStore } from './plans/store/medicaid.js';
import { createPlanDetailStore } from './plans/store/plan-details.js';
import { createCountyMarketReader } from './plans/market/county-market.js';
import { createMarketService } from './plans/market/market-service.js';
import { createQualityStore } from './plans/store/quality.js';
import { createRatingAreaStore } from './plans/store/rating-areas.js';
import { createSampleTracker } from './plans/gateway/sample-data.js';
import { createMemoryCounters } from './storage/counters.js';
import { ensureSandboxApiKey } from './plans/sandbox-key.js';

/** Everything a running service holds open, so it can be closed in one call. */
export interface Service {
  app: App;
  storage: Storage;
  deps: AuthDeps;
  plans: PlansDeps;
  close(): Promise<void>;
}

export interface ServiceOptions {
  /** A ready storage (tests pass their own isolated database); otherwise `config.databaseUrl` is opened. */
  storage?: Storage;
  now?: () => number;
}

function counters(storage: Storage, redis: Redis | undefined, prefix: string): Counters {
  return redis ? createRedisCounters(redis, prefix) : createDbCounters(storage.db);
}

/** Stores and settings of the authorization service over one storage. */
export function authDeps(
  config: Config,
  storage: Storage,
  logger: Logger,
  redis?: Redis,
  now = Date.now,
): AuthDeps {
  const auditLog = logger.child({ channel: 'audit' });
  return {
    apps: createAppStore(storage.db),
    enrollees: createEnrolleeStore(storage.db),
    sessions: createSessionStore(storage.db),
    tokens: createTokenStore(storage.db, storage.dialect),
    fhir: createFhirStore(storage.db),
    connectedApps: createConnectedAppStore(storage.db),
    counters: counters(storage, redis, config.redisKeyPrefix),
    audit: (event, fields) => auditLog.info({ event, ...fields }, event),
    now,
    settings: {
      publicUrl: config.publicUrl,
      sandbox: config.mode === 'sandbox',
      accessTokenTtlSeconds: config.accessTokenTtlSeconds,
      codeTtlSeconds: 60,
      approvalTtlSeconds: 600,
      sessionTtlSeconds: 5400,
      loginMaxFailures: config.loginMaxFailures,
      loginLockoutSeconds: config.loginLockoutSeconds,
      secureCookies: config.publicUrl.startsWith('https:'),
    },
  };
}

/** Stores and settings of the plan API over one storage. */
export function plansDeps(config: Config, storage: Storage, redis?: Redis, now = Date.now): PlansDeps {
  const datasets = createDatasetStore(storage.db);
  const planDetails = createPlanDetailStore(storage.db);
  const geography = createGeographyStore(storage.db);
  const ratingAreas = createRatingAreaStore(storage.db);
  const medicaid = createMedicaidStore(storage.db);
  const samples = createSampleTracker(() => datasets.listDatasets(), now);
  return {
    apiKeys: createApiKeyStore(storage.db, storage.changeCounter),
    datasets,
    geography,
    ratingAreas,
    marketplace: createMarketplaceStore(storage.db),
    medicaid,
    issuers: createIssuerStore(storage.db),
    planDetails,
    markets: createMarketService({
      reader: createCountyMarketReader(storage.db, planDetails),
      geography,
      ratingAreas,
      medicaid,
      samples,
    }),
    quality: createQualityStore(storage.db),
    crosswalks: createCrosswalkStore(storage.db),
    rateCounters: redis ? createRedisCounters(redis, config.redisKeyPrefix) : createMemoryCounters(),
    samples,
    now,
    settings: { publicUrl: config.publicUrl, sandbox: config.mode === 'sandbox' },
  };
}

/** Builds the whole service: storage migrated, sandbox data ready, both services' routes registered. */
export async function buildService(
  config: Config,
  logger: Logger,
  options: ServiceOptions = {},
): Promise<Service> {
  const storage = options.storage ?? (await connect(config.databaseUrl));
  await migrate(storage);
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 })
    : undefined;
  const deps = authDeps(config, storage, logger, redis, options.now);
  const plans = plansDeps(config, storage, redis, options.now);
  if (config.mode === 'sandbox') {
    await ensureSandboxEnrollees(deps.enrollees, config.sandboxEnrollees, deps.now());
    await ensureSandboxClaims(deps, config.sandboxEnrollees, deps.now());
    await ensureSandboxApiKey(plans.apiKeys, config, plans.now());
    if (config.sampleMarket) await ensureSampleMarket(storage, plans.now());
  }
  const app = await createHttpServer({
    logger,
    trustProxy: config.trustProxy,
    renderPage: renderErrorForRequest,
    errorShapes: { [PLAN_API_PREFIX]: 'plans' },
  });
  await collectApiDocs(app, config.publicUrl, '0.1.0', PLAN_API_SECURITY_SCHEMES);
  app.get('/health', { schema: { hide: true } }, async () => {
    await deps.enrollees.countEnrollees();
    return { status: 'ok' };
  });
  registerAuthService(app, deps);
  await registerPlansService(app, plans);
  await serveApiDocs(app, [
    {
      prefix: PLAN_API_PREFIX,
      title: 'openenroll plan API',
      description:
        'Health plan data (Marketplace API kind): plans, premiums and tax-credit estimates, geography, ' +
        'issuers, Medicaid and poverty guidelines. Every request carries an API key in the `apikey` query ' +
        'parameter (or header); limits and what remains of them are in the X-RateLimit-* and RateLimit-* headers.',
    },
  ]);
  await app.ready();
  return {
    app,
    storage,
    deps,
    plans,
    async close() {
      await app.close();
      redis?.disconnect();
      if (!options.storage) await storage.close();
    },
  };
}
