import { isIPv4, isIPv6 } from 'node:net';
import type { Counters } from '../../shared/counters.js';

/** One fixed window of a per-source limit: at most `limit` requests in `seconds`. */
export interface SourceWindow {
  seconds: number;
  limit: number;
}

/**
 * What is counted per source: password logins, sign-ins started at the identity provider, and the developer
 * portal's sign-ins and mail-sending forms.
 */
export type SourceAction = 'login' | 'idp-start' | 'developer-sign-in' | 'developer-mail';

/**
 * The client a request comes from, as a limit counts it: an IPv4 address (also when written IPv4-mapped),
 * or the /64 network of an IPv6 address — one host is routinely given a whole /64 (RFC 4291 §2.5.4), so
 * counting single addresses would let it rotate through billions.
 */
export function sourceOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  const [head, tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * Counts one `action` from `source` in each window (fixed windows aligned to the clock, so every instance
 * counting in one Redis agrees where a window starts) and returns undefined when it is allowed, or the
 * seconds until the exhausted windows start over. A refused request counts too: a client that keeps
 * trying stays refused. OWASP ASVS 4.0 V2.2.1: anti-automation on authentication, beside the per-account
 * lock-out, so one client can neither spray guesses across many usernames nor lock them all.
 */
export async function countSource(
  counters: Counters,
  action: SourceAction,
  source: string,
  windows: readonly SourceWindow[],
  now: number,
): Promise<number | undefined> {
  const counts = await Promise.all(
    windows.map((w) => {
      const index = Math.floor(now / (w.seconds * 1000));
      return counters.hit(`src:${action}:${w.seconds}:${index}:${source}`, w.seconds + 1, now);
    }),
  );
  let retryAfter: number | undefined;
  windows.forEach((w, i) => {
    if (counts[i]! <= w.limit) return;
    const ends = (Math.floor(now / (w.seconds * 1000)) + 1) * w.seconds * 1000;
    retryAfter = Math.max(retryAfter ?? 0, Math.max(1, Math.ceil((ends - now) / 1000)));
  });
  return retryAfter;
}
