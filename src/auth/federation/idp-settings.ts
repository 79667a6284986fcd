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

/** The URL that starts a sign-in at the IdP (the login page's button, the retry links). */
export function startUrl(next: string, lang: Language): string {
  const query = new URLSearchParams(next ? { next, lang } : { lang });
  return `${IDP_START_PATH}?${query.toString()}`;
}
