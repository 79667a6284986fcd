/**
 * The part of an ExplanationOfBenefit every claim type shares, as BFD builds it (in BFD's public repository
 * TransformerUtilsV2.mapEobCommonClaimHeaderData and mapEobType): id, CARIN profile, claim identifiers,
 * status, type, patient, billable period, insurer, outcome, Medicare coverage and payment amount
 * (docs/claims-rif.md#elements). Each record type's transform starts from `eobHeader` and adds its own
 * elements; `orderEob` then puts the elements in FHIR's order, the order BFD's answers show.
 */
import { FHIR_CLAIM_TYPE, SYSTEMS, UNIQUE_CLAIM_ID, fixedCoding } from './carin.js';
import { field, requiredField } from './ccw.js';
import { variableCoding, codingExtension } from './elements.js';
import { type Json, money, decimal, variableUrl } from './elements.js';
import {
  type RifClaim,
  type RifClaimType,
  type RifRow,
  type TransformContext,
  rifDate,
} from './rif-record.js';

/** BFD's name of each claim type (its ClaimType enum), the code of the `eob-type` coding. */
export const CLAIM_TYPE_CODES: Readonly<Record<RifClaimType, string>> = {
  carrier: 'CARRIER',
  dme: 'DME',
  hha: 'HHA',
  hospice: 'HOSPICE',
  inpatient: 'INPATIENT',
  outpatient: 'OUTPATIENT',
  pde: 'PDE',
  snf: 'SNF',
};

const PROFILE = 'http://hl7.org/fhir/us/carin-bb/StructureDefinition/C4BB-ExplanationOfBenefit-';

/**
 * The CARIN EOB profile BFD declares per claim type. DME claims declare the inpatient institutional profile
 * and HHA claims the professional one, as BFD's do.
 */
export const EOB_PROFILES: Readonly<Record<RifClaimType, string>> = {
  carrier: `${PROFILE}Professional-NonClinician`,
  hha: `${PROFILE}Professional-NonClinician`,
  dme: `${PROFILE}Inpatient-Institutional`,
  inpatient: `${PROFILE}Inpatient-Institutional`,
  hospice: `${PROFILE}Inpatient-Institutional`,
  snf: `${PROFILE}Inpatient-Institutional`,
  outpatient: `${PROFILE}Outpatient-Institutional`,
  pde: `${PROFILE}Pharmacy`,
};

/** The Medicare coverage (`Coverage/<segment>-<bene>`) BFD names as each claim type's insurance. */
export const COVERAGE_SEGMENTS: Readonly<Record<RifClaimType, string>> = {
  carrier: 'part-b',
  outpatient: 'part-b',
  hha: 'part-b',
  dme: 'part-a',
  inpatient: 'part-a',
  hospice: 'part-a',
  snf: 'part-a',
  pde: 'part-d',
};

/** The HL7 claim-type family BFD gives each claim type (DME counts as institutional, HHA as professional). */
export const CLAIM_FAMILIES: Readonly<Record<RifClaimType, keyof typeof FHIR_CLAIM_TYPE>> = {
  pde: 'pharmacy',
  inpatient: 'institutional',
  outpatient: 'institutional',
  hospice: 'institutional',
  snf: 'institutional',
  dme: 'institutional',
  carrier: 'professional',
  hha: 'professional',
};

/**
 * A RIF number BFD stores as a long (claim, event, group and beneficiary ids) as BFD writes it back: leading
 * zeros dropped. Anything that is not an integer is kept as it is.
 */
export function longText(raw: string): string {
  return /^-?\d+$/.test(raw) ? BigInt(raw).toString() : raw;
}

/** The EOB's id: the claim type in lower case, a hyphen, the claim id (`carrier-9991831999`, `pde-89`). */
export function eobId(type: RifClaimType, claimId: string): string {
  return `${type}-${longText(claimId)}`;
}

/** The reference to the beneficiary's Medicare coverage for this claim type (`Coverage/part-b-567834`). */
export function coverageReference(type: RifClaimType, beneId: string): string {
  return `Coverage/${COVERAGE_SEGMENTS[type]}-${longText(beneId)}`;
}

/** A claim identifier: typed "Unique Claim ID", in the given system. */
export function claimIdentifier(system: string, value: string): Json {
  return { type: { coding: [fixedCoding(UNIQUE_CLAIM_ID)] }, system, value };
}

/** `FINAL_ACTION` → status: F(inal) is active, N(ot final) cancelled; anything else is not a valid claim. */
export function eobStatus(finalAction: string): string {
  if (finalAction === 'F') return 'active';
  if (finalAction === 'N') return 'cancelled';
  throw new Error(`FINAL_ACTION must be F or N, not '${finalAction}'`);
}

/**
 * `EOB.type`: the NCH claim type code when the record has one, BFD's `eob-type` code, and HL7's claim type
 * of the claim's family.
 */
export function eobType(type: RifClaimType, row: RifRow): Json {
  const coding: Json[] = [];
  const nchType = field(row, 'NCH_CLM_TYPE_CD');
  if (type !== 'pde' && nchType !== undefined) coding.push(variableCoding('NCH_CLM_TYPE_CD', nchType));
  coding.push({ system: SYSTEMS.eobType, code: CLAIM_TYPE_CODES[type] });
  coding.push(fixedCoding(FHIR_CLAIM_TYPE[CLAIM_FAMILIES[type]]));
  return { coding };
}

