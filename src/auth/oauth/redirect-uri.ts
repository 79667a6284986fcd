/**
 * Redirect-URI matching: exact scheme, host, port and path (RFC 6749 §3.1.2.3), except that a loopback
 * URI registered without a port matches any port (RFC 8252 §7.3).
 */
export function redirectUriMatches(registered: readonly string[], given: string): boolean {
  if (registered.includes(given)) return true;
  let target: URL;
  try {
    target = new URL(given);
  } catch {
    return false;
  }
  if (target.hash || target.username || target.password) return false;
  return registered.some((uri) => {
    let candidate: URL;
    try {
      candidate = new URL(uri);
    } catch {
      return false;
    }
    const loopback = candidate.hostname === '127.0.0.1' || candidate.hostname === '[::1]';
    return (
      loopback &&
      candidate.port === '' &&
      candidate.protocol === target.protocol &&
      candidate.hostname === target.hostname &&
      candidate.pathname === target.pathname &&
      candidate.search === target.search
    );
  });
}

/** Registration-time check: absolute http(s) or custom-scheme URI without a fragment. */
export function redirectUriProblem(uri: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    return `"${uri}" is not an absolute URI`;
  }
  if (parsed.hash || uri.includes('#')) return 'Redirect URIs must not contain fragments';
  if (['javascript:', 'data:', 'file:'].includes(parsed.protocol)) {
    return `Invalid Redirect URI scheme: ${parsed.protocol.slice(0, -1)}`;
  }
  return undefined;
}

/** Adds query parameters to a redirect URI, keeping the ones it already has (RFC 6749 §3.1.2). */
export function withQuery(uri: string, params: Record<string, string>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}
