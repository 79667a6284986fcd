/**
 * The small JSON vocabulary of the CARIN conformance rules (carin-conformance.ts,
 * carin-conformance-slices.ts; docs/claims-rif.md#carin): the codings they add, reading codings and
 * lists of a resource that may lack them, and placing a new element where FHIR's order puts it.
 */
import type { C4bbProfileName } from '../carin.js';
import { SYSTEMS, type FixedCoding } from './carin.js';
import type { Json } from './elements.js';
import { EOB_ELEMENT_ORDER } from './eob-header.js';

/** The CARIN profiles of ExplanationOfBenefit. */
export type EobProfile = Extract<C4bbProfileName, `C4BB-ExplanationOfBenefit-${string}`>;

const C4BB_PROCEDURE_TYPE = 'http://hl7.org/fhir/us/carin-bb/CodeSystem/C4BBClaimProcedureType';

/** The CARIN codings the rules add, displayed as the CARIN 2.0.0 code systems display them. */
export const CODINGS = {
  rendering: { system: SYSTEMS.c4bbCareTeamRole, code: 'rendering', display: 'Rendering provider' },
  secondary: { system: SYSTEMS.c4bbDiagnosisType, code: 'secondary', display: 'Secondary' },
  other: { system: SYSTEMS.c4bbDiagnosisType, code: 'other', display: 'Other' },
  principalProcedure: { system: C4BB_PROCEDURE_TYPE, code: 'principal', display: 'Principal' },
  otherProcedure: { system: C4BB_PROCEDURE_TYPE, code: 'other', display: 'Other' },
  benefitPaymentStatus: {
    system: SYSTEMS.c4bbAdjudicationDiscriminator,
    code: 'benefitpaymentstatus',
    display: 'Benefit Payment Status',
  },
  dawCode: {
    system: SYSTEMS.c4bbSupportingInfoType,
    code: 'dawcode',
    display: 'DAW (Dispense As Written) Code',
  },
  refillsAuthorized: {
    system: SYSTEMS.c4bbSupportingInfoType,
    code: 'refillsauthorized',
    display: 'Refills Authorized',
  },
} as const satisfies Record<string, FixedCoding>;

/** The objects of an array element (none when it is absent). */
export function list(value: unknown): Json[] {
  return Array.isArray(value) ? (value.filter((v) => typeof v === 'object' && v !== null) as Json[]) : [];
}

/** The codings of a CodeableConcept (none when it is absent). */
export function codingsOf(concept: unknown): Json[] {
  return list((concept as Json | undefined)?.coding);
}

export function sameCoding(coding: Json, fixed: FixedCoding): boolean {
  return coding.system === fixed.system && coding.code === fixed.code;
}

/** Whether the CodeableConcept has the coding (by system and code). */
export function hasCoding(concept: unknown, fixed: FixedCoding): boolean {
  return codingsOf(concept).some((c) => sameCoding(c, fixed));
}

/** HL7's data-absent-reason extension with its code (what a required element carries when the claim cannot say). */
export function dataAbsent(code: string): Json {
  return { url: SYSTEMS.dataAbsentReason, valueCode: code };
}

/** The elements that follow `key` in FHIR's order, by the list `order` that holds it. */
export function after(order: readonly string[], key: string): readonly string[] {
  return order.slice(order.indexOf(key) + 1);
}

/**
 * Sets `key` on `obj` just before the first of its keys that is in `before` (at the end when none is), the
 * other keys keeping their order.
 */
export function insertKey(obj: Json, key: string, value: unknown, before: readonly string[]): void {
  const entries = Object.entries(obj).filter(([k]) => k !== key);
  const at = entries.findIndex(([k]) => before.includes(k));
  entries.splice(at < 0 ? entries.length : at, 0, [key, value]);
  for (const k of Object.keys(obj)) Reflect.deleteProperty(obj, k);
  for (const [k, v] of entries) obj[k] = v;
}

/** Appends a supporting-information entry numbered after the last one. */
export function appendSupportingInfo(eob: Json, entry: Json): void {
  const info = list(eob.supportingInfo);
  const sequence = info.reduce((max, i) => Math.max(max, Number(i.sequence) || 0), 0) + 1;
  const added = { sequence, ...entry };
  if (eob.supportingInfo === undefined)
    insertKey(eob, 'supportingInfo', [added], after(EOB_ELEMENT_ORDER, 'supportingInfo'));
  else eob.supportingInfo = [...info, added];
}
