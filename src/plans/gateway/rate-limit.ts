import type { Counters } from '../../shared/counters.js';
import type { ApiKey } from '../store/api-keys.js';

export interface WindowState {
  name: 'Second' | 'Minute';
  limit: number;
  remaining: number;
  /** Seconds until this window starts over. */
  reset: number;
}

export interface LimitDecision {
  allowed: boolean;
  windows: WindowState[];
  /** The window closest to exhaustion: what `RateLimit-*` and `Retry-After` describe. */
  tightest: WindowState;
}

/** The counter of a key's requests in the current UTC day. */
const dayCounter = (keyId: string, now: number) => `rl:${keyId}:day:${Math.floor(now / 86_400_000)}`;

/** Requests a key made since midnight UTC, refused ones included (counted where its limits are). */
export function requestsToday(counters: Counters, keyId: string, now: number): Promise<number> {
  return counters.peek(dayCounter(keyId, now), now);
}

/**
 * Fixed windows aligned to the clock, so every instance counting in one Redis agrees on where a window
 * starts: the counter's name carries the window's number. A request counts even when refused. Both
 * windows are counted at once (one round trip's wait with Redis).
 */
export async function consumeRateLimit(counters: Counters, key: ApiKey, now: number): Promise<LimitDecision> {
  const second = Math.floor(now / 1000);
  const minute = Math.floor(now / 60_000);
  const [inSecond, inMinute] = await Promise.all([
    counters.hit(`rl:${key.id}:1:${second}`, 2, now),
    counters.hit(`rl:${key.id}:60:${minute}`, 61, now),
    // Not a limit: the day's count the developer portal shows beside the key (docs/portal.md#keys).
    counters.hit(dayCounter(key.id, now), 86_401, now),
  ]);
  const windows = [
    windowState('Second', key.perSecond, inSecond, (second + 1) * 1000 - now),
    windowState('Minute', key.perMinute, inMinute, (minute + 1) * 60_000 - now),
  ] as const;
  const over = [inSecond > key.perSecond, inMinute > key.perMinute];
  if (!over[0] && !over[1]) {
    const [s, m] = windows;
    // The window closest to exhaustion (the first on a tie).
    return {
      allowed: true,
      windows: [...windows],
      tightest: m.remaining / m.limit < s.remaining / s.limit ? m : s,
    };
  }
  // When refused, the longest exhausted window decides when to come back.
  const refused = windows.filter((_, i) => over[i]);
  return {
    allowed: false,
    windows: [...windows],
    tightest: refused.reduce((a, b) => (b.reset > a.reset ? b : a)),
  };
}

function windowState(name: WindowState['name'], limit: number, count: number, msLeft: number): WindowState {
  return {
    name,
    limit,
    remaining: Math.max(0, limit - count),
    reset: Math.max(1, Math.ceil(msLeft / 1000)),
  };
}

const HEADER_NAMES: Readonly<Record<WindowState['name'], { limit: string; remaining: string }>> = {
  Second: { limit: 'x-ratelimit-limit-second', remaining: 'x-ratelimit-remaining-second' },
  Minute: { limit: 'x-ratelimit-limit-minute', remaining: 'x-ratelimit-remaining-minute' },
};

/**
 * The response headers of a decision (Kong's rate-limiting plugin names: docs/decisions.md#plan-rate-limits).
 */
export function rateLimitHeaders(decision: LimitDecision): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const w of decision.windows) {
    const names = HEADER_NAMES[w.name];
    headers[names.limit] = String(w.limit);
    headers[names.remaining] = String(w.remaining);
  }
  headers['ratelimit-limit'] = String(decision.tightest.limit);
  headers['ratelimit-remaining'] = String(decision.tightest.remaining);
  headers['ratelimit-reset'] = String(decision.tightest.reset);
  return headers;
}
