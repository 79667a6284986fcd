import { constantTimeEqual, sha256 } from '../../shared/crypto.js';
import type { AuthDeps } from '../deps.js';
import { pageError } from '../oauth/errors.js';
import type { Language } from '../oauth/language.js';
import type { IdpRequest } from '../store/idp-requests.js';
import { auditIdpFailure } from './failures.js';
import type { IdentityProvider } from './identity-provider.js';

/**
 * Step 2 — the callback must carry the `state` of a live sign-in that this browser started (RFC 6749
 * §10.12; RFC 9700 §4.7.1: one-time use, bound to the user agent). The pending sign-in is taken out of the
 * database whatever follows, so a replayed or second callback finds nothing; one started for another IdP
 * (the settings changed meanwhile) is refused too. Any of these: the 400 page, nothing else happens.
 */
export async function takePendingSignIn(
  deps: AuthDeps,
  idp: IdentityProvider,
  state: string | undefined,
  browserBinding: string | undefined,
  lang: Language,
): Promise<IdpRequest> {
  const pending = state ? await deps.idpRequests.takeIdpRequest(sha256(state), deps.now()) : undefined;
  const sameBrowser =
    pending !== undefined &&
    browserBinding !== undefined &&
    constantTimeEqual(pending.browserHash, sha256(browserBinding));
  if (!pending || !sameBrowser || pending.issuer !== idp.settings.issuer) {
    auditIdpFailure(deps, 'state', 'state');
    throw pageError(400, 'invalid_request', 'idpStateInvalid', pending?.lang ?? lang);
  }
  return pending;
}
