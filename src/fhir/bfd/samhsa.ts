/**
 * Which claims BB2 withholds when an app asks `excludeSAMHSA=true`: those that carry a code of substance use
 * disorder treatment (42 CFR Part 2) in a diagnosis, an ICD procedure, a DRG or a line's procedure code. The
 * rules are BFD's (its R4 EOB SAMHSA matcher): fail safe, a code in a system it cannot judge counts as
 * sensitive (docs/claims-rif.md#samhsa).
 */
import { VARIABLES, type Json } from './elements.js';
import { SAMHSA_DRG, SAMHSA_HCPCS, SAMHSA_ICD_DIAGNOSES, SAMHSA_ICD_PROCEDURES } from './samhsa-codes.js';

const DRG_SYSTEM = `${VARIABLES}clm_drg_cd`;
/**
 * The systems of a line's procedure code whose codes the lists name: Blue Button's HCPCS system, and for
 * claims a plan imports as CARIN NDJSON the published HCPCS and CPT systems.
 */
const LINE_CODE_SYSTEMS = new Set([
  'https://bluebutton.cms.gov/resources/codesystem/hcpcs',
  'https://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets',
  'http://www.ama-assn.org/go/cpt',
]);
/**
 * Systems a line's procedure code may use without the line counting as sensitive: those above, BFD's
 * HCPCS variable, and "data absent" (the extension URL BFD uses and the HL7 code system CARIN data uses).
 */
const KNOWN_LINE_SYSTEMS = new Set([
  ...LINE_CODE_SYSTEMS,
  `${VARIABLES}hcpcs_cd`,
  'http://hl7.org/fhir/StructureDefinition/data-absent-reason',
  'http://terminology.hl7.org/CodeSystem/data-absent-reason',
]);
const ICD_SYSTEMS = new Set([
  'http://hl7.org/fhir/sid/icd-9-cm',
  'http://www.cms.gov/Medicare/Coding/ICD9',
  'http://hl7.org/fhir/sid/icd-10',
  'http://hl7.org/fhir/sid/icd-10-cm',
  'http://www.cms.gov/Medicare/Coding/ICD10',
]);

const drgCodes = new Set(SAMHSA_DRG);
const hcpcsCodes = new Set(SAMHSA_HCPCS);
const diagnosisCodes = new Set(SAMHSA_ICD_DIAGNOSES);
const procedureCodes = new Set(SAMHSA_ICD_PROCEDURES);

/** The EOB's BFD claim type (`CARRIER`, `PDE`, `INPATIENT`, …), from its eob-type coding. */
function claimType(eob: Json): string | undefined {
  const type = eob.type as { coding?: Json[] } | undefined;
  const found = type?.coding?.find(
    (c) => c.system === 'https://bluebutton.cms.gov/resources/codesystem/eob-type',
  );
  return found?.code as string | undefined;
}

function codings(concept: unknown): Json[] {
  return ((concept as { coding?: Json[] } | undefined)?.coding ?? []) as Json[];
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? (value as Json[]) : [];
}

/** BFD's normal form of an ICD code: trimmed, the first dot dropped, upper case. */
function icd(code: unknown): string {
  return String(code).trim().replace('.', '').toUpperCase();
}

/** An ICD coding is sensitive when its code is listed; a coding of no known ICD system is, to be safe. */
function sensitiveIcd(coding: Json, codes: Set<string>): boolean {
  if (typeof coding.system !== 'string' || !ICD_SYSTEMS.has(coding.system)) return true;
  return coding.code != null && codes.has(icd(coding.code));
}

function sensitiveDrg(coding: Json): boolean {
  return coding.code != null && drgCodes.has(String(coding.code).trim().replace('MS-DRG ', ''));
}

function sensitiveDiagnosis(diagnosis: Json): boolean {
  if (codings(diagnosis.diagnosisCodeableConcept).some((c) => sensitiveIcd(c, diagnosisCodes))) return true;
  // A package code outside the DRG system cannot be judged, so it counts.
  return codings(diagnosis.packageCode).some((c) => c.system !== DRG_SYSTEM || sensitiveDrg(c));
}

function sensitiveLine(item: Json): boolean {
  const found = codings(item.productOrService);
  if (found.length === 0) return false;
  const hcpcs =
    found.some((c) => LINE_CODE_SYSTEMS.has(String(c.system))) &&
    found.some((c) => c.code != null && hcpcsCodes.has(String(c.code).trim().toUpperCase()));
  return hcpcs || found.some((c) => !KNOWN_LINE_SYSTEMS.has(String(c.system)));
}

/** Whether BB2 would withhold this EOB from a search with `excludeSAMHSA=true`. */
export function isSamhsa(eob: Json): boolean {
  const type = claimType(eob);
  if (type === undefined || type === 'PDE') return false;
  if (type === 'INPATIENT' || type === 'OUTPATIENT' || type === 'SNF') {
    if (
      list(eob.procedure).some((p) =>
        codings(p.procedureCodeableConcept).some((c) => sensitiveIcd(c, procedureCodes)),
      )
    )
      return true;
    if (
      list(eob.supportingInfo).some((s) =>
        codings(s.code).some((c) => c.system === DRG_SYSTEM && sensitiveDrg(c)),
      )
    )
      return true;
  }
  return list(eob.diagnosis).some(sensitiveDiagnosis) || list(eob.item).some(sensitiveLine);
}
