import { jsonError, type HttpError } from '../shared/errors.js';

/** The data endpoints' error body (research §4): `{"detail": "…"}`, the anchor's Django REST shape. */
export function detailError(status: number, detail: string, headers?: Record<string, string>): HttpError {
  return jsonError(status, { detail }, headers);
}

/** The anchor's 403 text (Django REST Framework's `PermissionDenied`). */
export const NO_PERMISSION = 'You do not have permission to perform this action.';
