import { jsonError, type HttpError } from './errors.js';

/**
 * How one surface (an API, a set of pages) renders the errors the kernel itself raises — a malformed URL or
 * body, a path no route serves, a wrong method, a schema violation, a 500, a dependency that is down. Each
 * service implements it in its own shape and names it in its routes' config (`errors`) and for its URL
 * prefix (`errorRenderers`), so this kernel knows no service's error body.
 */
export interface ErrorRenderer {
  /** A refused request (4xx) or an unexpected failure (500, whose body must reveal nothing). */
  invalid(status: number, message: string, headers?: Record<string, string>): HttpError;
  /** 503: a dependency cannot be reached; `Retry-After` says when to try again. */
  unavailable(retryAfterSeconds: number): HttpError;
  /**
   * A dependency answered, but the request's work there ran out of time (a statement timeout). A surface
   * without its own answer for this answers as `unavailable`.
   */
  timedOut?(): HttpError;
  /**
   * A schema violation is worded "where: what" (`querystring.year: must be integer`) rather than with the
   * validator's own message.
   */
  namesInvalidField?: boolean;
}

/** What a 503 body may say, in any shape: the service is down for now; never the cause. */
export const UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable; try again later.';

/**
 * The renderer of paths no service claims: `{"status_code","message"}` JSON, and a 503 that names no cause.
 */
export const defaultErrors: ErrorRenderer = {
  invalid: (status, message, headers) => jsonError(status, { status_code: status, message }, headers),
  unavailable: (retryAfter) =>
    jsonError(503, { status_code: 503, message: UNAVAILABLE_MESSAGE }, unavailableHeaders(retryAfter)),
};

/** The headers of every 503: when to come back, and never cached. */
export function unavailableHeaders(retryAfterSeconds: number): Record<string, string> {
  return { 'retry-after': String(retryAfterSeconds), 'cache-control': 'no-store' };
}
