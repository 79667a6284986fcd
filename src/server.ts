import { AUTHORIZATION_DESCRIPTION, AUTHORIZATION_TAG, BEARER_SECURITY_SCHEME } from './auth/openapi.js';
import { detailErrors, pageErrors } from './auth/errors.js';
import { fhirErrors } from './fhir/errors.js';
import { planErrors } from './plans/errors.js';
import { priceLookupErrors } from './prices/errors.js';
import type { Redis } from 'ioredis';
import { ConfigError, type Config } from './config.js';
import { createHttpServer, type App } from './shared/http.js';
import type { Logger } from './shared/logger.js';
import { collectApiDocs, serveApiDocs } from './shared/openapi.js';
import { connect, migrate, type Storage } from './storage/connect.js';
import {
  createDbCounters,
  createFallbackCounters,
  createRedisCounters,
  type Counters,
} from './storage/counters.js';
import { createAvailability, type Availability } from './storage/availability.js';
import { classifyUnavailable, isStatementTimeout } from './storage/unavailable.js';
import { createDatabaseProbe, registerHealthRoutes } from './ops/health.js';
import { registerIndexRoute } from './ops/index-route.js';
import { createMetrics, type Metrics } from './ops/metrics.js';
import { registerMetricsRoute } from './ops/metrics-routes.js';
import { UnavailableError } from './shared/errors.js';
import { registerAuthService } from './auth/app.js';
import { authenticateBearer } from './auth/oauth/bearer.js';
import { registerFhirService } from './fhir/routes/fhir.js';
import type { FhirDeps } from './fhir/deps.js';
import { createPatientPort } from './fhir/patient-port.js';
import type { AuthDeps } from './auth/deps.js';
import { renderErrorForRequest } from './auth/pages/error-page.js';
import { createAppStore } from './auth/store/apps.js';
import { createEnrolleeStore } from './auth/store/enrollees.js';
import { createIdentityStore } from './auth/store/identities.js';
import { createIdpRequestStore } from './auth/store/idp-requests.js';
import { createIdentityProvider } from './auth/federation/identity-provider.js';
import { createSessionStore } from './auth/store/sessions.js';
import { createTokenStore } from './auth/store/tokens.js';
import { createSigningKeyStore } from './auth/store/signing-keys.js';
import { ID_TOKEN_TTL_SECONDS } from './auth/oauth/signing-keys.js';
import { ensureSandboxEnrollees } from './auth/sandbox/enrollees.js';
import { createFhirStore } from './fhir/store/resources.js';
import { BodyCache } from './fhir/store/body-cache.js';
import { rifClaimSources } from './fhir/bfd/claim-source.js';
import { createConnectedAppStore } from './auth/store/connected-apps.js';
import { ensureSampleMarket } from './ingest/sample-market.js';
import { PLAN_API_PREFIX, PLAN_API_SECURITY_SCHEMES, registerPlansService } from './plans/app.js';
import type { PlansDeps } from './plans/deps.js';
import { createApiKeyStore } from './plans/store/api-keys.js';
import { createDatasetStore, isPublicDataset } from './storage/datasets.js';
import { createCrosswalkStore } from './plans/store/crosswalk.js';
import { createDrugService } from './plans/drugs/drug-service.js';
import { createDrugStore } from './plans/store/drugs.js';
import { createProviderService } from './plans/providers/provider-service.js';
import { createProviderStore } from './plans/store/providers.js';
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
import { createBulkService } from './plans/bulk/build.js';
import { createBulkDocumentStore } from './plans/store/bulk-documents.js';
import { createBulkSourceStore } from './plans/store/bulk-sources.js';
import { apiKeyGate } from './plans/gateway/api-key.js';
import { sampleLabel, usesData } from './plans/gateway/sample-data.js';
import { createPriceStore } from './prices/store/prices.js';
import { PRICE_LOOKUP_PREFIX, registerPriceLookupService } from './prices/app.js';
import type { PricesDeps } from './prices/deps.js';
import { registerPortalService } from './portal/app.js';
import { portalErrors } from './portal/errors.js';
import { AppRuleError, type AppsPort, type KeysPort, type PortalDeps } from './portal/deps.js';
import { createLogMailer, createSmtpMailer } from './portal/accounts/mailer.js';
import { createDeveloperStore } from './portal/store/developers.js';
import { editApp, registerApp, RegistrationError, rotateClientSecret } from './auth/oauth/registration.js';
import { DuplicateAppNameError } from './auth/store/apps.js';
import { countSource, sourceOf } from './auth/consent/source-limits.js';
import { requestsToday } from './plans/gateway/rate-limit.js';
import { PRICE_LOOKUP_DOCS, PRICE_LOOKUP_SECURITY_SCHEMES } from './prices/openapi.js';

