import { validateAuthorizeRequest } from '../oauth/authorize-request.js';
import type { AuthDeps } from '../deps.js';
import { withQuery } from '../oauth/redirect-uri.js';

const AUTHORIZE_PATH = /^\/v2\/o\/authorize\/?$/;

/** Whether a sign-in's `next` is an app's authorize request (not the connected-apps page). */
export function isAuthorizeRequest(next: string): boolean {
  return AUTHORIZE_PATH.test(new URL(next || '/', 'http://local').pathname);
}

/**
 * The app that asked gets `access_denied` with its own `state` (RFC 6749 §4.1.2.1), exactly as when Cancel
 * is pressed on the consent page: the member cancelled at the IdP (`via: 'idp'`), or, their sign-in linking
 * to no claims data, chose to return to the app (`via: 'return-link'`). The sign-in's `next` is that
 * authorize request; it is validated again, client and redirect URI first (the registered URI, compared as
 * authorize does), so a request whose app was disabled or changed meanwhile gets its error page instead of
 * a redirect, and no redirect goes anywhere the app did not register. Undefined when the sign-in did not
 * come from an authorize request (the connected-apps page).
 */
export async function cancelledAuthorization(
  deps: AuthDeps,
  next: string,
  via: 'idp' | 'return-link' = 'idp',
): Promise<string | undefined> {
  if (!isAuthorizeRequest(next)) return undefined;
  const url = new URL(next, 'http://local');
  const { app, request } = await validateAuthorizeRequest(deps.apps, Object.fromEntries(url.searchParams));
  deps.audit('idp_sign_in_cancelled', { client_id: app.clientId, via });
  return withQuery(request.redirectUri, { error: 'access_denied', state: request.state });
}
