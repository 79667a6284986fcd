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

/**
 * Schemes a redirect URI may never use: script and document schemes that run or show content in the
 * browser instead of reaching the client (RFC 9700 §4.1), and schemes that reach no OAuth client at all.
 */
const REFUSED_SCHEMES = new Set([
  'javascript',
  'data',
  'file',
  'vbscript',
  'about',
  'blob',
  'mailto',
  'ftp',
  'ws',
  'wss',
]);

/** Hosts http may use: loopback (RFC 8252 §7.3); §8.3 prefers the IP literals, localhost is kept too. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Only what RFC 3986 §2 lets a URI hold: no spaces, controls, backslashes, quotes or raw non-ASCII. */
const URI_CHARACTERS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;

/** A private-use scheme in reverse-domain form, e.g. com.example.app (RFC 8252 §7.1, RFC 7595 §3.8). */
const REVERSE_DOMAIN_SCHEME = /^[a-z][a-z0-9+-]*(?:\.[a-z0-9+-]+)+$/;

/**
 * Registration-time check of one redirect URI; the answer is one sentence naming the rule it breaks.
 * Web hosts use https, http only loopback (RFC 8252 §7.3, §8.4; RFC 9700 §2.1), native apps a private-use
 * scheme in reverse-domain form (RFC 8252 §7.1); never user-info, a fragment (RFC 6749 §3.1.2) or a
 * relative or repaired form: the string stored is the one compared, so it must already be well formed.
 */
export function redirectUriProblem(uri: string): string | undefined {
  if (!URI_CHARACTERS.test(uri)) {
    return `redirect URIs may contain only URI characters (no spaces, backslashes, quotes or non-ASCII; percent-encode them): ${JSON.stringify(uri)}`;
  }
  if (uri.includes('#')) return `redirect URIs must not contain fragments (#…): ${uri}`;
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    return `redirect URIs must be absolute URIs with a scheme: ${uri}`;
  }
  const scheme = parsed.protocol.slice(0, -1);
  if (REFUSED_SCHEMES.has(scheme)) return `the ${scheme}: scheme is not allowed for redirect URIs: ${uri}`;
  // WHATWG URL drops an empty user-info ("https://@host"), so the raw authority is checked too.
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?]*)/i.exec(uri)?.[1];
  if (parsed.username || parsed.password || authority?.includes('@')) {
    return `redirect URIs must not contain user information (user:password@): ${uri}`;
  }
  if (scheme === 'http' || scheme === 'https') {
    // WHATWG URL repairs "http:/relative" and "https:///host" into "scheme://host/…"; RFC 3986 does not.
    if (!authority) return `${scheme} redirect URIs must be written ${scheme}://host/path: ${uri}`;
    if (scheme === 'http' && !LOOPBACK_HOSTS.has(parsed.hostname)) {
      return `http redirect URIs are allowed only on loopback (127.0.0.1, [::1], localhost): ${uri}`;
    }
    return undefined;
  }
  if (!REVERSE_DOMAIN_SCHEME.test(scheme)) {
    return `private-use redirect URI schemes must be reverse domain names, like com.example.app:/callback: ${uri}`;
  }
  return undefined;
}

/** Adds query parameters to a redirect URI, keeping the ones it already has (RFC 6749 §3.1.2). */
export function withQuery(uri: string, params: Record<string, string>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}
