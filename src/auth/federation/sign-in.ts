import type { AuthDeps } from '../deps.js';
import type { Language } from '../oauth/language.js';
import { cancelledAuthorization } from './cancel.js';
import { exchangeCode } from './code-exchange.js';
import { enrolleeForIdentity } from './enrollee-link.js';
import { auditIdpFailure, failurePage, isBusyError } from './failures.js';
import type { IdentityProvider } from './identity-provider.js';
import { takePendingSignIn } from './pending-sign-in.js';

/** What the callback brought: its parameters, and the query string exactly as received. */
export interface Callback {
  params: Record<string, string | undefined>;
  query: string;
  /** This browser's binding cookie, if it sent one. */
  browserBinding: string | undefined;
  /** The language of the request, for when no pending sign-in says otherwise. */
  lang: Language;
}

export type SignInOutcome =
  | { kind: 'signed-in'; enrolleeId: string; next: string; lang: Language }
  /** `location`: the app's redirect with `access_denied`, when an authorize request was waiting. */
  | { kind: 'cancelled'; location: string | undefined; next: string; lang: Language };

/**
 * Step 3 — the IdP answered with an error (OIDC Core §3.1.2.6): `access_denied` is the member cancelling;
 * a busy IdP gets the 503 page; anything else, the 502 page. Both pages offer to start again.
 */
async function idpError(deps: AuthDeps, error: string, next: string, lang: Language): Promise<SignInOutcome> {
  if (error === 'access_denied') {
    return { kind: 'cancelled', location: await cancelledAuthorization(deps, next), next, lang };
  }
  const failure = isBusyError(error) ? 'unavailable' : 'refused';
  auditIdpFailure(deps, 'authorization', failure, { error: error.slice(0, 100) });
  throw failurePage(failure, lang, next);
}

/**
 * The IdP's callback (OIDC Core §3.1.2.5), step by step: the pending sign-in of its `state` (step 2), the
 * IdP's error if it sent one (step 3), the code exchanged and the ID token verified (step 4), the enrollee
 * found or linked (steps 5–6). The caller then starts the session, as a password login does.
 */
export async function finishSignIn(
  deps: AuthDeps,
  idp: IdentityProvider,
  callback: Callback,
): Promise<SignInOutcome> {
  const { params } = callback;
  const pending = await takePendingSignIn(deps, idp, params.state, callback.browserBinding, callback.lang);
  const lang = pending.lang ?? callback.lang;
  if (params.error !== undefined) return idpError(deps, params.error, pending.next, lang);
  if (!params.code) {
    // Neither a code nor an error (OIDC Core §3.1.2.5–6): the IdP's answer is malformed.
    auditIdpFailure(deps, 'authorization', 'refused');
    throw failurePage('refused', lang, pending.next);
  }
  const member = await exchangeCode(
    deps,
    idp,
    pending,
    { state: params.state!, query: callback.query },
    lang,
  );
  const enrolleeId = await enrolleeForIdentity(deps, idp, member, { lang, next: pending.next });
  // The identity as `enrollees list` shows it (see identity_linked).
  deps.audit('login', {
    enrollee: enrolleeId,
    method: 'idp',
    issuer: member.issuer,
    subject: member.subject,
  });
  return { kind: 'signed-in', enrolleeId, next: pending.next, lang };
}
