import type { FhirStore, StoredResource } from '../../fhir/store/resources.js';
import { identifiersMatch } from '../../fhir/token-search.js';
import type { MemberLink } from './idp-settings.js';

/** A claim's value as an identifier: text, or a whole number (some IdPs send member numbers as numbers). */
function claimText(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '' && value.length <= 256) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** FHIR R4 §2.24.0.1 Identifier: the same system and value, compared exactly (as `identifier` search does). */
function hasIdentifier(patient: StoredResource, system: string, value: string): boolean {
  const body = JSON.parse(patient.body) as { identifier?: unknown };
  return identifiersMatch(body.identifier, [[{ system, code: value }]]);
}

/**
 * Step 5 (first sign-in only) — the member's Patient in the imported claims data, by the configured claim:
 * the Patient whose id the claim carries, or the one Patient with an `identifier` of the configured system
 * whose value the claim carries. No such Patient, or two with the same member identifier: undefined, the
 * member has no claims data here.
 */
export async function findMemberPatient(
  fhir: FhirStore,
  link: MemberLink,
  claims: Record<string, unknown>,
): Promise<StoredResource | undefined> {
  const value = claimText(claims[link.claim]);
  if (value === undefined) return undefined;
  if (link.kind === 'patient-id') return fhir.findResource('Patient', value);
  const matches = (await fhir.findPatientsHolding(value)).filter((p) => hasIdentifier(p, link.system, value));
  return matches.length === 1 ? matches[0] : undefined;
}

/** The name the enrollee row shows: the Patient's (official, else usual, else first), else the ID token's. */
export function memberName(
  patient: StoredResource,
  claims: Record<string, unknown>,
): { givenName: string; familyName: string } {
  const body = JSON.parse(patient.body) as { name?: { use?: string; given?: unknown[]; family?: unknown }[] };
  const names = Array.isArray(body.name) ? body.name : [];
  const name = names.find((n) => n.use === 'official') ?? names.find((n) => n.use === 'usual') ?? names[0];
  const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 200) : '');
  return {
    givenName: text(name?.given?.[0]) || text(claims.given_name),
    familyName: text(name?.family) || text(claims.family_name),
  };
}
