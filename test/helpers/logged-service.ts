import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/shared/logger.js';
import { buildService } from '../../src/server.js';
import { createClock, createTestDatabase, redisEnv, type RunningService } from './service.js';

export interface LoggedService extends RunningService {
  /** Every log line the service wrote, as raw JSON text. */
  lines: string[];
  /** The parsed lines. */
  records(): Record<string, unknown>[];
}

/** A log destination in memory: the raw lines, and the parsed records. */
export function memoryLog() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const records = (): Record<string, unknown>[] =>
    lines.flatMap((l) => l.split('\n').filter(Boolean)).map((l) => JSON.parse(l) as Record<string, unknown>);
  return { lines, sink, records };
}

/**
 * Starts the real service like `startService` (on `port` when the caller must know it first), with its logs
 * at `info` written to memory. The logger is the production one (src/shared/logger.ts) writing to memory.
 */
export async function startServiceWithLogs(
  env: Record<string, string> = {},
  port = 0,
): Promise<LoggedService> {
  const { lines, sink, records } = memoryLog();
  const logger = createLogger('info', sink);
  const database = createTestDatabase();
  const storage = await database.open();
  const clock = createClock();
  const config = loadConfig({
    LOG_LEVEL: 'info',
    SANDBOX_ENROLLEES: '5',
    // Every suite signs in from 127.0.0.1, many times a minute; the per-source limits have suites of their own.
    SIGN_IN_PER_MINUTE: '1000000',
    SIGN_IN_PER_HOUR: '1000000',
    ...redisEnv(),
    ...env,
  });
  const service = await buildService(config, logger, { storage, now: clock.now });
  const address = await service.app.listen({ port, host: '127.0.0.1' });
  return {
    url: address,
    service,
    clock,
    database,
    lines,
    records,
    async close() {
      await service.close();
      await storage.close();
      await database.drop();
    },
  };
}