/** Everything a running service holds open, so it can be closed in one call. */
export interface Service {
  app: App;
  storage: Storage;
  deps: AuthDeps;
  fhir: FhirDeps;
  plans: PlansDeps;
  /** Whether the database and Redis (when configured) answer, as last seen. */
  dependencies: { database: Availability; redis?: Availability };
  /** Prometheus metrics of this instance (served per `METRICS_TOKEN` / `METRICS_PORT`). */
  metrics: Metrics;
  /** Begins a graceful shutdown: readiness fails from now on; requests are still served. */
  startDraining(): void;
  /** Stops accepting connections, lets requests in flight finish, then closes Redis and the database. */
  close(): Promise<void>;
}

/** A Redis client with what is known of its health. */
export interface RedisLink {
  client: Redis;
  availability: Availability;
}

export interface ServiceOptions {
  /** A ready storage (tests pass their own isolated database); otherwise `config.databaseUrl` is opened. */
  storage?: Storage;
  now?: () => number;
}

/**
 * Login lock-out counters: in Redis when configured, else in the database. While Redis is down they are
 * counted in the database, which every instance shares, so a lock-out still holds across instances.
 */
function counters(storage: Storage, redis: RedisLink | undefined, prefix: string): Counters {
  const db = createDbCounters(storage.db);
  if (!redis) return db;
  return createFallbackCounters(createRedisCounters(redis.client, prefix), db, redis.availability);
}

/**
 * Rate-limit counters (plan-API keys, per-source sign-in limits): in Redis when configured (one budget for
 * every instance), else in this process. While Redis is down each instance counts in its own process (Kong's `fault_tolerant`): a
 * deployment of N instances admits up to N times a key's limit for the outage, and no request fails.
 */
function rateCounters(redis: RedisLink | undefined, prefix: string): Counters {
  const memory = createMemoryCounters();
  if (!redis) return memory;
  return createFallbackCounters(createRedisCounters(redis.client, prefix), memory, redis.availability);
}

/** Stores and settings of the authorization service over one storage. */
export function authDeps(
  config: Config,
  storage: Storage,
  logger: Logger,
  redis?: RedisLink,
  now = Date.now,
): AuthDeps {
  const auditLog = logger.child({ channel: 'audit' });
  return {
    apps: createAppStore(storage.db, storage.changeCounter),
    enrollees: createEnrolleeStore(storage.db),
    sessions: createSessionStore(storage.db),
    identities: createIdentityStore(storage.db),
    idpRequests: createIdpRequestStore(storage.db),
    identityProvider: config.idp && createIdentityProvider(config.idp, config.publicUrl),
    tokens: createTokenStore(storage.db, storage.dialect, {
      tokenDb: storage.tokenDb,
      ...(storage.changeCounter ? { changeCounter: storage.changeCounter } : {}),
    }),
    signingKeys: createSigningKeyStore(storage.db),
    patients: createPatientPort(createFhirStore(storage.db, rifClaimSources)),
    connectedApps: createConnectedAppStore(storage.db),
    counters: counters(storage, redis, config.redisKeyPrefix),
    sourceCounters: rateCounters(redis, config.redisKeyPrefix),
    audit: (event, fields) => auditLog.info({ event, ...fields }, event),
    now,
    settings: {
      publicUrl: config.publicUrl,
      sandbox: config.mode === 'sandbox',
      accessTokenTtlSeconds: config.accessTokenTtlSeconds,
      idTokenTtlSeconds: ID_TOKEN_TTL_SECONDS,
      codeTtlSeconds: 60,
      approvalTtlSeconds: 600,
      sessionTtlSeconds: 5400,
      loginMaxFailures: config.loginMaxFailures,
      loginLockoutSeconds: config.loginLockoutSeconds,
      signInWindows: [
        { seconds: 60, limit: config.signInPerMinute },
        { seconds: 3600, limit: config.signInPerHour },
      ],
      secureCookies: config.secureTransport,
    },
  };
}

