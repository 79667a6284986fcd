/**
 * BFD's v2 resources made valid against the CARIN Blue Button 2.0.0 profiles they claim, with the smallest
 * changes (docs/claims-rif.md#carin). BFD's answers break several 2.0.0 rules: unversioned profile
 * canonicals, two or three identifiers in the one-entry `uniqueclaimid` slice, care-team roles and diagnosis
 * types outside the bound ValueSets, DME and HHA claims naming the wrong profile for their content, and
 * required slices BFD leaves out (benefit payment status, procedure type, DAW code, refills authorized).
 * Each rule changes or adds only what its profile rule needs, from what the claim itself says; where the
 * claim cannot say, it uses CARIN's own "other" or the data-absent-reason. Nothing BFD sends is dropped
 * except where a profile forbids it (the surplus `uc` identifier types). Pure: a changed copy is returned.
 * The claim-level rules are here; the slices and line elements added from the claim are in
 * carin-conformance-slices.ts.
 */
import { c4bbProfileOf, profileCanonical } from '../carin.js';
import {
  CARE_TEAM_ROLE,
  FHIR_CLAIM_TYPE,
  SUPPORTING_INFO,
  SYSTEMS,
  UNIQUE_CLAIM_ID,
  fixedCoding,
} from './carin.js';
import {
  CODINGS,
  appendSupportingInfo,
  codingsOf,
  hasCoding,
  insertKey,
  list,
  sameCoding,
  type EobProfile,
} from './carin-conformance-json.js';
import {
  dawCodeSlice,
  institutionalBenefitPaymentStatus,
  lineBenefitPaymentStatus,
  outpatientLineDates,
  pharmacyBenefitPaymentStatus,
  professionalLineDates,
  refillsAuthorizedSlice,
} from './carin-conformance-slices.js';
import { VARIABLES, type Json } from './elements.js';

/**
 * The CARIN profile of each Blue Button claim type (its `eob-type` code). BFD names Inpatient-Institutional
 * for DME and Professional-NonClinician for HHA; their content says otherwise (`claimProfileOfContent`).
 */
export const CLAIM_PROFILE: Readonly<Record<string, EobProfile>> = {
  CARRIER: 'C4BB-ExplanationOfBenefit-Professional-NonClinician',
  DME: 'C4BB-ExplanationOfBenefit-Professional-NonClinician',
  HHA: 'C4BB-ExplanationOfBenefit-Inpatient-Institutional',
  HOSPICE: 'C4BB-ExplanationOfBenefit-Inpatient-Institutional',
  INPATIENT: 'C4BB-ExplanationOfBenefit-Inpatient-Institutional',
  SNF: 'C4BB-ExplanationOfBenefit-Inpatient-Institutional',
  OUTPATIENT: 'C4BB-ExplanationOfBenefit-Outpatient-Institutional',
  PDE: 'C4BB-ExplanationOfBenefit-Pharmacy',
};

/** A copy of a BFD-shaped Patient, Coverage or ExplanationOfBenefit that meets the profile it claims. */
export function conformToCarin(resource: Json): Json {
  const copy = structuredClone(resource);
  if (copy.resourceType === 'ExplanationOfBenefit') conformEob(copy);
  versionProfiles(copy);
  return copy;
}

function conformEob(eob: Json): void {
  const profile = claimProfileOfContent(eob);
  if (profile === undefined) return;
  singleUniqueClaimId(eob);
  renderingCareTeamRole(eob);
  diagnosisTypesOfProfile(eob, profile);
  switch (profile) {
    case 'C4BB-ExplanationOfBenefit-Professional-NonClinician':
      professionalLineDates(eob);
      lineBenefitPaymentStatus(eob);
      break;
    case 'C4BB-ExplanationOfBenefit-Inpatient-Institutional':
      procedureTypeByPosition(eob);
      admissionPeriodFromClaimDates(eob);
      institutionalBenefitPaymentStatus(eob);
      break;
    case 'C4BB-ExplanationOfBenefit-Outpatient-Institutional':
      outpatientLineDates(eob);
      institutionalBenefitPaymentStatus(eob);
      break;
    case 'C4BB-ExplanationOfBenefit-Pharmacy':
      pharmacyBenefitPaymentStatus(eob);
      dawCodeSlice(eob);
      refillsAuthorizedSlice(eob);
      break;
  }
}

// ---- Profiles ----------------------------------------------------------------------------------------

