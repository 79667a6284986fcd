import type { FhirStore } from './store/resources.js';

/** What the FHIR service needs of an access token: whose data it opens, and with which scopes. */
export interface TokenContext {
  patientId: string;
  /** Space-separated granted scopes (`patient/ExplanationOfBenefit.read` …). */
  scope: string;
}

/**
 * The Bearer check (RFC 6750 §2.1): the one thing the FHIR service takes from the authorization service,
 * passed in like the store. It throws the `{"detail"}` 401/403 answers itself.
 */
export type BearerCheck = (
  authorization: string | undefined,
  queryHasToken: boolean,
) => Promise<TokenContext>;

/** The FHIR data service's dependencies, built by the composition root (server.ts). */
export interface FhirDeps {
  fhir: FhirStore;
  authenticate: BearerCheck;
  /** The origin clients see: absolute links in bundles, the CapabilityStatement. */
  publicUrl: string;
  now: () => number;
}
