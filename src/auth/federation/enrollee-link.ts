import { randomUUID } from 'node:crypto';
import { sha256 } from '../../shared/crypto.js';
import type { AuthDeps } from '../deps.js';
import type { Language } from '../oauth/language.js';
import type { VerifiedMember } from './code-exchange.js';
import { auditIdpFailure, failurePage } from './failures.js';
import type { IdentityProvider } from './identity-provider.js';
import { findMemberPatient, memberName } from './member-patient.js';

/**
 * The password hash of an enrollee who signs in only through the IdP: not an argon2 hash, so no password
 * ever verifies against it.
 */
export const NO_PASSWORD = '!federated: signs in through the identity provider';

/** A username for a new enrollee: derived from the identity, unique with it, and no personal data. */
function usernameOf(issuer: string, subject: string): string {
  return `idp-${sha256(`${issuer}\n${subject}`).slice(0, 20)}`;
}

/**
 * Step 6 — the enrollee this identity signs in as. An identity already linked: its enrollee. A first
 * sign-in: the member's Patient by the configured claim (step 5); then, in one transaction, the enrollee
 * of that patient — an existing one (a sandbox account, another identity's), else a new one with no usable
 * password, a derived username and the Patient's name — and the link (issuer, subject) → enrollee.
 * No Patient: the 403 page (with a link back to the app of `next`), and no enrollee, identity or session
 * is written.
 */
export async function enrolleeForIdentity(
  deps: AuthDeps,
  idp: IdentityProvider,
  member: VerifiedMember,
  page: { lang: Language; next: string },
): Promise<string> {
  const { issuer, subject, claims } = member;
  const now = deps.now();
  const linked = await deps.identities.recordSignIn(issuer, subject, now);
  if (linked) return linked;
  const patient = await findMemberPatient(deps.patients, idp.settings.memberLink, claims);
  if (!patient) {
    auditIdpFailure(deps, 'link', 'no-claims-data');
    throw failurePage('no-claims-data', page.lang, page.next);
  }
  const email = typeof claims.email === 'string' && claims.email_verified === true ? claims.email : null;
  const result = await deps.identities.linkIdentity(
    {
      issuer,
      subject,
      enrollee: {
        id: randomUUID(),
        username: usernameOf(issuer, subject),
        passwordHash: NO_PASSWORD,
        patientId: patient.id,
        ...memberName(patient, claims),
        email: email && email.length <= 320 ? email : null,
      },
    },
    now,
  );
  // The raw `sub`, as `enrollees list` shows it and `enrollees unlink --subject` takes it: an operator
  // matches the event to the link. It is the IdP's opaque, never reassigned identifier of the member for
  // this client (OIDC Core §2 "sub", §8 pairwise identifiers), not a credential.
  deps.audit('identity_linked', {
    enrollee: result.enrolleeId,
    issuer,
    subject,
    enrollee_created: result.enrolleeCreated,
  });
  return result.enrolleeId;
}