/**
 * `meta.profile` (the resource's and its contained resources'): each C4BB profile canonical with `|2.0.0`.
 * Every CARIN 2.0.0 profile has an invariant (`patient-meta-profile-version`, `coverage-…`,
 * `EOB-…-meta-profile-version`, `organization-…`) requiring the major.minor version in `meta.profile`;
 * BFD's canonicals carry none.
 */
function versionProfiles(resource: Json): void {
  const version = (r: Json) => {
    const meta = r.meta as { profile?: unknown } | undefined;
    if (!Array.isArray(meta?.profile)) return;
    meta.profile = meta.profile.map((canonical: unknown) => {
      const named = typeof canonical === 'string' ? c4bbProfileOf(canonical) : null;
      return named?.version === null ? profileCanonical(named.name) : canonical;
    });
  };
  version(resource);
  list(resource.contained).forEach(version);
}

/**
 * The claim names the CARIN profile of its claim type (`CLAIM_PROFILE`) and the HL7 claim type that profile
 * fixes (`ExplanationOfBenefit.type` pattern). BFD names Inpatient-Institutional and HL7 `institutional`
 * for DME claims, whose content is professional (HCPCS lines with a place of service and a performing
 * supplier, no revenue centre, no admission), and Professional-NonClinician with `professional` for HHA
 * claims, whose content is institutional (revenue-centre lines, an attending physician, BFD's own
 * `inpatient` subType and admission period). Returns the profile; undefined for an unknown claim type.
 */
function claimProfileOfContent(eob: Json): EobProfile | undefined {
  const eobType = codingsOf(eob.type).find((c) => c.system === SYSTEMS.eobType)?.code;
  const profile = typeof eobType === 'string' ? CLAIM_PROFILE[eobType] : undefined;
  if (profile === undefined) return undefined;
  const meta = (eob.meta ??= {}) as { profile?: string[] };
  const claimed = meta.profile ?? [];
  if (!claimed.some((p) => c4bbProfileOf(p)?.name === profile)) {
    const others = claimed.filter((p) => !c4bbProfileOf(p)?.name.startsWith('C4BB-ExplanationOfBenefit'));
    meta.profile = [...others, profileCanonical(profile)];
  }
  const hl7Type =
    profile === 'C4BB-ExplanationOfBenefit-Professional-NonClinician'
      ? FHIR_CLAIM_TYPE.professional
      : profile === 'C4BB-ExplanationOfBenefit-Pharmacy'
        ? FHIR_CLAIM_TYPE.pharmacy
        : FHIR_CLAIM_TYPE.institutional;
  const type = (eob.type ??= {}) as Json;
  const coding = codingsOf(type).find((c) => c.system === SYSTEMS.claimType);
  if (coding === undefined) type.coding = [...codingsOf(type), fixedCoding(hl7Type)];
  else if (coding.code !== hl7Type.code) Object.assign(coding, fixedCoding(hl7Type));
  return profile;
}

// ---- Identifiers -------------------------------------------------------------------------------------

/** The systems of the claim's own number (`CLM_ID`, or `PDE_ID` for a Part D event). */
const CLAIM_NUMBER_SYSTEMS = new Set([`${VARIABLES}clm_id`, `${VARIABLES}pde_id`]);

/**
 * `identifier:uniqueclaimid` is 1..1 (C4BB-ExplanationOfBenefit): one identifier typed `uc`. BFD types
 * the claim group (`claim-group`) and, on Part D events, the prescription reference number
 * (`RX_SRVC_RFRNC_NUM`) `uc` as well. The claim's own number keeps the type; the others lose that one coding
 * (and their `type` when nothing is left), keeping their system and value.
 */
function singleUniqueClaimId(eob: Json): void {
  const typed = list(eob.identifier).filter((id) => hasCoding(id.type, UNIQUE_CLAIM_ID));
  const keep = typed.find((id) => CLAIM_NUMBER_SYSTEMS.has(String(id.system))) ?? typed[0];
  for (const id of typed) {
    if (id === keep) continue;
    const rest = codingsOf(id.type).filter((c) => !sameCoding(c, UNIQUE_CLAIM_ID));
    if (rest.length === 0) delete id.type;
    else (id.type as Json).coding = rest;
  }
}

// ---- Care team and diagnoses -------------------------------------------------------------------------

