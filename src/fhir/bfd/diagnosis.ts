/**
 * A claim's diagnoses as BFD serves them (DiagnosisUtilV2, commons/Diagnosis and commons/IcdCode in BFD's
 * public repository; docs/claims-rif.md#elements). The diagnosis columns are read in BFD's order: admitting,
 * the first (principal) ICD diagnosis, the principal diagnosis column, ICD diagnoses 2–25, the external causes
 * (the first, the "first external" column, 2–12) and the outpatient reasons for visit 1–3. A code already on
 * the claim in the same system is not added again, so the principal diagnosis usually arrives once, from
 * `ICD_DGNS_CD1`. Each diagnosis gets the type its claim family uses and, on inpatient claims, its
 * present-on-admission indicator as an extension.
 */
import { SYSTEMS } from './carin.js';
import { field } from './ccw.js';
import { codingExtension } from './elements.js';
import type { Json } from './elements.js';
import type { ClaimLookups } from './lookups.js';
import type { RifClaimType, RifRow } from './rif-record.js';
import { arrayOf } from './supporting-info.js';
import { orderKeys, ITEM_ORDER } from './care-team.js';

/** The ICD code systems BFD uses, by the CCW version code ('9', '0'; blank or other: unknown). */
export const ICD_SYSTEMS = {
  icd9: 'http://hl7.org/fhir/sid/icd-9-cm',
  icd9Medicare: 'http://www.cms.gov/Medicare/Coding/ICD9',
  icd10: 'http://hl7.org/fhir/sid/icd-10',
  icd10Cm: 'http://hl7.org/fhir/sid/icd-10-cm',
  icd10Medicare: 'http://www.cms.gov/Medicare/Coding/ICD10',
  unknown: 'http://hl7.org/fhir/sid/unknown-icd-version',
} as const;

/**
 * The FHIR system of an ICD code by its CCW version code: '9' ICD-9-CM, '0' ICD-10, blank the unknown-version
 * system, any other character that system with the character appended.
 */
export function icdSystem(version: string | undefined): string {
  if (version === undefined || version.trim() === '') return ICD_SYSTEMS.unknown;
  if (version === '9') return ICD_SYSTEMS.icd9;
  if (version === '0') return ICD_SYSTEMS.icd10;
  return `${ICD_SYSTEMS.unknown}/${version}`;
}

/** What a diagnosis is on the claim (BFD's DiagnosisLabel). */
export type DiagnosisLabel =
  'principal' | 'other' | 'admitting' | 'firstExternal' | 'external' | 'reasonForVisit';

/** One diagnosis read from the claim's columns. */
export interface Diagnosis {
  readonly code: string;
  /** The CCW version code ('9', '0'); undefined when the column is empty. */
  readonly version?: string;
  readonly label: DiagnosisLabel;
  /** The present-on-admission indicator and the CCW variable it comes from (inpatient claims only). */
  readonly presentOnAdmission?: string;
  readonly presentOnAdmissionVariable?: string;
}

/** A diagnosis from its code, version and indicator columns; undefined when the code column is empty. */
function diagnosisAt(
  row: RifRow,
  codeColumn: string,
  versionColumn: string,
  label: DiagnosisLabel,
  poaColumn?: string,
): Diagnosis | undefined {
  const code = field(row, codeColumn);
  if (code === undefined) return undefined;
  const version = field(row, versionColumn);
  const poa = poaColumn === undefined ? undefined : field(row, poaColumn);
  return {
    code,
    ...(version === undefined ? {} : { version }),
    label,
    ...(poa === undefined || poaColumn === undefined
      ? {}
      : { presentOnAdmission: poa, presentOnAdmissionVariable: poaColumn }),
  };
}

const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * The claim-level diagnoses of a claim row, in BFD's order (see the module comment). A column the record
 * type lacks is simply empty, so one reader serves every claim type.
 */
