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
      const stop = async (signal: string) => {
        logger.info({ signal }, 'shutting down');
        clearInterval(purge);
        await service.close();
        process.exit(0);
      };
      process.once('SIGINT', () => void stop('SIGINT'));
      process.once('SIGTERM', () => void stop('SIGTERM'));
      await service.app.listen({ port: config.port, host: config.host });
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