/** The FHIR data service over one storage. It takes one thing from the authorization service: its Bearer check. */
export function fhirDeps(storage: Storage, auth: AuthDeps, bodyCacheMb = 0): FhirDeps {
  // The body cache reads PostgreSQL's row versions; SQLite reads its bodies in process and needs none.
  const bodyCache =
    storage.dialect.name === 'postgres' && bodyCacheMb > 0
      ? new BodyCache(bodyCacheMb * 1024 * 1024)
      : undefined;
  return {
    fhir: createFhirStore(storage.db, rifClaimSources, {
      batchedReads: storage.dialect.batchedStatements,
      patientCounts: storage.dialect.patientCounts,
      bodyCache,
    }),
    publicUrl: auth.settings.publicUrl,
    now: auth.now,
    authenticate: (authorization, queryHasToken) => authenticateBearer(auth, authorization, queryHasToken),
  };
}

/** Stores and settings of the plan API over one storage. */
export function plansDeps(config: Config, storage: Storage, redis?: RedisLink, now = Date.now): PlansDeps {
  const datasets = createDatasetStore(storage.db);
  const planDetails = createPlanDetailStore(storage.db);
  const geography = createGeographyStore(storage.db);
  const ratingAreas = createRatingAreaStore(storage.db);
  const medicaid = createMedicaidStore(storage.db);
  const samples = createSampleTracker(
    async () => (await datasets.listDatasets()).filter(isPublicDataset),
    now,
  );
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
    drugs: createDrugService(createDrugStore(storage.db)),
    providers: createProviderService(createProviderStore(storage.db), {
      radiusMiles: config.providerRadiusMiles,
    }),
    bulk: createBulkService({
      documents: createBulkDocumentStore(storage.db),
      sources: createBulkSourceStore(storage.db),
      now,
    }),
    rateCounters: rateCounters(redis, config.redisKeyPrefix),
    samples,
    now,
    settings: {
      publicUrl: config.publicUrl,
      sandbox: config.mode === 'sandbox',
      providerRadiusMiles: config.providerRadiusMiles,
      bulkDataUrl: config.bulkDataUrl,
    },
  };
}

/**
 * The price lookup over one storage. It answers to the plan API's keys and limits and shares its record of
 * loaded (sample) datasets: both are the plan API's, handed over here as a check and a port.
 */
export function pricesDeps(config: Config, storage: Storage, plans: PlansDeps): PricesDeps {
  return {
    prices: createPriceStore(storage.db),
    checkKey: apiKeyGate(plans),
    samples: {
      datasets: () => plans.samples.datasets(),
      uses: usesData,
      label: (text) => sampleLabel(plans.samples, text),
    },
    settings: { amaLicense: config.pplAmaLicense },
  };
}

/** The registration rules' refusals, as the portal knows them. */
async function underAppRules<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RegistrationError || error instanceof DuplicateAppNameError) {
      throw new AppRuleError(error.message);
    }
    throw error;
  }
}

/** The authorization service's apps as the portal uses them: the rules and rows of `apps create`. */
function portalApps(auth: AuthDeps): AppsPort {
  const { apps } = auth;
  return {
    register: (form, developerId, review, now) =>
      underAppRules(() => registerApp(apps, { ...form, developerId }, now, review)),
    edit: (clientId, form, now) =>
      underAppRules(() => editApp(apps, clientId, form, now).then(() => undefined)),
    rotateSecret: (clientId, now) => rotateClientSecret(apps, clientId, now),
    find: (clientId) => apps.findApp(clientId),
    listOf: (developerId) => apps.listApps(developerId),
    remove: (clientId) => apps.deleteApp(clientId).then(() => undefined),
  };
}

/** The plan API's keys as the portal uses them: the key store of `keys create` and its counters. */
function portalKeys(config: Config, plans: PlansDeps): KeysPort {
  return {
    create: (name, developerId, now) =>
      plans.apiKeys.createKey(
        {
          name,
          developerId,
          perSecond: config.apiRatePerSecond,
          perMinute: config.apiRatePerMinute,
          expiresAt: null,
        },
        now,
      ),
    listOf: (developerId) => plans.apiKeys.listKeys(developerId),
    revoke: (id, now) => plans.apiKeys.revokeKey(id, now),
    requestsToday: (id, now) => requestsToday(plans.rateCounters, id, now),
  };
}

