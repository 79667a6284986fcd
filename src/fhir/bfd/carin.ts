/**
 * The fixed codings BFD puts on every claim: the CARIN Blue Button (C4BB) code systems for adjudication
 * categories, payer adjudication status, supporting-information slices, care-team roles, identifier types and
 * diagnosis types, the HL7 systems they borrow from, and the Blue Button systems of BFD's own
 * (docs/claims-rif.md#elements). Each coding is written out as BFD serves it, display included.
 */
import type { Json } from './elements.js';

/** A fixed coding: system, code and, when BFD gives one, display. */
export interface FixedCoding {
  readonly system: string;
  readonly code: string;
  readonly display?: string;
}

/** The coding as a plain JSON object, display only when it has one. */
export function fixedCoding(c: FixedCoding): Json {
  return c.display === undefined
    ? { system: c.system, code: c.code }
    : { system: c.system, code: c.code, display: c.display };
}

/** A CodeableConcept of one fixed coding. */
export function fixedConcept(c: FixedCoding): Json {
  return { coding: [fixedCoding(c)] };
}

export const CARIN_BB = 'http://hl7.org/fhir/us/carin-bb';
const CARIN_CS = `${CARIN_BB}/CodeSystem/`;
const HL7_CS = 'http://terminology.hl7.org/CodeSystem/';
/** Blue Button's own resources (`…/codesystem/…`, `…/identifier/…`, `…/variables/…`). */
export const BB_RESOURCES = 'https://bluebutton.cms.gov/resources';

/** Systems BFD names in claims (TransformerConstants in BFD's public repository). */
export const SYSTEMS = {
  eobType: `${BB_RESOURCES}/codesystem/eob-type`,
  claimGroup: `${BB_RESOURCES}/identifier/claim-group`,
  adjudication: `${BB_RESOURCES}/codesystem/adjudication`,
  information: `${BB_RESOURCES}/codesystem/information`,
  benefitBalance: `${BB_RESOURCES}/codesystem/benefit-balance`,
  diagnosisType: `${BB_RESOURCES}/codesystem/diagnosis-type`,
  hcpcs: `${BB_RESOURCES}/codesystem/hcpcs`,
  identifierType: `${BB_RESOURCES}/codesystem/identifier-type`,
  claimType: `${HL7_CS}claim-type`,
  claimInformationCategory: `${HL7_CS}claiminformationcategory`,
  benefitCategory: `${HL7_CS}ex-benefitcategory`,
  v2IdentifierType: `${HL7_CS}v2-0203`,
  v3ActCode: `${HL7_CS}v3-ActCode`,
  nuccTaxonomy: 'http://nucc.org/provider-taxonomy',
  npi: 'http://hl7.org/fhir/sid/us-npi',
  ndc: 'http://hl7.org/fhir/sid/ndc',
  nubcRevenue: 'https://www.nubc.org/CodeSystem/RevenueCodes',
  nubcAdmitType: 'https://www.nubc.org/CodeSystem/PriorityTypeOfAdmitOrVisit',
  ucum: 'http://unitsofmeasure.org',
  dataAbsentReason: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason',
  institutionalSubType: `${CARIN_CS}C4BBInstitutionalClaimSubType`,
  c4bbIdentifierType: `${CARIN_CS}C4BBIdentifierType`,
  c4bbAdjudication: `${CARIN_CS}C4BBAdjudication`,
  c4bbAdjudicationDiscriminator: `${CARIN_CS}C4BBAdjudicationDiscriminator`,
  c4bbPayerAdjudicationStatus: `${CARIN_CS}C4BBPayerAdjudicationStatus`,
  c4bbSupportingInfoType: `${CARIN_CS}C4BBSupportingInfoType`,
  c4bbCareTeamRole: `${CARIN_CS}C4BBClaimCareTeamRole`,
  c4bbDiagnosisType: `${CARIN_CS}C4BBClaimDiagnosisType`,
  hl7Adjudication: `${HL7_CS}adjudication`,
  hl7CareTeamRole: `${HL7_CS}claimcareteamrole`,
  hl7DiagnosisType: `${HL7_CS}ex-diagnosistype`,
} as const;

