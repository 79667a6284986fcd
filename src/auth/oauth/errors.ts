import { NO_PERMISSION } from '../../shared/detail-error.js';
import { HttpError, jsonError } from '../../shared/errors.js';
import type { Language } from './language.js';

/**
 * The error bodies of the authorization service. Two shapes meet at the token endpoint
 * (docs/decisions.md#error-bodies): the RFC 6749 §5.2 shape `{"error", "error_description"?}` and the
 * service's own `{"status_code", "error", "error_description"}`; authorize uses `{"status_code", "message"}`;
 * data endpoints use `{"detail"}`.
 */
export function oauthError(status: number, error: string, description?: string): HttpError {
  return jsonError(status, description === undefined ? { error } : { error, error_description: description });
}

export function serviceError(status: number, error: string, description: string): HttpError {
  return jsonError(status, { status_code: status, error, error_description: description });
}

export function messageError(status: number, message: string): HttpError {
  return jsonError(status, { status_code: status, message });
}

/** A link an error page offers, e.g. to try again; `text` is a catalogue key or literal text. */
export interface PageLink {
  href: string;
  text: string;
}

/** What else an error page may carry. */
export interface PageExtras {
  /** Response headers, e.g. `Retry-After`. */
  headers?: Record<string, string>;
  /**
   * The other-language link, when asking the same URL again would not show the same page (a one-time
   * callback); without it the page links to its own URL with `lang` switched.
   */
  switchUrl?: string;
}

/**
 * An HTML page in the enrollee's language (`lang` when the flow already knows it, else the request's);
 * `message` is a catalogue key or literal text.
 */
export function pageError(
  status: number,
  title: string,
  message: string,
  lang?: Language,
  link?: PageLink,
  extras: PageExtras = {},
) {
  const { headers, switchUrl } = extras;
  return new HttpError(
    status,
    { kind: 'page', template: 'error', data: { title, message, lang, link, switchUrl } },
    headers,
  );
}

/**
 * An authorize request refused after its client and redirect URI were verified, answered by sending the
 * browser back to the app with `error` and the app's `state` (RFC 6749 §4.1.2.1).
 */
export class ClientRedirect extends Error {
  constructor(readonly location: string) {
    super('redirect to the client');
    this.name = 'ClientRedirect';
  }
}

export const REAUTHORIZE =
  'To refresh data, the end user must re-authenticate and consent to share their data.';

export const TEXT = {
  appInactive: (name: string) =>
    `This application, ${name}, is temporarily inactive. If you are the app maintainer, please contact the ` +
    'service team. If you are an enrollee and need assistance, please contact the support team for the ' +
    'application you are trying to access.',
  grantTimedOut: `User access has timed out. ${REAUTHORIZE}`,
  grantMissing: `User access cannot be found. ${REAUTHORIZE}`,
  noRefreshForApp:
    'Your application is not allowed to refresh tokens. To refresh data, end user must re-authenticate and ' +
    'consent to share their data. If your application needs to refresh tokens, its access duration must be ' +
    '13 months or Research.',
  noPermission: NO_PERMISSION,
  notAuthenticated: 'Authentication credentials were not provided.',
  /**
   * A bearer token given but unknown or revoked: django-oauth-toolkit's `error_description`
   * (docs/decisions.md#bearer-tokens), as the detail too.
   */
  invalidToken: 'The access token is invalid.',
  expiredToken: 'The access token has expired.',
};