/** The developer portal over one storage, with the apps and keys of the other services as ports. */
export function portalDeps(
  config: Config,
  storage: Storage,
  logger: Logger,
  auth: AuthDeps,
  plans: PlansDeps,
): PortalDeps {
  const auditLog = logger.child({ channel: 'audit' });
  return {
    developers: createDeveloperStore(storage.db),
    apps: portalApps(auth),
    keys: portalKeys(config, plans),
    mailer: config.smtpUrl
      ? createSmtpMailer(config.smtpUrl, config.smtpFrom)
      : createLogMailer((fields, message) => {
          // Only the sandbox shows its links; production without a mail server sends none.
          if (config.mode === 'sandbox') logger.info(fields, message);
        }),
    counters: auth.counters,
    limitSource: async (action, ip) => {
      const retryAfter = await countSource(
        auth.sourceCounters,
        action,
        sourceOf(ip),
        auth.settings.signInWindows,
        auth.now(),
      );
      if (retryAfter !== undefined) auth.audit('sign_in_source_limited', { action, source: sourceOf(ip) });
      return retryAfter;
    },
    audit: (event, fields) => auditLog.info({ event, ...fields }, event),
    now: auth.now,
    settings: {
      publicUrl: config.publicUrl,
      sandbox: config.mode === 'sandbox',
      secureCookies: config.secureTransport,
      sessionTtlSeconds: 8 * 3600,
      linkTtlSeconds: 24 * 3600,
      loginMaxFailures: config.loginMaxFailures,
      loginLockoutSeconds: config.loginLockoutSeconds,
    },
  };
}

/**
 * Opens Redis and waits briefly for it; when it does not answer, the service starts degraded. A server
 * that answers but is too old for the counters stops the start (ConfigError names the version needed).
 */
async function connectRedis(config: Config, logger: Logger): Promise<RedisLink> {
  const availability = createAvailability('redis', {
    logger,
    consequence: 'rate limits count in each process and login lock-outs in the database until it is back',
  });
  // ioredis is loaded only by a service configured with Redis.
  const { openRedis, redisReady, redisServerProblem } = await import('./storage/redis.js');
  const client = openRedis(config.redisUrl!, {
    commandTimeoutMs: config.redisCommandTimeoutMs,
    availability,
  });
  if (await redisReady(client, Math.max(2000, config.redisCommandTimeoutMs))) {
    const problem = await redisServerProblem(client, (reason) =>
      logger.warn({ event: 'redis_version_unknown', reason }, 'Redis version unknown; using it as it is'),
    );
    if (problem) {
      client.disconnect();
      throw new ConfigError('REDIS_URL', problem);
    }
  }
  return { client, availability };
}

