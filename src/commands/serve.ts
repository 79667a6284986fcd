import type { Command } from 'commander';
import { loadConfig, type Config } from '../config.js';
import { createLogger } from '../shared/logger.js';
import type { Service } from '../server.js';
import { copySandboxTemplate } from './sandbox-template.js';

/**
 * The plan-API test key CMS prints in its API document, which this README publishes too: the only key a
 * log line may show. A key an operator chose with SANDBOX_API_KEY is theirs, so only its presence is said.
 */
const PUBLISHED_SANDBOX_KEY = 'd687412e7b53146b2631dc01974ad0a4';

/**
 * What a start prepared and where to go next, for the one "ready" line a new user reads: the sandbox
 * enrollees and their claims, the plan data served (the generated sample market and its years, or real
 * data), the sandbox key when it is the published one, and the documentation URLs. Never a secret.
 */
async function startupSummary(config: Config, service: Service) {
  const { marketYears } = await import('../plans/market-years.js');
  const { PLAN_KINDS } = await import('../plans/tables/plan-kinds.js');
  const [enrollees, claimsResources, datasets] = await Promise.all([
    service.deps.enrollees.countEnrollees(),
    service.fhir.fhir.countResources(),
    service.plans.datasets.listDatasets(),
  ]);
  const years = marketYears(datasets);
  const planYears = (sample: boolean) => [
    ...new Set(
      datasets
        .filter((d) => d.sample === sample && (PLAN_KINDS as readonly string[]).includes(d.kind))
        .map((d) => d.year),
    ),
  ];
  const sampleYears = planYears(true).sort((a, b) => a - b);
  const realYears = planYears(false).sort((a, b) => a - b);
  const key =
    config.mode !== 'sandbox' || config.sandboxApiKey === ''
      ? 'none'
      : config.sandboxApiKey === PUBLISHED_SANDBOX_KEY
        ? config.sandboxApiKey
        : '(set by SANDBOX_API_KEY)';
  const base = config.publicUrl;
  const fields = {
    mode: config.mode,
    publicUrl: base,
    database: config.databaseUrl.split(':')[0],
    enrollees,
    claimsResources,
    marketYears: years.supported,
    currentMarketYear: years.current ?? null,
    sampleMarketYears: sampleYears,
    realPlanYears: realYears,
    sandboxApiKey: key,
    identityProvider: config.idp?.issuer ?? null,
    docs: `${base}/docs`,
    planApiDocs: `${base}/api/v1/docs`,
    priceLookupDocs: `${base}/ppl/api/v1/docs`,
  };
  const plans =
    realYears.length > 0
      ? `plan data: real plans of ${realYears.join(', ')}` +
        (sampleYears.length > 0 ? ` and the generated sample market (${sampleYears.join(', ')})` : '')
      : sampleYears.length > 0
        ? `plan data: the generated sample market (${sampleYears.join(', ')}; not real plans)`
        : 'plan data: none loaded (openenroll ingest …)';
  const message =
    `ready at ${base}: ${enrollees} enrollees (openenroll enrollees list), ${claimsResources} FHIR claims ` +
    `resources; ${plans}; ` +
    (key === 'none' ? 'no sandbox API key; ' : `sandbox API key ${key}; `) +
    `docs ${base}/docs, ${base}/api/v1/docs, ${base}/ppl/api/v1/docs`;
  return { fields, message };
}

export function registerServeCommands(program: Command): void {
  program
    .command('serve')
    .description('migrate the database, prepare sandbox data and serve the APIs (PORT, default 8000)')
    .action(async () => {
      const config = loadConfig();
      const logger = createLogger(config.logLevel, undefined, config.logFormat);
      // A new SQLite sandbox database starts as a copy of the build's template when it was made for these
      // settings; otherwise buildService generates the data (docs/startup.md#sandbox-template).
      const template = copySandboxTemplate(config, Date.now());
      if ('copied' in template) {
        logger.info(
          { event: 'sandbox_template', database: template.copied },
          "new database: a copy of the build's sandbox template",
        );
      } else {
        logger.debug({ event: 'sandbox_template', skipped: template.skipped }, 'sandbox template not used');
      }
      // Loaded here, not at the top: every other command starts without importing the whole service.
      const { buildService } = await import('../server.js');
      const service = await buildService(config, logger);
      const purge = setInterval(() => {
        const now = Date.now();
        Promise.all([
          service.deps.sessions.purgeExpired(now),
          service.deps.idpRequests.purgeExpired(now),
          service.deps.tokens.purgeStale(now),
        ]).catch((err: unknown) => logger.warn({ err }, 'purge failed'));
      }, 60_000);
      purge.unref();
      // Graceful shutdown: readiness fails at once (a load balancer stops sending), requests keep being
      // served for SHUTDOWN_DELAY_SECONDS, then the listener closes and requests in flight finish; after
      // SHUTDOWN_GRACE_SECONDS more the process exits anyway.
      let stopping = false;
      let metricsServer: import('node:http').Server | undefined;
      const stop = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        logger.info({ signal, delaySeconds: config.shutdownDelaySeconds }, 'shutting down: draining');
        service.startDraining();
        clearInterval(purge);
        if (config.shutdownDelaySeconds > 0) {
          await new Promise((resolve) => setTimeout(resolve, config.shutdownDelaySeconds * 1000));
        }
        const force = setTimeout(() => {
          logger.warn(
            { graceSeconds: config.shutdownGraceSeconds },
            'requests still in flight; exiting anyway',
          );
          process.exit(1);
        }, config.shutdownGraceSeconds * 1000);
        force.unref();
        await service.close();
        metricsServer?.close();
        logger.info('stopped');
        process.exit(0);
      };
      process.once('SIGINT', () => void stop('SIGINT'));
      process.once('SIGTERM', () => void stop('SIGTERM'));
      await service.app.listen({ port: config.port, host: config.host });
      if (config.metricsPort !== undefined) {
        const { startMetricsServer } = await import('../ops/metrics-routes.js');
        metricsServer = await startMetricsServer(service.metrics, config.host, config.metricsPort);
        logger.info({ port: config.metricsPort }, 'metrics listening');
      }
      const summary = await startupSummary(config, service);
      logger.info({ ...summary.fields, event: 'ready' }, summary.message);
    });

  program
    .command('migrate')
    .description('bring the database schema up to date and exit')
    .action(async () => {
      const { withStorage } = await import('./context.js');
      const { migrate } = await import('../storage/connect.js');
      await withStorage(async (storage) => {
        const applied = await migrate(storage);
        console.log(applied.length ? `applied: ${applied.join(', ')}` : 'schema is up to date');
      });
    });
}
