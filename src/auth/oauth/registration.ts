import { randomAlphanumeric, randomToken, sha256 } from '../../shared/crypto.js';
import type { ClientApp, AppStore, DataAccessType, ReviewStatus } from '../store/apps.js';
import { redirectUriProblem } from './redirect-uri.js';
import { scopesForNewApp } from './scopes.js';

export interface Registration {
  name: string;
  redirectUris: string[];
  dataAccessType: DataAccessType;
  requireDemographicScopes: boolean;
  policyUri?: string;
  tosUri?: string;
  logoUri?: string;
  websiteUri?: string;
  supportEmail?: string;
  tokenManagement?: boolean;
  /** The portal developer registering it (docs/portal.md); absent for the CLI. */
  developerId?: string;
}

export class RegistrationError extends Error {}

/** What is wrong with a registration, if anything (docs/decisions.md#app-registration). */
export function registrationProblems(r: Registration): string[] {
  const problems: string[] = [];
  const name = r.name.trim();
  if (name === '' || name.length > 100) problems.push('name must be 1 to 100 characters');
  // Control and format characters (bidi overrides, zero-width) could disguise the name on the consent page.
  if (/[\p{Cc}\p{Cf}<>]/u.test(name)) problems.push('name must be plain printable text');
  if (r.redirectUris.length === 0) problems.push('at least one redirect URI is required');
  for (const uri of r.redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) problems.push(problem);
  }
  for (const [label, uri] of [
    ['policy URI', r.policyUri],
    ['terms URI', r.tosUri],
    ['logo URI', r.logoUri],
    ['website URI', r.websiteUri],
  ] as const) {
    if (uri !== undefined && !/^https?:\/\/\S+$/.test(uri)) problems.push(`${label} must be an http(s) URL`);
  }
  return problems;
}

/**
 * Registers a confidential authorization-code client (docs/decisions.md#app-registration). The client secret
 * is 256 random bits, returned once and stored only as its SHA-256 hash.
 */
export async function registerApp(
  apps: AppStore,
  r: Registration,
  now: number,
  review: ReviewStatus = 'approved',
): Promise<{ app: ClientApp; clientSecret: string }> {
  const problems = registrationProblems(r);
  if (problems.length > 0) throw new RegistrationError(problems.join('; '));
  const clientSecret = randomToken();
  const app = await apps.insertApp(
    {
      clientId: randomAlphanumeric(40),
      name: r.name.trim(),
      clientSecretHash: sha256(clientSecret),
      redirectUris: r.redirectUris,
      dataAccessType: r.dataAccessType,
      requireDemographicScopes: r.requireDemographicScopes,
      scopes: scopesForNewApp(r.requireDemographicScopes),
      active: true,
      ...linkFields(r),
      supportEmail: r.supportEmail ?? null,
      tokenManagement: r.tokenManagement ?? false,
      review,
      developerId: r.developerId ?? null,
    },
    now,
  );
  return { app, clientSecret };
}

function linkFields(r: Registration) {
  return {
    logoUri: r.logoUri ?? null,
    websiteUri: r.websiteUri ?? null,
    policyUri: r.policyUri ?? null,
    tosUri: r.tosUri ?? null,
  };
}

/**
 * Changes a registered app under the rules of a new registration; its client id, secret, review and
 * whether it is active stay. False when there is no such app.
 */
export async function editApp(
  apps: AppStore,
  clientId: string,
  r: Registration,
  now: number,
): Promise<boolean> {
  const problems = registrationProblems(r);
  if (problems.length > 0) throw new RegistrationError(problems.join('; '));
  return apps.updateApp(
    clientId,
    {
      name: r.name.trim(),
      redirectUris: r.redirectUris,
      dataAccessType: r.dataAccessType,
      requireDemographicScopes: r.requireDemographicScopes,
      scopes: scopesForNewApp(r.requireDemographicScopes),
      ...linkFields(r),
    },
    now,
  );
}

/**
 * A new client secret for the app (256 random bits, returned once, stored as its SHA-256 hash); the old
 * one stops working at once. Undefined when there is no such app.
 */
export async function rotateClientSecret(
  apps: AppStore,
  clientId: string,
  now: number,
): Promise<string | undefined> {
  const clientSecret = randomToken();
  return (await apps.replaceSecretHash(clientId, sha256(clientSecret), now)) ? clientSecret : undefined;
}
