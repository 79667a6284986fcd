import * as oidc from 'openid-client';
import type { HttpError } from '../../shared/errors.js';
import type { AuthDeps } from '../deps.js';
import { pageError, type PageLink } from '../oauth/errors.js';
import type { Language } from '../oauth/language.js';
import { translator } from '../pages/i18n.js';
import { isAuthorizeRequest } from './cancel.js';
import { IdpUnavailableError } from './identity-provider.js';
import { failedUrl, returnUrl, startUrl } from './idp-settings.js';

/**
 * How a failed exchange with the IdP counts:
 * - `unavailable`: it could not be reached (network, timeout), or answered 5xx, `server_error` or
 *   `temporarily_unavailable` — worth trying again later;
 * - `refused`: it answered an OAuth error (the code was not accepted, RFC 6749 §5.2) or refused our client;
 * - `unverified`: its answer failed verification (the ID token's signature, `iss`, `aud`, `exp`, `nonce`…).
 */
export type IdpFailure = 'unavailable' | 'refused' | 'unverified';

const UNREACHABLE = new Set(['OAUTH_TIMEOUT', 'OAUTH_ABORT']);
const BUSY = new Set(['server_error', 'temporarily_unavailable']);

/** An IdP's error code (RFC 6749 §4.1.2.1, §5.2) that means "try again later". */
export function isBusyError(code: string): boolean {
  return BUSY.has(code);
}

export function classifyIdpError(error: unknown): IdpFailure {
  if (error instanceof IdpUnavailableError) return 'unavailable';
  // fetch's own failure (refused, reset, DNS) is a TypeError without a code; the library's have one.
  if (error instanceof TypeError && !('code' in error)) return 'unavailable';
  if (error instanceof oidc.ResponseBodyError) {
    return error.status >= 500 || BUSY.has(error.error) ? 'unavailable' : 'refused';
  }
  if (error instanceof oidc.WWWAuthenticateChallengeError) return 'refused';
  if (error instanceof oidc.ClientError) {
    if (UNREACHABLE.has(error.code ?? '')) return 'unavailable';
    // An answer with an unexpected status: the response itself is the cause.
    const status = (error.cause as { status?: unknown } | undefined)?.status;
    if (typeof status === 'number' && status >= 500) return 'unavailable';
  }
  return 'unverified';
}

/** What the audit log says of a failure: the library's code and message, never a token or secret. */
export function auditIdpFailure(
  deps: AuthDeps,
  step: string,
  failure: IdpFailure | 'state' | 'no-claims-data',
  error?: unknown,
): void {
  const e = error as { code?: unknown; error?: unknown; message?: unknown } | undefined;
  deps.audit('idp_sign_in_failed', {
    step,
    reason: failure,
    ...(typeof e?.code === 'string' ? { code: e.code } : {}),
    ...(typeof e?.error === 'string' ? { error: e.error } : {}),
    ...(typeof e?.message === 'string' ? { detail: e.message.slice(0, 200) } : {}),
  });
}

/** A failure that has a page of its own: the IdP's, or a member whose sign-in links to no claims data. */
export type FailureReason = IdpFailure | 'no-claims-data';

const FAILURE_REASONS: ReadonlySet<string> = new Set<FailureReason>([
  'unavailable',
  'refused',
  'unverified',
  'no-claims-data',
]);

export function isFailureReason(value: unknown): value is FailureReason {
  return typeof value === 'string' && FAILURE_REASONS.has(value);
}

/**
 * The 503 page's `Retry-After` (RFC 9110 §10.2.3), which its sentence states too. Longer than a
 * reachability probe stands (`PROBE_TTL_MS`), so a retry after it asks the IdP afresh.
 */
export const RETRY_AFTER_SECONDS = 30;

/** The link on a failure page that starts the sign-in again, for the same `next`. */
export function retryLink(next: string, lang: Language): PageLink {
  return { href: startUrl(next, lang), text: 'tryAgain' };
}

/** The link back to the app that asked (with `access_denied`); none when no app asked. */
function returnLink(next: string, lang: Language): PageLink | undefined {
  return isAuthorizeRequest(next) ? { href: returnUrl(next, lang), text: 'returnToApp' } : undefined;
}

/**
 * The page of a failure, in the member's language: the IdP's failures with a link that starts the sign-in
 * again, no claims data with a link back to the app. Its language switch shows this page again at
 * `IDP_FAILED_PATH`: the callback it answered is spent, so asking it again would only say so (400).
 */
export function failurePage(reason: FailureReason, lang: Language, next: string): HttpError {
  const retry = retryLink(next, lang);
  const switchUrl = failedUrl(reason, next, lang === 'en' ? 'es' : 'en');
  switch (reason) {
    case 'unavailable': {
      const message = translator(lang)('idpUnavailable', { seconds: String(RETRY_AFTER_SECONDS) });
      return pageError(503, 'temporarily_unavailable', message, lang, retry, {
        switchUrl,
        headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
      });
    }
    case 'refused':
      return pageError(502, 'idp_error', 'idpSignInFailed', lang, retry, { switchUrl });
    case 'unverified':
      return pageError(502, 'invalid_id_token', 'idpTokenInvalid', lang, retry, { switchUrl });
    case 'no-claims-data':
      return pageError(403, 'access_denied', 'idpNoClaimsData', lang, returnLink(next, lang), { switchUrl });
  }
}
