import { validateAuthorizeRequest } from '../oauth/authorize-request.js';
import type { AuthDeps } from '../oauth/deps.js';
import { withQuery } from '../oauth/redirect-uri.js';

const AUTHORIZE_PATH = /^\/v2\/o\/authorize\/?$/;

/**
 * The member cancelled at the IdP (`error=access_denied`, RFC 6749 §4.1.2.1): the app that asked gets
 * `access_denied` with its own `state`, exactly as when Cancel is pressed on the consent page (decisions
 * file). The sign-in's `next` is that authorize request; it is validated again, client and redirect URI
 * first, so a request whose app was disabled or changed meanwhile gets its error page instead of a redirect.
 * Undefined when the sign-in did not come from an authorize request (the connected-apps page).
 */
export async function cancelledAuthorization(deps: AuthDeps, next: string): Promise<string | undefined> {
  const url = new URL(next || '/', 'http://local');
  if (!AUTHORIZE_PATH.test(url.pathname)) return undefined;
  const { app, request } = await validateAuthorizeRequest(deps.apps, Object.fromEntries(url.searchParams));
  deps.audit('idp_sign_in_cancelled', { client_id: app.clientId });
  return withQuery(request.redirectUri, { error: 'access_denied', state: request.state });
}
