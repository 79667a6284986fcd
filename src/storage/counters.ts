import type { Kysely } from 'kysely';
import type { Redis } from 'ioredis';
import type { Counters } from '../shared/counters.js';
import type { Availability } from './availability.js';
import type { Database } from './schema.js';

export type { Counters };

export function createDbCounters(db: Kysely<Database>): Counters {
  return {
    async hit(key, windowSeconds, now) {
      const expiresAt = now + windowSeconds * 1000;
      const row = await db
        .insertInto('counters')
        .values({ key, count: 1, expires_at: expiresAt })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet((eb) => ({
            count: eb
              .case()
              .when('counters.expires_at', '<=', now)
              .then(1)
              .else(eb('counters.count', '+', 1))
              .end(),
            expires_at: eb
              .case()
              .when('counters.expires_at', '<=', now)
              .then(expiresAt)
              .else(eb.ref('counters.expires_at'))
              .end(),
          })),
        )
        .returning('count')
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    async peek(key, now) {
      const row = await db
        .selectFrom('counters')
        .select('count')
        .where('key', '=', key)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row ? Number(row.count) : 0;
    },
    async reset(key) {
      await db.deleteFrom('counters').where('key', '=', key).execute();
    },
  };
}

/**
 * Fixed-window counters in Redis, one round trip per hit: `SET key 0 PX window NX` opens the window (the
 * key and its expiry, only when absent) and `INCR` counts in it, keeping the expiry. MULTI runs the pair
 * as one, so no key is ever left without its expiry. SET's PX and NX need Redis 2.6.12 (PEXPIRE's NX would
 * need 7.0); the service checks the server's version at start-up (redis-version.ts).
 */
export function createRedisCounters(redis: Redis, prefix = 'openenroll:'): Counters {
  return {
    async hit(key, windowSeconds) {
      const full = prefix + key;
      const replies = await redis
        .multi()
        .set(full, 0, 'PX', windowSeconds * 1000, 'NX')
        .incr(full)
        .exec();
      if (!replies) throw new Error('Redis discarded the transaction');
      // A command that failed inside EXEC is a reply, not a rejection: raised so the caller falls back.
      const failure = replies.find(([error]) => error)?.[0];
      if (failure) throw failure;
      return Number(replies[1]?.[1]);
    },
    async peek(key) {
      const value = await redis.get(prefix + key);
      return value === null ? 0 : Number(value);
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
  };
}

/**
 * Counters in this process only: the default for API rate limits when there is no Redis (one instance,
 * no shared budget). Expired entries are swept as the map grows.
 */
export function createMemoryCounters(): Counters {
  const entries = new Map<string, { count: number; expiresAt: number }>();
  let nextSweep = 0;
  const sweep = (now: number) => {
    if (entries.size < 10_000 && now < nextSweep) return;
    nextSweep = now + 10_000;
    for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key);
  };
  return {
    async hit(key, windowSeconds, now) {
      sweep(now);
      const entry = entries.get(key);
      if (!entry || entry.expiresAt <= now) {
        entries.set(key, { count: 1, expiresAt: now + windowSeconds * 1000 });
        return 1;
      }
      entry.count += 1;
      return entry.count;
    },
    async peek(key, now) {
      const entry = entries.get(key);
      return entry && entry.expiresAt > now ? entry.count : 0;
    },
    async reset(key) {
      entries.delete(key);
    },
  };
}

/**
 * Counters kept in `primary` (Redis) that keep counting in `fallback` while it fails, the way Kong's
 * rate limiting does with `fault_tolerant`: a request never fails or waits because the counter store is
 * down. After a failure `fallback` takes every call for a short quiet period, then one call tries
 * `primary` again; counting returns to `primary` at the first success. Counts made during the outage stay
 * in `fallback` and are not carried over (a window that spans the outage starts again in `primary`).
 */
export function createFallbackCounters(
  primary: Counters,
  fallback: Counters,
  availability: Availability,
): Counters {
  const use = async <T>(call: (counters: Counters) => Promise<T>, now: number): Promise<T> => {
    if (availability.shouldFailFast(now)) return call(fallback);
    try {
      const result = await call(primary);
      availability.succeeded();
      return result;
    } catch (error) {
      availability.stalled(error, now);
      return call(fallback);
    }
  };
  return {
    hit: (key, windowSeconds, now) => use((c) => c.hit(key, windowSeconds, now), now),
    peek: (key, now) => use((c) => c.peek(key, now), now),
    reset: async (key) => {
      // Both: a reset (a successful login) must not leave a lock-out counted during the outage behind.
      await Promise.all([use((c) => c.reset(key), Date.now()), fallback.reset(key)]);
    },
  };
}
