import type { Counters } from '../shared/counters.js';
import type { SourceWindow } from './consent/source-limits.js';
import type { AppStore } from './store/apps.js';
import type { ConnectedAppStore } from './store/connected-apps.js';
import type { EnrolleeStore } from './store/enrollees.js';
import type { IdentityStore } from './store/identities.js';
import type { IdpRequestStore } from './store/idp-requests.js';
import type { IdentityProvider } from './federation/identity-provider.js';
import type { SessionStore } from './store/sessions.js';
import type { SigningKeyStore } from './store/signing-keys.js';
import type { TokenStore } from './store/tokens.js';

/** One structured audit event: never a secret, code or raw token (hashes only, and only a prefix). */
export type Audit = (event: string, fields: Record<string, unknown>) => void;

/** A Patient of the claims data, as much of it as an enrollee account needs: its id and the name it carries. */
export interface PatientSummary {
  id: string;
  /** The first given name of the Patient's name (official, else usual, else first); absent when not text. */
  givenName?: string;
  familyName?: string;
}

/** Sandbox enrollee number `n`: its public account name and password, and its Patient in the sample data. */
export interface SandboxIdentity {
  username: string;
  password: string;
  patientId: string;
  givenName: string;
  familyName: string;
}

/**
 * What the authorization service asks of the claims data, passed in like the stores: the FHIR service
 * implements it (fhir/patient-port.ts) and server.ts wires it, as it wires the FHIR service's Bearer check
 * the other way. The authorization service knows no FHIR resource beyond this.
 */
export interface PatientPort {
  /** The Patient with this id. */
  findPatient(id: string): Promise<PatientSummary | undefined>;
  /** The one Patient with an identifier of this system and value; none, or two of them: undefined. */
  findPatientByIdentifier(system: string, value: string): Promise<PatientSummary | undefined>;
  /** Who sandbox enrollee `n` is, as the sample claims data has it. Pure. */
  sandboxIdentity(n: number): SandboxIdentity;
}

/** What the authorization service needs from the outside; the composition root builds it. */
export interface AuthDeps {
  apps: AppStore;
  enrollees: EnrolleeStore;
  sessions: SessionStore;
  /** Identity-provider accounts linked to enrollees, and sign-ins pending at the IdP. */
  identities: IdentityStore;
  idpRequests: IdpRequestStore;
  /** The plan's OpenID Connect identity provider (`IDP_*`); undefined when none is configured. */
  identityProvider: IdentityProvider | undefined;
  tokens: TokenStore;
  signingKeys: SigningKeyStore;
  /** The claims data's Patients, asked through the port the FHIR service implements. */
  patients: PatientPort;
  connectedApps: ConnectedAppStore;
  /** Login lock-outs per username: in Redis, else (and while it is down) in the database. */
  counters: Counters;
  /** Per-source sign-in limits: in Redis, else (and while it is down) in this process. */
  sourceCounters: Counters;
  audit: Audit;
  /** Epoch milliseconds; tests move time by passing their own clock. */
  now: () => number;
  settings: AuthSettings;
}

export interface AuthSettings {
  publicUrl: string;
  sandbox: boolean;
  accessTokenTtlSeconds: number;
  /** Lifetime of an ID token; a retired signing key stays published this long (plus a margin). */
  idTokenTtlSeconds: number;
  codeTtlSeconds: number;
  approvalTtlSeconds: number;
  sessionTtlSeconds: number;
  loginMaxFailures: number;
  loginLockoutSeconds: number;
  /** Sign-in attempts per client address: one window a minute, one an hour (`SIGN_IN_PER_*`). */
  signInWindows: readonly SourceWindow[];
  /** https `PUBLIC_URL`: Secure, `__Host-` prefixed cookies (RFC 6265bis §4.1.3.2). */
  secureCookies: boolean;
}
