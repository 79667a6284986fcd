import { jsonError } from '../shared/errors.js';
import { detailError } from '../shared/detail-error.js';
import { unavailableHeaders, UNAVAILABLE_MESSAGE, type ErrorRenderer } from '../shared/error-renderer.js';

/**
 * How the FHIR data endpoints render the errors the HTTP kernel raises: `{"detail"}`, as every error of these
 * endpoints (docs/decisions.md#fhir-errors); a 503 also carries an OperationOutcome (FHIR R4 §3.1.0.5,
 * issue code `transient`) for FHIR clients, beside `detail` for clients written for Blue Button.
 */
export const fhirErrors: ErrorRenderer = {
  invalid: (status, message, headers) => detailError(status, message, headers),
  unavailable: (retryAfter) =>
    jsonError(
      503,
      {
        resourceType: 'OperationOutcome',
        issue: [{ severity: 'error', code: 'transient', diagnostics: UNAVAILABLE_MESSAGE }],
        detail: UNAVAILABLE_MESSAGE,
      },
      unavailableHeaders(retryAfter),
    ),
};
