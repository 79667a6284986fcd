import { jsonError, type HttpError } from './errors.js';

/**
 * `{"detail": "…"}`: the error body of Django REST Framework, which both the authorization service's data
 * endpoints (userinfo, the member portal's token list) and the FHIR data endpoints answer with, as the
 * deployed Blue Button 2.0 does (docs/decisions.md#error-bodies and #fhir-errors).
 */
export function detailError(status: number, detail: string, headers?: Record<string, string>): HttpError {
  return jsonError(status, { detail }, headers);
}

/** Django REST Framework's `PermissionDenied` text, the body of every 403 of those endpoints. */
export const NO_PERMISSION = 'You do not have permission to perform this action.';