/** The CARIN amount categories of an adjudication or total (C4BBAdjudication; four are HL7's own). */
export const ADJUDICATION = {
  submitted: { system: SYSTEMS.hl7Adjudication, code: 'submitted', display: 'Submitted Amount' },
  coinsurance: { system: SYSTEMS.c4bbAdjudication, code: 'coinsurance', display: 'Co-insurance' },
  noncovered: { system: SYSTEMS.c4bbAdjudication, code: 'noncovered', display: 'Noncovered' },
  deductible: { system: SYSTEMS.hl7Adjudication, code: 'deductible', display: 'Deductible' },
  paidToProvider: { system: SYSTEMS.c4bbAdjudication, code: 'paidtoprovider', display: 'Paid to provider' },
  paidToPatient: { system: SYSTEMS.c4bbAdjudication, code: 'paidtopatient', display: 'Paid to patient' },
  paidByPatient: { system: SYSTEMS.c4bbAdjudication, code: 'paidbypatient', display: 'Paid by patient' },
  priorPayerPaid: { system: SYSTEMS.c4bbAdjudication, code: 'priorpayerpaid', display: 'Prior payer paid' },
  discount: { system: SYSTEMS.c4bbAdjudication, code: 'discount', display: 'Discount' },
  drugCost: { system: SYSTEMS.c4bbAdjudication, code: 'drugcost', display: 'Drug Cost' },
  benefit: { system: SYSTEMS.hl7Adjudication, code: 'benefit', display: 'Benefit Amount' },
  eligible: { system: SYSTEMS.hl7Adjudication, code: 'eligible', display: 'Eligible Amount' },
} as const satisfies Record<string, FixedCoding>;
export type AdjudicationSlice = keyof typeof ADJUDICATION;

/** The CARIN adjudication discriminators (slices that carry no amount). */
export const ADJUDICATION_DISCRIMINATOR = {
  allowedUnits: {
    system: SYSTEMS.c4bbAdjudicationDiscriminator,
    code: 'allowedunits',
    display: 'allowed units',
  },
  inOutNetwork: {
    system: SYSTEMS.c4bbAdjudicationDiscriminator,
    code: 'inoutnetwork',
    display: 'in or Out of Network',
  },
  denialReason: {
    system: SYSTEMS.c4bbAdjudicationDiscriminator,
    code: 'denialreason',
    display: 'Denial Reason',
  },
} as const satisfies Record<string, FixedCoding>;

/** The CARIN payer adjudication status of a total (C4BBPayerAdjudicationStatus). */
export const ADJUDICATION_STATUS = {
  innetwork: { system: SYSTEMS.c4bbPayerAdjudicationStatus, code: 'innetwork', display: 'In Network' },
  outofnetwork: {
    system: SYSTEMS.c4bbPayerAdjudicationStatus,
    code: 'outofnetwork',
    display: 'Out Of Network',
  },
  other: { system: SYSTEMS.c4bbPayerAdjudicationStatus, code: 'other', display: 'Other' },
  contracted: { system: SYSTEMS.c4bbPayerAdjudicationStatus, code: 'contracted', display: 'Contracted' },
  noncontracted: {
    system: SYSTEMS.c4bbPayerAdjudicationStatus,
    code: 'noncontracted',
    display: 'Non-Contracted',
  },
  paid: { system: SYSTEMS.c4bbPayerAdjudicationStatus, code: 'paid', display: 'Paid' },
  denied: { system: SYSTEMS.c4bbPayerAdjudicationStatus, code: 'denied', display: 'Denied' },
  // BFD's display of this code ends in a tab.
  partiallypaid: {
    system: SYSTEMS.c4bbPayerAdjudicationStatus,
    code: 'partiallypaid',
    display: 'Partially Paid\t',
  },
} as const satisfies Record<string, FixedCoding>;
export type AdjudicationStatus = keyof typeof ADJUDICATION_STATUS;

/** The CARIN supporting-information slices (C4BBSupportingInfoType). */
export const SUPPORTING_INFO = {
  typeOfBill: { system: SYSTEMS.c4bbSupportingInfoType, code: 'typeofbill', display: 'Type of Bill' },
  dischargeStatus: {
    system: SYSTEMS.c4bbSupportingInfoType,
    code: 'discharge-status',
    display: 'Discharge Status',
  },
  compoundCode: { system: SYSTEMS.c4bbSupportingInfoType, code: 'compoundcode', display: 'Compound Code' },
  daysSupply: { system: SYSTEMS.c4bbSupportingInfoType, code: 'dayssupply', display: 'Days Supply' },
  refillNum: { system: SYSTEMS.c4bbSupportingInfoType, code: 'refillnum', display: 'Refill Number' },
  rxOriginCode: { system: SYSTEMS.c4bbSupportingInfoType, code: 'rxorigincode', display: 'Rx Origin Code' },
  brandGenericIndicator: {
    system: SYSTEMS.c4bbSupportingInfoType,
    code: 'brandgenericindicator',
    display: 'Brand Generic Indicator',
  },
  admissionPeriod: {
    system: SYSTEMS.c4bbSupportingInfoType,
    code: 'admissionperiod',
    display: 'Admission Period',
  },
  receivedDate: {
    system: SYSTEMS.c4bbSupportingInfoType,
    code: 'clmrecvddate',
    display: 'Claim Received Date',
  },
} as const satisfies Record<string, FixedCoding>;
export type SupportingInfoSlice = keyof typeof SUPPORTING_INFO;

