import type { FastifyContextConfig } from 'fastify';

/** A route as fastify's `onRoute` hook sees it. Its `config` is read when asked: later hooks may replace it. */
interface RecordedRoute {
  method: string | string[];
  url: string;
  config?: FastifyContextConfig;
}

export interface RouteMatch {
  /** The methods some route serves at the path, in RFC 9110's order, HEAD wherever GET is. */
  methods: string[];
  /** The config of the first route registered for the path that says how its errors render, else the first's. */
  config: FastifyContextConfig | undefined;
}

/**
 * Every route's methods and path pattern, so that a request the router did not match can be told apart:
 * a path some route serves under other methods (405 with `Allow`, RFC 9110 §15.5.6) or a path no route
 * serves (404), and so that errors raised before routing render in the shape of the route the path names.
 * Asked only for requests the router did not match, never on the way of a served one.
 */
export interface RouteTable {
  add(route: RecordedRoute): void;
  /** The routes whose pattern the path of `url` matches, if any. */
  lookup(url: string): RouteMatch | undefined;
}

const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function rank(method: string): number {
  const index = ORDER.indexOf(method);
  return index < 0 ? ORDER.length : index;
}

/**
 * A router pattern as a regular expression, for the patterns this app writes: static text, `:param`
 * (anything but `/`), `::` (a literal colon) and a trailing `*` wildcard. A pattern with a regular
 * expression parameter (`:id(\\d+)`) is left out: it never claims a path, so at worst a 404 stays a 404.
 */
function compile(url: string, ignoreTrailingSlash: boolean): RegExp | undefined {
  if (url.includes('(')) return undefined;
  const path = ignoreTrailingSlash && url.length > 1 ? url.replace(/\/+$/, '') : url;
  const source = path
    .split(/(::|:\w+|\*$)/)
    .map((piece) => {
      if (piece === '::') return ':';
      if (piece === '*') return '.*';
      if (piece.startsWith(':')) return '[^/]+';
      return piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}${ignoreTrailingSlash ? '/?' : ''}$`);
}

/** The path of a request URL as the router compares it: without the query, percent-decoded where safe. */
function pathOf(url: string): string {
  const path = url.split('?', 1)[0]!;
  try {
    // decodeURI keeps reserved characters (`/`, `?`, `#`…) encoded, as the router's own decoding does.
    return decodeURI(path);
  } catch {
    return path;
  }
}

export function createRouteTable(options: { ignoreTrailingSlash: boolean }): RouteTable {
  const entries: { pattern: RegExp; route: RecordedRoute }[] = [];
  return {
    add(route) {
      const pattern = compile(route.url, options.ignoreTrailingSlash);
      if (pattern) entries.push({ pattern, route });
    },
    lookup(url) {
      const path = pathOf(url);
      const methods = new Set<string>();
      let config: FastifyContextConfig | undefined;
      for (const { pattern, route } of entries) {
        if (!pattern.test(path)) continue;
        for (const method of [route.method].flat()) methods.add(method);
        if (config?.errors === undefined) config = route.config ?? config;
      }
      if (methods.size === 0) return undefined;
      if (methods.has('GET')) methods.add('HEAD');
      return { methods: [...methods].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)), config };
    },
  };
}
