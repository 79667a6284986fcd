/**
 * RFC 9110 §13.1.2 If-None-Match: true when any listed entity tag matches `etag` by the weak comparison
 * (§8.8.3.2: opaque tags equal, the `W/` prefix ignored), or the header is `*`.
 */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

/**
 * RFC 9110 §13.1.3 If-Modified-Since, evaluated only without If-None-Match (§13.2.2): true when the
 * resource has not changed since the given HTTP date (compared at the date's one-second precision).
 */
export function notModifiedSince(header: string | undefined, lastModified: number): boolean {
  if (header === undefined) return false;
  const since = Date.parse(header);
  return Number.isFinite(since) && Math.floor(lastModified / 1000) * 1000 <= since;
}
