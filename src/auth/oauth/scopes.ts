/** Scopes of the authorization service (docs/decisions.md#scopes). */

export const DATA_RESOURCES = ['Patient', 'Coverage', 'ExplanationOfBenefit'] as const;

/** Every scope an app can be given. */
export const ALL_SCOPES: readonly string[] = [
  'openid',
  'profile',
  'launch/patient',
  ...DATA_RESOURCES.flatMap((r) => [
    `patient/${r}.read`,
    `patient/${r}.rs`,
    `patient/${r}.r`,
    `patient/${r}.s`,
  ]),
];

/**
 * SMART App Launch `permission-offline`: asks for a refresh token. Any app may ask for it; an app that may
 * refresh (`13 months`, `Research`) gets refresh tokens whether or not it asks, a `10 hours` app never does.
 * Not stored among an app's scopes: it is about the tokens, not the data.
 */
export const OFFLINE_ACCESS = 'offline_access';

/**
 * SMART App Launch "Scopes for requesting identity data": with `openid`, asks for the `fhirUser` claim (the
 * enrollee's Patient URL). The ID token always carries it (the patient id is in every token response
 * anyway), so any app may name it; like `offline_access` it is not stored among an app's scopes.
 */
export const FHIR_USER = 'fhirUser';

/** Every scope an authorize request may name (discovery's `scopes_supported`). */
export const SUPPORTED_SCOPES: readonly string[] = [...ALL_SCOPES, FHIR_USER, OFFLINE_ACCESS];

/** Scopes about the tokens or the ID token rather than the data: open to every app (see above). */
export const TOKEN_SCOPES: ReadonlySet<string> = new Set([FHIR_USER, OFFLINE_ACCESS]);

/** Scopes that expose personal information (docs/decisions.md#personal-information). */
export const DEMOGRAPHIC_SCOPES: ReadonlySet<string> = new Set([
  'profile',
  'patient/Patient.read',
  'patient/Patient.rs',
  'patient/Patient.r',
  'patient/Patient.s',
]);

/** Granted when an authorize request names no scope (the SDKs never send one). */
const DEFAULT_REQUEST = [
  'openid',
  'profile',
  'launch/patient',
  'patient/Patient.rs',
  'patient/Coverage.rs',
  'patient/ExplanationOfBenefit.rs',
];

export function isDemographic(scope: string): boolean {
  return DEMOGRAPHIC_SCOPES.has(scope);
}

/** Scopes a newly registered app may be granted: all, less the personal ones when it declined them. */
export function scopesForNewApp(requireDemographicScopes: boolean): string[] {
  return ALL_SCOPES.filter((s) => requireDemographicScopes || !isDemographic(s));
}

/** Splits a space-delimited scope string (RFC 6749 §3.3), dropping empties and duplicates. */
export function parseScope(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  return [...new Set(raw.split(/[ +]+/).filter(Boolean))];
}

/**
 * Condenses SMART v2 sub-scopes: `.r` + `.s` → `.rs`; `.rs` makes `.r`/`.s` redundant
 * (docs/decisions.md#scopes). Order follows first appearance.
 */
export function condenseScopes(scopes: string[]): string[] {
  const set = new Set(scopes);
  for (const r of DATA_RESOURCES) {
    const base = `patient/${r}`;
    if (set.has(`${base}.r`) && set.has(`${base}.s`)) set.add(`${base}.rs`);
    if (set.has(`${base}.rs`)) {
      set.delete(`${base}.r`);
      set.delete(`${base}.s`);
    }
  }
  const ordered = scopes.filter((s) => set.has(s));
  for (const s of set) if (!ordered.includes(s)) ordered.push(s);
  return [...new Set(ordered)];
}

/** The requested scopes, or the defaults, limited to what the app may hold. */
export function scopesToOffer(requested: string[], allowed: readonly string[]): string[] {
  const wanted = requested.length > 0 ? requested : DEFAULT_REQUEST;
  return condenseScopes(wanted.filter((s) => allowed.includes(s)));
}

/** True when `scope` (e.g. `patient/Coverage.r`) is covered by one of `held` (e.g. `.rs` or `.read`). */
export function isSubScope(scope: string, held: readonly string[]): boolean {
  if (held.includes(scope)) return true;
  const m = /^(patient\/[A-Za-z]+)\.(r|s|rs|read)$/.exec(scope);
  if (!m) return false;
  const [, base, mode] = m;
  const covers = (h: string) => h === `${base}.rs` || h === `${base}.read`;
  if (mode === 'r' || mode === 's' || mode === 'rs' || mode === 'read') return held.some(covers);
  return false;
}