/** Care-team roles (C4BBClaimCareTeamRole; "primary" and "supervisor" are HL7's claimcareteamrole). */
export const CARE_TEAM_ROLE = {
  primary: { system: SYSTEMS.hl7CareTeamRole, code: 'primary', display: 'Primary provider' },
  supervisor: { system: SYSTEMS.hl7CareTeamRole, code: 'supervisor', display: 'Supervising Provider' },
  attending: { system: SYSTEMS.c4bbCareTeamRole, code: 'attending', display: 'Attending' },
  referring: { system: SYSTEMS.c4bbCareTeamRole, code: 'referring', display: 'Referring' },
  operating: { system: SYSTEMS.c4bbCareTeamRole, code: 'operating', display: 'Operating' },
  otherOperating: { system: SYSTEMS.c4bbCareTeamRole, code: 'otheroperating', display: 'Other Operating' },
  performing: { system: SYSTEMS.c4bbCareTeamRole, code: 'performing', display: 'Performing provider' },
  purchasedService: {
    system: SYSTEMS.c4bbCareTeamRole,
    code: 'purchasedservice',
    display: 'Purchased Service',
  },
  prescribing: { system: SYSTEMS.c4bbCareTeamRole, code: 'prescribing', display: 'Prescribing provider' },
  other: { system: SYSTEMS.c4bbCareTeamRole, code: 'other', display: 'Other' },
} as const satisfies Record<string, FixedCoding>;
export type CareTeamRole = keyof typeof CARE_TEAM_ROLE;

/**
 * Identifier types of a practitioner or an organisation (C4BBIdentifierType for NPI, payer ID and NAIC code;
 * HL7 v2-0203 for the rest; NCPDP in Blue Button's own system).
 */
export const IDENTIFIER_TYPE = {
  npi: { system: SYSTEMS.c4bbIdentifierType, code: 'npi', display: 'National Provider Identifier' },
  payerId: { system: SYSTEMS.c4bbIdentifierType, code: 'payerid', display: 'Payer ID' },
  naicCode: { system: SYSTEMS.c4bbIdentifierType, code: 'naiccode', display: 'NAIC Code' },
  ncpdp: {
    system: SYSTEMS.identifierType,
    code: 'NCPDP',
    display: 'National Council for Prescription Drug Programs',
  },
  prn: { system: SYSTEMS.v2IdentifierType, code: 'PRN', display: 'Provider number' },
  upin: {
    system: SYSTEMS.v2IdentifierType,
    code: 'UPIN',
    display: "Medicare/CMS (formerly HCFA)'s Universal Physician Identification numbers",
  },
  pin: { system: SYSTEMS.v2IdentifierType, code: 'PIN', display: 'Premises Identifier Number (US Official)' },
  sl: { system: SYSTEMS.v2IdentifierType, code: 'SL', display: 'State license' },
  tax: { system: SYSTEMS.v2IdentifierType, code: 'TAX', display: 'Tax ID number' },
} as const satisfies Record<string, FixedCoding>;
export type IdentifierType = keyof typeof IDENTIFIER_TYPE;

/** The identifier type "Unique Claim ID" every claim identifier carries. */
export const UNIQUE_CLAIM_ID: FixedCoding = {
  system: SYSTEMS.c4bbIdentifierType,
  code: 'uc',
  display: 'Unique Claim ID',
};

/** HL7's claim-type codings, by BFD's claim family. */
export const FHIR_CLAIM_TYPE = {
  pharmacy: { system: SYSTEMS.claimType, code: 'pharmacy', display: 'Pharmacy' },
  institutional: { system: SYSTEMS.claimType, code: 'institutional', display: 'Institutional' },
  professional: { system: SYSTEMS.claimType, code: 'professional', display: 'Professional' },
} as const satisfies Record<string, FixedCoding>;

/** HL7's benefit category "Medical Care", the one BFD's benefitBalance uses. */
export const MEDICAL_CARE: FixedCoding = {
  system: SYSTEMS.benefitCategory,
  code: '1',
  display: 'Medical Care',
};
