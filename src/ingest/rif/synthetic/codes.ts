/**
 * What the synthetic RIF claims carry besides the NDJSON generator's sample codes (src/fhir/sample-codes.ts,
 * claim-codes.ts): the CCW coded variables a claim of each kind gets, a DRG and an ICD-10-PCS procedure for
 * the sample inpatient stays, a HCPCS code on the institutional revenue lines, and the CMS specialty of the
 * sample clinicians. Codes are those of the CCW codebooks (src/fhir/bfd/codebook-data.ts) and of the named
 * public code sets; which claim gets which is our sample choice. Contractor numbers and DRG weights are
 * SAMPLE values, not a reference.
 */
import type { RifClaimType } from '../../../fhir/bfd/rif-record.js';

/** `NCH_NEAR_LINE_REC_IDENT_CD` and `NCH_CLM_TYPE_CD` of each claim kind (CCW codebook). */
export const CLAIM_RECORD_CODES: Readonly<
  Record<Exclude<RifClaimType, 'pde'>, { ric: string; claimType: string }>
> = {
  carrier: { ric: 'O', claimType: '71' },
  dme: { ric: 'M', claimType: '82' },
  hha: { ric: 'W', claimType: '10' },
  hospice: { ric: 'V', claimType: '50' },
  inpatient: { ric: 'V', claimType: '60' },
  outpatient: { ric: 'W', claimType: '40' },
  snf: { ric: 'V', claimType: '20' },
};

/** Per professional service code: CMS type of service, BETOS (where we are sure of it), and whether a lab test. */
export interface ServiceTraits {
  readonly typeOfService: string;
  readonly betos?: string;
  readonly lab?: boolean;
  /** A DME item is rented (modifier RR) rather than bought new (NU). */
  readonly rental?: boolean;
}

/** The traits of the sample professional services (CARRIER_SERVICES) and DME items (DME_ITEMS). */
export const SERVICE_TRAITS: Readonly<Record<string, ServiceTraits>> = {
  '99213': { typeOfService: '1', betos: 'M1B' },
  '99214': { typeOfService: '1', betos: 'M1B' },
  '99203': { typeOfService: '1', betos: 'M1A' },
  '80053': { typeOfService: '5', betos: 'T1B', lab: true },
  '85025': { typeOfService: '5', betos: 'T1D', lab: true },
  '83036': { typeOfService: '5', lab: true },
  '36415': { typeOfService: '5', betos: 'T1A', lab: true },
  '71046': { typeOfService: '4', betos: 'I1A' },
  '93000': { typeOfService: '1', betos: 'T2A' },
  '97110': { typeOfService: 'W' },
  '20610': { typeOfService: '2' },
  G0439: { typeOfService: '1' },
  G0008: { typeOfService: 'V', betos: 'O1G' },
  E0601: { typeOfService: 'R', betos: 'D1E', rental: true },
  A7030: { typeOfService: 'P' },
  A4253: { typeOfService: 'P', betos: 'D1A' },
  E0143: { typeOfService: 'P', betos: 'D1E' },
  K0001: { typeOfService: 'R', betos: 'D1D', rental: true },
  E0260: { typeOfService: 'R', betos: 'D1B', rental: true },
};

/** The HCPCS code billed on a revenue-center line of the sample outpatient, HHA and hospice claims. */
export const REVENUE_HCPCS: Readonly<Record<string, string>> = {
  '0450': '99284', // emergency department visit
  '0510': 'G0463', // hospital outpatient clinic visit
  '0300': '80053',
  '0320': '71046',
  '0551': 'G0299', // skilled nursing visit in the home, registered nurse
  '0420': 'G0151', // physical therapy in the home
  '0651': 'Q5001', // hospice care in the patient's home
  '0652': 'Q5001',
};

/**
 * Principal diagnoses of the sample inpatient stays (codes of sample-codes.ts DIAGNOSES) with their MS-DRG,
 * a sample DRG weight and, for the knee, the ICD-10-PCS code of the operation.
 */
export const INPATIENT_STAYS: readonly {
  readonly diagnosis: string;
  readonly drg: string;
  readonly weight: string;
  readonly procedure?: string;
}[] = [
  { diagnosis: 'J18.9', drg: '194', weight: '0.9' },
  { diagnosis: 'I50.9', drg: '292', weight: '0.9' },
  { diagnosis: 'N39.0', drg: '690', weight: '0.8' },
  { diagnosis: 'I48.91', drg: '309', weight: '0.8' },
  { diagnosis: 'J44.9', drg: '192', weight: '0.7' },
  { diagnosis: 'R07.9', drg: '313', weight: '0.6' },
  { diagnosis: 'E11.9', drg: '638', weight: '0.9' },
  // Replacement of the right knee joint with a synthetic substitute, cemented, open approach.
  { diagnosis: 'M17.11', drg: '470', weight: '1.9', procedure: '0SRC0J9' },
];

/** The CMS provider specialty (`PRVDR_SPCLTY`) of each NUCC taxonomy the sample clinicians have. */
export const SPECIALTY_BY_TAXONOMY: Readonly<Record<string, string>> = {
  '207Q00000X': '08', // family practice
  '207R00000X': '11', // internal medicine
  '207RC0000X': '06', // cardiology
  '207RP1001X': '29', // pulmonary disease
  '207X00000X': '20', // orthopedic surgery
  '207RE0101X': '46', // endocrinology
  '208D00000X': '01', // general practice
  '207RG0300X': '38', // geriatric medicine
};

/** The CMS specialty of a DME supplier: medical supply company (CCW codebook `PRVDR_SPCLTY` 54). */
export const DME_SUPPLIER_SPECIALTY = '54';

/** The first two digits of a CMS Certification Number: the state (SSA) code, for the sample states. */
export const CCN_STATE: Readonly<Record<string, string>> = {
  AZ: '03',
  CA: '05',
  FL: '10',
  MD: '21',
  MI: '23',
  NY: '33',
  NC: '34',
  OH: '36',
  PA: '39',
  TX: '45',
};

/** A sample Medicare Administrative Contractor number per state (Part B; Part A ends in 1 instead of 2). */
export const MAC_NUMBER: Readonly<Record<string, string>> = {
  AZ: '03102',
  CA: '01182',
  FL: '09102',
  MD: '12302',
  MI: '08102',
  NY: '13282',
  NC: '11502',
  OH: '15202',
  PA: '12502',
  TX: '04412',
};

/** A sample DME contractor number per state. */
export const DME_MAC_NUMBER: Readonly<Record<string, string>> = {
  AZ: '19003',
  CA: '19003',
  FL: '18003',
  MD: '16013',
  MI: '17013',
  NY: '16013',
  NC: '18003',
  OH: '17013',
  PA: '16013',
  TX: '18003',
};

/** Brand-name drugs among the sample drugs (by NDC); the rest are generics. */
export const BRAND_DRUGS: ReadonlySet<string> = new Set(['00591-3794-19', '00169-4132-12', '00006-0277-31']);
