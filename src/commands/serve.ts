import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { createLogger } from '../shared/logger.js';

export function registerServeCommands(program: Command): void {
  program
    .command('serve')
    .description('migrate the database, prepare sandbox data and serve both APIs (PORT, default 8000)')
    .action(async () => {
      const config = loadConfig();
      const logger = createLogger(config.logLevel);
      // Loaded here, not at the top: every other command starts without importing the whole service.
      const { buildService } = await import('../server.js');
      const service = await buildService(config, logger);
      const purge = setInterval(() => {
        const now = Date.now();
        Promise.all([service.deps.sessions.purgeExpired(now), service.deps.tokens.purgeStale(now)]).catch(
          (err: unknown) => logger.warn({ err }, 'purge failed'),
        );
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
      logger.info(
        { mode: config.mode, publicUrl: config.publicUrl, database: config.databaseUrl.split(':')[0] },
        'ready',
      );
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