/** `EOB.subType` of the institutional claims: CARIN's institutional claim subtype, with its name as text. */
export function institutionalSubType(kind: 'inpatient' | 'outpatient'): Json {
  return {
    coding: [{ system: SYSTEMS.institutionalSubType, code: kind }],
    text: kind === 'inpatient' ? 'Inpatient' : 'Outpatient',
  };
}

/** A RIF date column as `YYYY-MM-DD`; throws naming the column when it is empty or malformed. */
export function requiredDate(row: RifRow, column: string): string {
  const date = rifDate(requiredField(row, column));
  if (date === undefined) throw new Error(`RIF column ${column} is not a date: '${row[column]}'`);
  return date;
}

/** A RIF date column as `YYYY-MM-DD`; undefined when empty, throws when malformed. */
export function optionalDate(row: RifRow, column: string): string | undefined {
  return field(row, column) === undefined ? undefined : requiredDate(row, column);
}

/**
 * The header every claim type shares, keys in BFD's order: id, profile, the near-line record extension (not
 * for Part D events), the claim id (`CLM_ID`, or `PDE_ID`) and claim group identifiers, status from
 * `FINAL_ACTION`, type, use, patient, billable period (`CLM_FROM_DT`–`CLM_THRU_DT`, a Part D event's
 * `SRVC_DT`), created (the load's time), insurer CMS, outcome complete, the Medicare coverage and the claim's
 * payment amount (`CLM_PMT_AMT`). The per-type transforms add the rest.
 */
export function eobHeader(type: RifClaimType, claim: RifClaim, context: TransformContext): Json {
  const row = claim.rows[0];
  if (row === undefined) throw new Error('a claim has at least one row');
  const pde = type === 'pde';
  const idColumn = pde ? 'PDE_ID' : 'CLM_ID';
  const claimId = longText(requiredField(row, idColumn));
  const eob: Json = {
    resourceType: 'ExplanationOfBenefit',
    id: eobId(type, claimId),
    meta: { profile: [EOB_PROFILES[type]] },
  };
  const nearLine = field(row, 'NCH_NEAR_LINE_REC_IDENT_CD');
  if (!pde && nearLine !== undefined)
    eob.extension = [codingExtension('NCH_NEAR_LINE_REC_IDENT_CD', nearLine)];
  eob.identifier = [
    claimIdentifier(variableUrl(idColumn), claimId),
    claimIdentifier(SYSTEMS.claimGroup, longText(field(row, 'CLM_GRP_ID') ?? '0')),
  ];
  eob.status = eobStatus(requiredField(row, 'FINAL_ACTION'));
  eob.type = eobType(type, row);
  eob.use = 'claim';
  eob.patient = { reference: `Patient/${longText(requiredField(row, 'BENE_ID'))}` };
  const start = optionalDate(row, pde ? 'SRVC_DT' : 'CLM_FROM_DT');
  if (start !== undefined) {
    eob.billablePeriod = { start, end: pde ? start : requiredDate(row, 'CLM_THRU_DT') };
  }
  eob.created = context.created;
  eob.insurer = { identifier: { value: 'CMS' } };
  eob.outcome = 'complete';
  eob.insurance = [
    { focal: true, coverage: { reference: coverageReference(type, requiredField(row, 'BENE_ID')) } },
  ];
  const payment = pde ? undefined : decimal(field(row, 'CLM_PMT_AMT') ?? '');
  if (payment !== undefined) eob.payment = { amount: money(payment) };
  return eob;
}

/** ExplanationOfBenefit's elements in FHIR R4's order (the order HAPI, and so BFD, writes them). */
export const EOB_ELEMENT_ORDER = [
  'resourceType',
  'id',
  'meta',
  'implicitRules',
  'language',
  'text',
  'contained',
  'extension',
  'modifierExtension',
  'identifier',
  'status',
  'type',
  'subType',
  'use',
  'patient',
  'billablePeriod',
  'created',
  'enterer',
  'insurer',
  'provider',
  'priority',
  'fundsReserveRequested',
  'fundsReserve',
  'related',
  'prescription',
  'originalPrescription',
  'payee',
  'referral',
  'facility',
  'claim',
  'claimResponse',
  'outcome',
  'disposition',
  'preAuthRef',
  'preAuthRefPeriod',
  'careTeam',
  'supportingInfo',
  'diagnosis',
  'procedure',
  'precedence',
  'insurance',
  'accident',
  'item',
  'addItem',
  'adjudication',
  'total',
  'payment',
  'formCode',
  'form',
  'processNote',
  'benefitPeriod',
  'benefitBalance',
] as const;

/**
 * The same EOB with its top-level elements in FHIR's order (unknown keys last, in their order) and empty
 * arrays left out, as FHIR JSON never has them.
 */
export function orderEob(eob: Json): Json {
  const out: Json = {};
  const known = new Set<string>(EOB_ELEMENT_ORDER);
  const keep = (key: string): void => {
    const value = eob[key];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) return;
    out[key] = value;
  };
  for (const key of EOB_ELEMENT_ORDER) if (key in eob) keep(key);
  for (const key of Object.keys(eob)) if (!known.has(key)) keep(key);
  return out;
}
