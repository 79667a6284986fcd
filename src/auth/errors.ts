import { HttpError, jsonError } from '../shared/errors.js';
import { detailError } from '../shared/detail-error.js';
import { unavailableHeaders, UNAVAILABLE_MESSAGE, type ErrorRenderer } from '../shared/error-renderer.js';
import { pageError } from './oauth/errors.js';

/**
 * How the authorization service's surfaces render the errors the HTTP kernel raises (a malformed body, an
 * unknown path, a wrong method, a dependency that is down), each in the shape its clients parse
 * (docs/decisions.md#error-bodies). Routes name theirs in `config.errors`.
 */

/** Token and revocation endpoints: RFC 6749 §5.2 `{"error","error_description"}`; 503 is §5.2's own code. */
export const oauthErrors: ErrorRenderer = {
  invalid: (status, message, headers) =>
    jsonError(status, { error: 'invalid_request', error_description: message }, headers),
  unavailable: (retryAfter) =>
    jsonError(
      503,
      { error: 'temporarily_unavailable', error_description: UNAVAILABLE_MESSAGE },
      unavailableHeaders(retryAfter),
    ),
};

/** The enrollee's pages (authorize, login, consent, connected apps): an error page in their language. */
export const pageErrors: ErrorRenderer = {
  invalid: (status, message, headers) =>
    pageError(status, 'invalid_request', message, undefined, undefined, { headers }),
  unavailable: (retryAfter) =>
    pageError(503, 'temporarily_unavailable', UNAVAILABLE_MESSAGE, undefined, undefined, {
      headers: unavailableHeaders(retryAfter),
    }),
};

/** The sandbox expire operation: plain text, as Blue Button answers it. */
export const textErrors: ErrorRenderer = {
  invalid: (status, message, headers) => new HttpError(status, { kind: 'text', value: message }, headers),
  unavailable: (retryAfter) =>
    new HttpError(503, { kind: 'text', value: UNAVAILABLE_MESSAGE }, unavailableHeaders(retryAfter)),
};

/** Userinfo and the member portal's token list: `{"detail"}`. */
export const detailErrors: ErrorRenderer = {
  invalid: (status, message, headers) => detailError(status, message, headers),
  unavailable: (retryAfter) => detailError(503, UNAVAILABLE_MESSAGE, unavailableHeaders(retryAfter)),
};