/**
 * `careTeam.role` is bound (required) to C4BBClaimProfessionalAndNonClinicianCareTeamRole and
 * C4BBClaimInstitutionalCareTeamRole, whose code for the provider who performed the service is `rendering`
 * ("the performing or rendering provider"); BFD still uses `performing`, a code CARIN 2.0.0's
 * C4BBClaimCareTeamRole no longer has. The coding is renamed; nothing else of the member changes.
 */
function renderingCareTeamRole(eob: Json): void {
  for (const member of list(eob.careTeam)) {
    for (const coding of codingsOf(member.role)) {
      if (sameCoding(coding, CARE_TEAM_ROLE.performing)) Object.assign(coding, CODINGS.rendering);
    }
  }
}

/** The diagnosis types each profile's `diagnosis.type` ValueSet allows (required binding), by system. */
const DIAGNOSIS_TYPES: Partial<Record<EobProfile, Record<string, readonly string[]>>> = {
  'C4BB-ExplanationOfBenefit-Professional-NonClinician': {
    [SYSTEMS.hl7DiagnosisType]: ['principal'],
    [SYSTEMS.c4bbDiagnosisType]: ['secondary'],
  },
  'C4BB-ExplanationOfBenefit-Inpatient-Institutional': {
    [SYSTEMS.hl7DiagnosisType]: ['principal', 'admitting'],
    [SYSTEMS.c4bbDiagnosisType]: ['other', 'externalcauseofinjury'],
  },
  'C4BB-ExplanationOfBenefit-Outpatient-Institutional': {
    [SYSTEMS.hl7DiagnosisType]: ['principal'],
    [SYSTEMS.c4bbDiagnosisType]: ['other', 'externalcauseofinjury', 'patientreasonforvisit'],
  },
};

/**
 * `diagnosis.type` is bound (required) to the profile's diagnosis-type ValueSet: principal/secondary on
 * professional claims; principal, admitting, other and external cause on inpatient ones. BFD types a DME
 * claim's further diagnoses `other` (an institutional code) and an HHA claim's `secondary` (a professional
 * one). A type the profile does not allow becomes the profile's code for "a further diagnosis": `secondary`
 * on professional claims, `other` on institutional ones.
 */
function diagnosisTypesOfProfile(eob: Json, profile: EobProfile): void {
  const allowed = DIAGNOSIS_TYPES[profile];
  if (allowed === undefined) return;
  const further =
    profile === 'C4BB-ExplanationOfBenefit-Professional-NonClinician' ? CODINGS.secondary : CODINGS.other;
  for (const diagnosis of list(eob.diagnosis)) {
    for (const coding of list(diagnosis.type).flatMap(codingsOf)) {
      const codes = allowed[String(coding.system)];
      if (codes !== undefined && !codes.includes(String(coding.code))) Object.assign(coding, further);
    }
  }
}

// ---- Inpatient ---------------------------------------------------------------------------------------

/**
 * `procedure.type` is 1..1 on inpatient claims (C4BBClaimProcedureType: `principal` or `other`). BFD sends
 * none. The CCW's first procedure column, `ICD_PRCDR_CD1`, is the principal procedure and BFD numbers the
 * procedures in column order, so the first procedure (lowest sequence) is `principal` and the rest `other`.
 */
function procedureTypeByPosition(eob: Json): void {
  const procedures = list(eob.procedure);
  if (procedures.length === 0) return;
  const first = Math.min(...procedures.map((p) => Number(p.sequence)));
  for (const procedure of procedures) {
    if (procedure.type !== undefined) continue;
    const coding = Number(procedure.sequence) === first ? CODINGS.principalProcedure : CODINGS.otherProcedure;
    insertKey(procedure, 'type', [{ coding: [fixedCoding(coding)] }], ['date', 'procedureCodeableConcept']);
  }
}

/**
 * `supportingInfo:admissionperiod` is 1..1 on inpatient claims. BFD adds it from the admission (and
 * discharge) dates when the claim has them; a claim with neither gets the claim's own dates
 * (`billablePeriod`: the claim's from and through dates, the period the claim covers).
 */
function admissionPeriodFromClaimDates(eob: Json): void {
  if (list(eob.supportingInfo).some((i) => hasCoding(i.category, SUPPORTING_INFO.admissionPeriod))) return;
  const period = eob.billablePeriod as Json | undefined;
  if (period === undefined) return;
  appendSupportingInfo(eob, {
    category: { coding: [fixedCoding(SUPPORTING_INFO.admissionPeriod)] },
    timingPeriod: { ...period },
  });
}