export function extractDiagnoses(row: RifRow): Diagnosis[] {
  const found: (Diagnosis | undefined)[] = [
    diagnosisAt(row, 'ADMTG_DGNS_CD', 'ADMTG_DGNS_VRSN_CD', 'admitting'),
    diagnosisAt(row, 'ICD_DGNS_CD1', 'ICD_DGNS_VRSN_CD1', 'principal', 'CLM_POA_IND_SW1'),
    diagnosisAt(row, 'PRNCPAL_DGNS_CD', 'PRNCPAL_DGNS_VRSN_CD', 'principal'),
    ...range(2, 25).map((i) =>
      diagnosisAt(row, `ICD_DGNS_CD${i}`, `ICD_DGNS_VRSN_CD${i}`, 'other', `CLM_POA_IND_SW${i}`),
    ),
    diagnosisAt(row, 'ICD_DGNS_E_CD1', 'ICD_DGNS_E_VRSN_CD1', 'firstExternal', 'CLM_E_POA_IND_SW1'),
    diagnosisAt(row, 'FST_DGNS_E_CD', 'FST_DGNS_E_VRSN_CD', 'firstExternal'),
    ...range(2, 12).map((i) =>
      diagnosisAt(row, `ICD_DGNS_E_CD${i}`, `ICD_DGNS_E_VRSN_CD${i}`, 'external', `CLM_E_POA_IND_SW${i}`),
    ),
    ...range(1, 3).map((i) =>
      diagnosisAt(row, `RSN_VISIT_CD${i}`, `RSN_VISIT_VRSN_CD${i}`, 'reasonForVisit'),
    ),
  ];
  return found.filter((d): d is Diagnosis => d !== undefined);
}

/** A line's own diagnosis (`LINE_ICD_DGNS_CD`, carrier and DME lines), labelled "other"; undefined if empty. */
export function lineDiagnosis(row: RifRow): Diagnosis | undefined {
  return diagnosisAt(row, 'LINE_ICD_DGNS_CD', 'LINE_ICD_DGNS_VRSN_CD', 'other');
}

const EX = SYSTEMS.hl7DiagnosisType;
const C4BB = SYSTEMS.c4bbDiagnosisType;
const PRINCIPAL = { system: EX, code: 'principal', display: 'Principal Diagnosis' };
const OTHER = { system: C4BB, code: 'other', display: 'Other' };
const EXTERNAL = { system: C4BB, code: 'externalcauseofinjury', display: 'External Cause of Injury' };

/** Diagnosis type codings of inpatient claims. */
const INPATIENT_TYPES: Record<DiagnosisLabel, Json> = {
  principal: PRINCIPAL,
  admitting: { system: EX, code: 'admitting', display: 'Admitting Diagnosis' },
  firstExternal: EXTERNAL,
  external: EXTERNAL,
  reasonForVisit: OTHER,
  other: OTHER,
};

/** Diagnosis type codings of outpatient, hospice, SNF and DME claims (no admitting type: "other"). */
const OUTPATIENT_TYPES: Record<DiagnosisLabel, Json> = {
  principal: PRINCIPAL,
  admitting: OTHER,
  firstExternal: EXTERNAL,
  external: EXTERNAL,
  reasonForVisit: { system: C4BB, code: 'patientreasonforvisit', display: 'Patient Reason for Visit' },
  other: OTHER,
};

/** Diagnosis type codings of carrier and HHA claims: principal (displayed in lower case, as BFD) or secondary. */
const PROFESSIONAL_TYPES: Record<DiagnosisLabel, Json> = (() => {
  const secondary = { system: C4BB, code: 'secondary', display: 'Secondary' };
  return {
    principal: { system: EX, code: 'principal', display: 'principal' },
    admitting: secondary,
    firstExternal: secondary,
    external: secondary,
    reasonForVisit: secondary,
    other: secondary,
  };
})();

/** Diagnosis type codings of Part D events: HL7's principal and admitting, else Blue Button's own types. */
const PHARMACY_TYPES: Record<DiagnosisLabel, Json> = {
  principal: PRINCIPAL,
  admitting: { system: EX, code: 'admitting', display: 'Admitting Diagnosis' },
  firstExternal: {
    system: SYSTEMS.diagnosisType,
    code: 'external-first',
    display:
      'The code used to identify the 1st external cause of injury, poisoning, or other adverse effect.',
  },
  external: {
    system: SYSTEMS.diagnosisType,
    code: 'external',
    display: 'A code used to identify an external cause of injury, poisoning, or other adverse effect.',
  },
  reasonForVisit: {
    system: SYSTEMS.diagnosisType,
    code: 'reason-for-visit',
    display: "A diagnosis code used to identify the patient's reason for the visit.",
  },
  other: {
    system: SYSTEMS.diagnosisType,
    code: 'other',
    display: 'Required when other conditions coexist or develop subsequently during the treatment',
  },
};

