import type { FastifyRequest } from 'fastify';

/**
 * Cross-origin reads (Fetch standard, "CORS protocol") for the routes whose config says `cors: true`.
 *
 * The origin is `*`: those routes are read with a Bearer token the app itself holds, never with a cookie
 * or other ambient credential of the browser, so no page gains anything by being allowed to call them
 * that it could not do with the token anyway — and a browser SMART app may be served from any origin.
 * For the same reason `Access-Control-Allow-Credentials` is never sent (and `*` forbids it).
 */
const ALLOWED_HEADERS = [
  // The Fetch standard's `*` never covers Authorization: it is named.
  'Authorization',
  'Accept',
  'Accept-Language',
  'Content-Type',
  'If-None-Match',
  'If-Modified-Since',
  'Prefer',
  'X-Requested-With',
  // The Blue Button SDKs' own headers (docs/decisions.md#sdk-compatibility).
  'X-BlueButton-SDK',
  'X-BlueButton-SDK-Version',
].join(', ');

/** Response headers a script may read besides the CORS-safelisted ones. */
const EXPOSED_HEADERS = [
  'ETag',
  'Last-Modified',
  'Location',
  'Content-Location',
  'WWW-Authenticate',
  'Retry-After',
].join(', ');

/** Headers of every answer of a CORS route (errors included: a script needs to read a 401 too). */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED_HEADERS,
};

/** The answer to a preflight: GET only (the routes are read-only), cached by the browser for a day. */
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD',
  'access-control-allow-headers': ALLOWED_HEADERS,
  'access-control-max-age': '86400',
};

/** A CORS preflight: OPTIONS naming the method the script wants to use. A bare OPTIONS is not one. */
export function isPreflight(request: FastifyRequest): boolean {
  return request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
}
