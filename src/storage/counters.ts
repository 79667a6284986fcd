import type { Kysely } from 'kysely';
import type { Redis } from 'ioredis';
import type { Counters } from '../shared/counters.js';
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

export function createRedisCounters(redis: Redis, prefix = 'openenroll:'): Counters {
  return {
    async hit(key, windowSeconds) {
      const full = prefix + key;
      const [[, count]] = (await redis
        .multi()
        .incr(full)
        .pexpire(full, windowSeconds * 1000, 'NX')
        .exec()) as [[unknown, number]];
      return count;
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
