import { HttpError } from '../shared/errors.js';
import { unavailableHeaders, UNAVAILABLE_MESSAGE, type ErrorRenderer } from '../shared/error-renderer.js';

/**
 * The portal's pages render the errors the HTTP kernel raises (a malformed body, an unknown path, a wrong
 * method, a dependency down) as the service's error page, like the enrollee pages.
 */
function page(status: number, message: string, headers?: Record<string, string>): HttpError {
  return new HttpError(
    status,
    { kind: 'page', template: 'error', data: { status, title: 'Error', message } },
    headers,
  );
}

export const portalErrors: ErrorRenderer = {
  invalid: (status, message, headers) => page(status, message, headers),
  unavailable: (retryAfter) => page(503, UNAVAILABLE_MESSAGE, unavailableHeaders(retryAfter)),
};