/** Builds the whole service: storage migrated, sandbox data ready, both services' routes registered. */
export async function buildService(
  config: Config,
  logger: Logger,
  options: ServiceOptions = {},
): Promise<Service> {
  const storage =
    options.storage ??
    (await connect(config.databaseUrl, {
      poolSize: config.dbPoolSize,
      connectTimeoutMs: config.dbConnectTimeoutMs,
      queryTimeoutMs: config.dbQueryTimeoutMs,
      tokenCommit: config.dbTokenCommit,
      batchStatements: config.dbBatch === 'on',
    }));
  await migrate(storage);
  const database = createAvailability('database', {
    logger,
    consequence: 'requests that need it are answered 503 with Retry-After',
  });
  storage.onConnectionError?.((error) => database.failed(error));
  const probe = createDatabaseProbe(storage, database, config.dbConnectTimeoutMs);
  const redis = config.redisUrl
    ? await connectRedis(config, logger).catch(async (error: unknown) => {
        probe.stop();
        if (!options.storage) await storage.close();
        throw error;
      })
    : undefined;
  const deps = authDeps(config, storage, logger, redis, options.now);
  if (config.mode === 'production' && !config.idp) {
    logger.warn(
      { event: 'sign_in_not_configured' },
      'production mode without an identity provider (IDP_ISSUER): enrollees cannot sign in, so no app can get a token',
    );
  }
  // Discovered now so a wrong issuer shows in the start-up log, not at a member's first sign-in; a failure
  // only warns (the IdP may come up later; each sign-in tries again).
  void deps.identityProvider?.configuration().then(
    () =>
      logger.info({ event: 'idp_discovered', issuer: config.idp!.issuer }, 'identity provider discovered'),
    (err: unknown) =>
      logger.warn(
        { event: 'idp_unreachable', issuer: config.idp!.issuer, err },
        'identity provider discovery failed; sign-in answers 503 until it succeeds',
      ),
  );
  const fhir = fhirDeps(storage, deps, config.fhirBodyCacheMb);
  const plans = plansDeps(config, storage, redis, options.now);
  if (config.mode === 'sandbox') {
    await ensureSandboxEnrollees(deps, config.sandboxEnrollees, deps.now());
    // The claims generator and the RIF ingest are imported only when there are claims to make: a restart
    // over stored data does not load them.
    if (config.sandboxEnrollees > 0 && (await fhir.fhir.countResources()) === 0) {
      const { ensureSandboxClaims } = await import('./ingest/sandbox-claims.js');
      await ensureSandboxClaims(
        { db: storage.db, enrollees: deps.enrollees },
        config.sandboxEnrollees,
        config.sandboxClaims,
        deps.now(),
      );
    }
    await ensureSandboxApiKey(plans.apiKeys, config, plans.now());
    if (config.sampleMarket) await ensureSampleMarket(storage, plans.now());
  }
  const app = await createHttpServer({
    logger,
    trustProxy: config.trustProxy,
    renderPage: renderErrorForRequest,
    // Each surface's renderer for paths none of its routes serve (a route's own config decides for the rest).
    errorRenderers: {
      [PLAN_API_PREFIX]: planErrors,
      [PRICE_LOOKUP_PREFIX]: priceLookupErrors,
      '/v2/fhir': fhirErrors,
      '/v2/o/tokens': detailErrors,
      '/v2/accounts': pageErrors,
      '/developers': portalErrors,
    },
    isTimedOut: isStatementTimeout,
    isUnavailable: (error) => {
      const how = classifyUnavailable(error);
      if (how === 'stalled') database.stalled(error, Date.now());
      else if (how) database.failed(error);
      return how !== undefined;
    },
  });
  // RFC 6797: once a browser has seen the service over https, it never tries plain http again. Sent on
  // every response (errors and 404s too) but only under an https PUBLIC_URL: over http it is ignored anyway
  // and a local sandbox must stay reachable.
  if (config.secureTransport && config.hstsMaxAgeSeconds > 0) {
    const hsts = `max-age=${config.hstsMaxAgeSeconds}`;
    app.addHook('onSend', (_request, reply, payload, done) => {
      reply.header('strict-transport-security', hsts);
      done(null, payload);
    });
  }
  // While the database stalls, requests that need it are answered at once instead of each waiting out
  // the timeout; one request a second goes through to try it again, and its success ends the outage.
  const trials = new WeakSet<object>();
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.routeOptions.config?.offline === true || database.isUp()) {
      done();
      return;
    }
    if (database.shouldFailFast(Date.now())) {
      done(new UnavailableError('database'));
      return;
    }
    trials.add(request);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode < 400 && trials.has(request)) database.succeeded();
    done();
  });
  const dependencies = { database, ...(redis ? { redis: redis.availability } : {}) };
  const metrics = createMetrics({
    storage,
    dependencies,
    planApiPrefix: PLAN_API_PREFIX,
    fhirBodyCache: () => fhir.fhir.bodyCacheStats(),
  });
  metrics.observe(app);
  if (config.metricsToken) registerMetricsRoute(app, metrics, config.metricsToken);
  let draining = false;
  await collectApiDocs(app, {
    publicUrl: config.publicUrl,
    version: '0.1.0',
    title: 'openenroll',
    description:
      `${AUTHORIZATION_DESCRIPTION} and the health plan API. Token-side requests are form-encoded; client ` +
      'credentials by HTTP Basic or in the body.',
    tags: [AUTHORIZATION_TAG],
    securitySchemes: {
      ...BEARER_SECURITY_SCHEME,
      ...PLAN_API_SECURITY_SCHEMES,
      ...PRICE_LOOKUP_SECURITY_SCHEMES,
    },
  });
  registerHealthRoutes(app, {
    storage,
    probe,
    redis: redis?.availability,
    draining: () => draining,
  });
  registerIndexRoute(app, config.publicUrl, { planApi: PLAN_API_PREFIX, priceLookup: PRICE_LOOKUP_PREFIX });
  registerAuthService(app, deps);
  registerFhirService(app, fhir);
  await registerPlansService(app, plans);
  await registerPriceLookupService(app, pricesDeps(config, storage, plans));
  registerPortalService(app, portalDeps(config, storage, logger, deps, plans));
  await serveApiDocs(app, [
    {
      prefix: PLAN_API_PREFIX,
      title: 'openenroll plan API',
      description:
        'Health plan data (Marketplace API kind): plans, premiums and tax-credit estimates, geography, ' +
        'issuers, Medicaid and poverty guidelines. Every request carries an API key in the `apikey` query ' +
        'parameter (or header); limits and what remains of them are in the X-RateLimit-* and RateLimit-* headers.',
    },
    PRICE_LOOKUP_DOCS,
  ]);
  await app.ready();
  return {
    app,
    storage,
    deps,
    fhir,
    plans,
    dependencies,
    metrics,
    startDraining() {
      draining = true;
    },
    async close() {
      draining = true;
      await app.close();
      probe.stop();
      redis?.client.disconnect();
      if (!options.storage) await storage.close();
    },
  };
}
