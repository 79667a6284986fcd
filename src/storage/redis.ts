import { once } from 'node:events';
import { Redis } from 'ioredis';
import type { Availability } from './availability.js';
import { redisVersion, redisVersionProblem } from './redis-version.js';

export interface RedisOptions {
  /** How long one command may take; past it the command fails and the caller falls back. */
  commandTimeoutMs: number;
  availability: Availability;
}

/**
 * A Redis client that never makes a request wait on a dead server: commands are not queued while it is
 * disconnected (they fail at once), each has a timeout, and the client reconnects in the background for
 * as long as the process lives. Its state is reported to `availability`, which logs each change once.
 */
export function openRedis(url: string, options: RedisOptions): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    commandTimeout: options.commandTimeoutMs,
    maxRetriesPerRequest: 0,
    connectTimeout: Math.max(1000, options.commandTimeoutMs * 4),
    // Reconnect forever, 100 ms after the first failure and at most 2 s apart after that.
    retryStrategy: (attempt) => Math.min(100 * 2 ** Math.min(attempt - 1, 5), 2000),
  });
  redis.on('error', (error: Error) => options.availability.failed(error));
  redis.on('ready', () => options.availability.succeeded());
  return redis;
}

/** Waits up to `ms` for the first connection; false when Redis did not answer (the service starts degraded). */
export async function redisReady(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === 'ready') return true;
  const timeout = AbortSignal.timeout(ms);
  try {
    await once(redis, 'ready', { signal: timeout });
    return true;
  } catch {
    return false;
  }
}

/**
 * Why the connected server cannot hold the counters (it is older than they need), or undefined. Plain
 * INFO, not `INFO server`: servers before 2.6 refuse a section argument. When INFO is refused (a managed
 * Redis may deny it) or names no version, the server is used as it is and `onUnknown` hears why.
 */
export async function redisServerProblem(
  redis: Redis,
  onUnknown: (reason: string) => void,
): Promise<string | undefined> {
  let info: string;
  try {
    info = await redis.info();
  } catch (error) {
    onUnknown(error instanceof Error ? error.message : String(error));
    return undefined;
  }
  if (redisVersion(info) === undefined) onUnknown('INFO names no redis_version');
  return redisVersionProblem(info);
}
