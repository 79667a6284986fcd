/**
 * The oldest Redis the counters run on: they open a window with `SET key 0 PX ms NX`, and SET took the PX
 * and NX options in Redis 2.6.12. On an older server that SET fails while the INCR beside it still counts,
 * leaving a count with no expiry: a rate limit or a lock-out that never ends.
 */
export const MINIMUM_REDIS_VERSION = '2.6.12';

/** `major.minor.patch` as numbers, or undefined when `version` does not start that way. */
function parts(version: string): [number, number, number] | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** The `redis_version` field of an INFO reply ("redis_version:7.2.4"), or undefined when it has none. */
export function redisVersion(info: string): string | undefined {
  const version = /^redis_version:([^\r\n]*)/m.exec(info)?.[1]?.trim();
  return version && parts(version) ? version : undefined;
}

/** Whether dotted version `a` is older than `b`. */
export function isOlderVersion(a: string, b: string): boolean {
  const [x, y] = [parts(a), parts(b)];
  if (!x || !y) throw new Error(`not a major.minor.patch version: ${x ? b : a}`);
  for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return x[i]! < y[i]!;
  return false;
}

/**
 * Why the server an INFO reply describes cannot hold the counters, as one sentence; undefined when it
 * can, or when the reply names no version (the caller decides what an unknown version means).
 */
export function redisVersionProblem(info: string): string | undefined {
  const version = redisVersion(info);
  if (version === undefined || !isOlderVersion(version, MINIMUM_REDIS_VERSION)) return undefined;
  return `Redis ${version} is too old: openenroll needs Redis ${MINIMUM_REDIS_VERSION} or newer (SET with PX and NX)`;
}
