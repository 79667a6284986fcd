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

const WINDOWS = [
  { name: 'Second', seconds: 1 },
  { name: 'Minute', seconds: 60 },
] as const;

/**
 * Fixed windows aligned to the clock, so every instance counting in one Redis agrees on where a window
 * starts: the counter's name carries the window's number. A request counts even when refused.
 */
export async function consumeRateLimit(counters: Counters, key: ApiKey, now: number): Promise<LimitDecision> {
  const windows = await Promise.all(
    WINDOWS.map(async ({ name, seconds }) => {
      const span = seconds * 1000;
      const index = Math.floor(now / span);
      const limit = name === 'Second' ? key.perSecond : key.perMinute;
      const count = await counters.hit(`rl:${key.id}:${seconds}:${index}`, seconds + 1, now);
      return {
        name,
        limit,
        remaining: Math.max(0, limit - count),
        reset: Math.max(1, Math.ceil(((index + 1) * span - now) / 1000)),
        over: count > limit,
      };
    }),
  );
  const allowed = windows.every((w) => !w.over);
  const refused = windows.filter((w) => w.over);
  const pool = refused.length > 0 ? refused : windows;
  const tightest = pool.reduce((a, b) => (b.remaining / b.limit < a.remaining / a.limit ? b : a));
  const strip = ({ name, limit, remaining, reset }: WindowState) => ({ name, limit, remaining, reset });
  return {
    allowed,
    windows: windows.map(strip),
    // When refused, the longest exhausted window decides when to come back.
    tightest: strip(refused.length > 0 ? refused.reduce((a, b) => (b.reset > a.reset ? b : a)) : tightest),
  };
}

/** The response headers of a decision (Kong's rate-limiting plugin names, research §2). */
export function rateLimitHeaders(decision: LimitDecision): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const w of decision.windows) {
    headers[`x-ratelimit-limit-${w.name.toLowerCase()}`] = String(w.limit);
    headers[`x-ratelimit-remaining-${w.name.toLowerCase()}`] = String(w.remaining);
  }
  headers['ratelimit-limit'] = String(decision.tightest.limit);
  headers['ratelimit-remaining'] = String(decision.tightest.remaining);
  headers['ratelimit-reset'] = String(decision.tightest.reset);
  return headers;
}
