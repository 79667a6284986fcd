import type { Language } from '../oauth/language.js';

/**
 * How a member signed in at the plan's identity provider is tied to the imported claims data, the first
 * time they sign in: a claim that carries the FHIR Patient id, or a claim that carries a member identifier
 * matched against `Patient.identifier` of that system.
 */
export type MemberLink =
  { kind: 'patient-id'; claim: string } | { kind: 'member-id'; claim: string; system: string };

/** The health plan's OpenID Connect identity provider, as configured (`IDP_*` settings). */
export interface IdpSettings {
  /** Issuer identifier, exactly as the IdP publishes it (OpenID Connect Discovery 1.0 §4.3). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Always holds `openid` (OIDC Core §3.1.2.1). */
  scopes: string[];
  /** What the login page's "Sign in with …" button names, per language. */
  label: Record<Language, string>;
  memberLink: MemberLink;
}

/** Our callback at the IdP: the redirect URI registered there is `PUBLIC_URL` followed by this path. */
export const IDP_CALLBACK_PATH = '/v2/accounts/idp/callback';
export const IDP_START_PATH = '/v2/accounts/idp/start';
/** A failure page shown again (its language switch): the callback that first showed it is spent. */
export const IDP_FAILED_PATH = '/v2/accounts/idp/failed';
/** Back to the app that asked, with `access_denied`, from a sign-in that cannot go on. */
export const IDP_RETURN_PATH = '/v2/accounts/idp/return';

function withNext(path: string, params: Record<string, string>, next: string): string {
  const query = new URLSearchParams(next ? { next, ...params } : params);
  return `${path}?${query.toString()}`;
}

/** The URL that starts a sign-in at the IdP (the login page's button, the retry links). */
export function startUrl(next: string, lang: Language): string {
  return withNext(IDP_START_PATH, { lang }, next);
}

/** The URL that shows a failure page (`reason`) again, in `lang`. */
export function failedUrl(reason: string, next: string, lang: Language): string {
  return withNext(IDP_FAILED_PATH, { reason, lang }, next);
}

/** The URL that returns the member to the app of `next` (an authorize request) with `access_denied`. */
export function returnUrl(next: string, lang: Language): string {
  return withNext(IDP_RETURN_PATH, { lang }, next);
}