const TYPES_BY_CLAIM: Record<RifClaimType, Record<DiagnosisLabel, Json>> = {
  pde: PHARMACY_TYPES,
  inpatient: INPATIENT_TYPES,
  outpatient: OUTPATIENT_TYPES,
  hospice: OUTPATIENT_TYPES,
  snf: OUTPATIENT_TYPES,
  dme: OUTPATIENT_TYPES,
  carrier: PROFESSIONAL_TYPES,
  hha: PROFESSIONAL_TYPES,
};

/** The diagnosis type coding BFD gives a diagnosis of this label on this claim type. */
export function diagnosisTypeCoding(label: DiagnosisLabel, type: RifClaimType): Json {
  return { ...TYPES_BY_CLAIM[type][label] };
}

/**
 * The diagnosis as a CodeableConcept: an ICD-10 code also as ICD-10-CM (first, as CARIN asks), each coding
 * displayed with the code's description when the lookups know it.
 */
export function diagnosisConcept(diagnosis: Diagnosis, lookups: ClaimLookups): Json {
  const system = icdSystem(diagnosis.version);
  const display = lookups.codeDescription(system, diagnosis.code);
  const systems = system === ICD_SYSTEMS.icd10 ? [ICD_SYSTEMS.icd10Cm, system] : [system];
  return {
    coding: systems.map((s) =>
      display === undefined
        ? { system: s, code: diagnosis.code }
        : { system: s, code: diagnosis.code, display },
    ),
  };
}

/** Whether the claim already has this code in this system. */
function findDiagnosis(eob: Json, diagnosis: Diagnosis): Json | undefined {
  const system = icdSystem(diagnosis.version);
  return arrayOf(eob, 'diagnosis').find((d) =>
    (((d.diagnosisCodeableConcept as Json | undefined)?.coding ?? []) as Json[]).some(
      (c) => c.system === system && c.code === diagnosis.code,
    ),
  );
}

/**
 * Adds the diagnosis to the claim unless its code is there already in the same system, and returns its
 * sequence either way.
 */
export function addDiagnosis(
  eob: Json,
  diagnosis: Diagnosis,
  type: RifClaimType,
  lookups: ClaimLookups,
): number {
  const existing = findDiagnosis(eob, diagnosis);
  if (existing !== undefined) return existing.sequence as number;
  const diagnoses = arrayOf(eob, 'diagnosis');
  const entry: Json = {};
  if (diagnosis.presentOnAdmission !== undefined && diagnosis.presentOnAdmissionVariable !== undefined) {
    entry.extension = [codingExtension(diagnosis.presentOnAdmissionVariable, diagnosis.presentOnAdmission)];
  }
  entry.sequence = diagnoses.length + 1;
  entry.diagnosisCodeableConcept = diagnosisConcept(diagnosis, lookups);
  entry.type = [{ coding: [diagnosisTypeCoding(diagnosis.label, type)] }];
  diagnoses.push(entry);
  return entry.sequence as number;
}

/** Adds every claim-level diagnosis of the claim's (first) row, in BFD's order. */
export function addDiagnoses(eob: Json, row: RifRow, type: RifClaimType, lookups: ClaimLookups): void {
  for (const diagnosis of extractDiagnoses(row)) addDiagnosis(eob, diagnosis, type, lookups);
}

/**
 * Adds a line's diagnosis to the claim (or finds it there) and links it from the item through
 * `item.diagnosisSequence`; nothing when there is no diagnosis.
 */
export function addDiagnosisLink(
  eob: Json,
  item: Json,
  diagnosis: Diagnosis | undefined,
  type: RifClaimType,
  lookups: ClaimLookups,
): void {
  if (diagnosis === undefined) return;
  const sequence = addDiagnosis(eob, diagnosis, type, lookups);
  const sequences = item.diagnosisSequence as number[] | undefined;
  if (sequences === undefined) {
    item.diagnosisSequence = [sequence];
    orderKeys(item, ITEM_ORDER);
  } else sequences.push(sequence);
}

/**
 * Adds a carrier or DME line's own diagnosis (`LINE_ICD_DGNS_CD`) and links it from the line's item. BFD
 * types it as a carrier (professional) diagnosis on DME claims too, "secondary" where the DME claim's own
 * diagnoses say "other"; this does the same.
 */
export function addLineDiagnosis(eob: Json, item: Json, row: RifRow, lookups: ClaimLookups): void {
  addDiagnosisLink(eob, item, lineDiagnosis(row), 'carrier', lookups);
}
