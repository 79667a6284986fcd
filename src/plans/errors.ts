import { jsonError, type HttpError } from '../shared/errors.js';
import { unavailableHeaders, type ErrorRenderer } from '../shared/error-renderer.js';

/**
 * The plan API's application errors (docs/decisions.md#plan-errors; the CMS document's "Understanding
 * Errors"): code, HTTP status and the brief message.
 */
export const PLAN_ERRORS = {
  1000: { status: 500, message: 'Internal server error' },
  1001: { status: 404, message: 'county not found' },
  1002: { status: 404, message: 'state not found' },
  1003: { status: 400, message: 'invalid input' },
  1004: { status: 404, message: 'issuer not found' },
  1005: { status: 404, message: 'No crosswalk found for those parameters' },
  1006: { status: 404, message: 'Plan not found' },
  1007: { status: 500, message: 'request timed-out, try again' },
  1008: { status: 404, message: 'state medicaid not found' },
  1009: { status: 400, message: 'poverty guideline not found' },
  1010: { status: 404, message: 'percentage of federal poverty level not found' },
  1011: { status: 404, message: 'No quality rating found for those parameters' },
  1012: { status: 503, message: 'coverage data temporarily unavailable' },
  1013: { status: 404, message: 'provider not found' },
  1014: { status: 404, message: 'drug not found' },
  1015: { status: 404, message: 'missing medicaid eligibility data' },
  1016: { status: 404, message: 'not enough plans to calculate SLCSP/LCBP' },
  1017: { status: 404, message: 'rate area not found' },
} as const;

export type PlanErrorCode = keyof typeof PLAN_ERRORS;

/**
 * An error in the plan API's shape: `{"code","status","message","error"}`, all four strings (the deployed
 * service sends strings: docs/decisions.md#plan-errors). `error` says what exactly went wrong or what to fix.
 */
export function planError(code: PlanErrorCode, error?: string, message?: string): HttpError {
  const known = PLAN_ERRORS[code];
  return jsonError(known.status, {
    code: String(code),
    status: String(known.status),
    message: message ?? known.message,
    error: error ?? message ?? known.message,
  });
}

/** 1003 with the request named in `message` and the fix in `error` ("invalid issuers request" / "…"). */
export function invalidInput(what: string, fix: string): HttpError {
  return planError(1003, fix, `invalid ${what} request`);
}

/**
 * How the plan API renders the errors the HTTP kernel raises: 1003 for anything the client sent wrong
 * (naming the field a schema refused), 1000 for a failure of ours, 1012 while its data cannot be reached,
 * 1007 when a statement ran out of time (docs/decisions.md#query-timeout).
 */
export const planErrors: ErrorRenderer = {
  invalid: (status, message, headers) =>
    jsonError(
      status,
      {
        code: status >= 500 ? '1000' : '1003',
        status: String(status),
        message: status >= 500 ? PLAN_ERRORS[1000].message : PLAN_ERRORS[1003].message,
        error: message,
      },
      headers,
    ),
  unavailable: (retryAfter) =>
    jsonError(
      503,
      {
        code: '1012',
        status: '503',
        message: PLAN_ERRORS[1012].message,
        error: 'database unavailable, try again later',
      },
      unavailableHeaders(retryAfter),
    ),
  // A statement that ran out of time on a database that answers: CMS's 1007, not an outage.
  timedOut: () =>
    jsonError(
      500,
      {
        code: '1007',
        status: '500',
        message: PLAN_ERRORS[1007].message,
        error: 'db query timed-out',
      },
      { 'cache-control': 'no-store' },
    ),
  namesInvalidField: true,
};
