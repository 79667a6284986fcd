import type { Counters } from '../shared/counters.js';
import type { DeveloperStore } from './store/developers.js';
import type { Mailer } from './accounts/mailer.js';

/** One structured audit event: never a password, secret, key or link token. */
export type Audit = (event: string, fields: Record<string, unknown>) => void;

export type AccessCategory = 'ONE_TIME' | 'THIRTEEN_MONTH' | 'RESEARCH_STUDY';
export type ReviewStatus = 'approved' | 'pending' | 'rejected';

/** An app as its developer sees it: never its secret or the secret's hash. */
export interface PortalApp {
  clientId: string;
  name: string;
  redirectUris: string[];
  dataAccessType: AccessCategory;
  requireDemographicScopes: boolean;
  logoUri: string | null;
  websiteUri: string | null;
  policyUri: string | null;
  tosUri: string | null;
  active: boolean;
  review: ReviewStatus;
  developerId: string | null;
  createdAt: number;
}

/** What a developer enters for an app: the fields of `openenroll apps create`. */
export interface AppForm {
  name: string;
  redirectUris: string[];
  dataAccessType: AccessCategory;
  requireDemographicScopes: boolean;
  logoUri?: string;
  websiteUri?: string;
  policyUri?: string;
  tosUri?: string;
}

/** An app refused by the registration rules (or a name already taken): `message` says why. */
export class AppRuleError extends Error {}

/**
 * The apps of the authorization service, through the same registration rules and rows as the CLI; the
 * authorization service implements it and server.ts wires it. Rule failures are thrown as AppRuleError.
 */
export interface AppsPort {
  register(
    form: AppForm,
    developerId: string,
    review: ReviewStatus,
    now: number,
  ): Promise<{ app: PortalApp; clientSecret: string }>;
  edit(clientId: string, form: AppForm, now: number): Promise<void>;
  rotateSecret(clientId: string, now: number): Promise<string | undefined>;
  find(clientId: string): Promise<PortalApp | undefined>;
  listOf(developerId: string): Promise<PortalApp[]>;
  remove(clientId: string): Promise<void>;
}

/** A plan-API key as its developer sees it: never the key or its hash. */
export interface PortalKey {
  id: string;
  name: string;
  perSecond: number;
  perMinute: number;
  createdAt: number;
  revokedAt: number | null;
  developerId: string | null;
}

/** The plan API's keys and counters, implemented by the plan API and wired by server.ts. */
export interface KeysPort {
  create(name: string, developerId: string, now: number): Promise<{ key: string; record: PortalKey }>;
  listOf(developerId: string): Promise<PortalKey[]>;
  revoke(id: string, now: number): Promise<boolean>;
  /** Requests the key made since midnight UTC (including refused ones). */
  requestsToday(id: string, now: number): Promise<number>;
}

export interface PortalSettings {
  publicUrl: string;
  sandbox: boolean;
  /** https `PUBLIC_URL`: Secure, `__Host-` prefixed cookies (RFC 6265bis §4.1.3.2). */
  secureCookies: boolean;
  sessionTtlSeconds: number;
  /** How long a mailed verification or reset link works. */
  linkTtlSeconds: number;
  loginMaxFailures: number;
  loginLockoutSeconds: number;
}

/** What the developer portal needs from the outside; the composition root builds it. */
export interface PortalDeps {
  developers: DeveloperStore;
  apps: AppsPort;
  keys: KeysPort;
  mailer: Mailer;
  /** Per-account sign-in lock-outs: shared by every instance. */
  counters: Counters;
  /** Counts one request of `action` from a client address; seconds to wait when over the limit. */
  limitSource(action: 'developer-sign-in' | 'developer-mail', ip: string): Promise<number | undefined>;
  audit: Audit;
  now: () => number;
  settings: PortalSettings;
}
