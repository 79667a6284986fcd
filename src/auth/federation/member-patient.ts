import type { PatientPort, PatientSummary } from '../deps.js';
import type { MemberLink } from './idp-settings.js';

/** A claim's value as an identifier: text, or a whole number (some IdPs send member numbers as numbers). */
function claimText(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '' && value.length <= 256) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/**
 * Step 5 (first sign-in only) — the member's Patient in the imported claims data, by the configured claim:
 * the Patient whose id the claim carries, or the one Patient with an `identifier` of the configured system
 * whose value the claim carries. No such Patient, or two with the same member identifier: undefined, the
 * member has no claims data here.
 */
export async function findMemberPatient(
  patients: PatientPort,
  link: MemberLink,
  claims: Record<string, unknown>,
): Promise<PatientSummary | undefined> {
  const value = claimText(claims[link.claim]);
  if (value === undefined) return undefined;
  if (link.kind === 'patient-id') return patients.findPatient(value);
  return patients.findPatientByIdentifier(link.system, value);
}

/** The name the enrollee row shows: the Patient's (official, else usual, else first), else the ID token's. */
export function memberName(
  patient: PatientSummary,
  claims: Record<string, unknown>,
): { givenName: string; familyName: string } {
  const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 200) : '');
  return {
    givenName: text(patient.givenName) || text(claims.given_name),
    familyName: text(patient.familyName) || text(claims.family_name),
  };
}
