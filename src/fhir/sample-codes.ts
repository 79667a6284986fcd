/**
 * Code tables for the synthetic-enrollee generator (generate.ts). These are SAMPLE codes chosen to make
 * synthetic claims look plausible: they are not a terminology source, prices are invented, and the NDC
 * package codes below are NDC-shaped sample values whose pairing with a drug name is illustrative only (not
 * checked against the FDA NDC Directory). Never use them for anything but labelled sample data.
 */

export const SYSTEMS = {
  cpt: 'http://www.ama-assn.org/go/cpt',
  hcpcs: 'https://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets',
  icd10cm: 'http://hl7.org/fhir/sid/icd-10-cm',
  ndc: 'http://hl7.org/fhir/sid/ndc',
  npi: 'http://hl7.org/fhir/sid/us-npi',
  mbi: 'http://hl7.org/fhir/sid/us-mbi',
  revenue: 'https://www.nubc.org/CodeSystem/RevenueCodes',
  claimType: 'http://terminology.hl7.org/CodeSystem/claim-type',
  adjudication: 'http://terminology.hl7.org/CodeSystem/adjudication',
  diagnosisType: 'http://terminology.hl7.org/CodeSystem/ex-diagnosistype',
  identifierType: 'http://terminology.hl7.org/CodeSystem/v2-0203',
  c4bbIdentifierType: 'http://hl7.org/fhir/us/carin-bb/CodeSystem/C4BBIdentifierType',
  coverageClass: 'http://terminology.hl7.org/CodeSystem/coverage-class',
  subscriberRelationship: 'http://terminology.hl7.org/CodeSystem/subscriber-relationship',
  actCode: 'http://terminology.hl7.org/CodeSystem/v3-ActCode',
} as const;

/** A billable line: code, description and the range of the submitted charge per unit, in cents. */
export interface ServiceCode {
  readonly system: string;
  readonly code: string;
  readonly display: string;
  readonly minCents: number;
  readonly maxCents: number;
}

/** Sample professional (carrier) services: CPT codes plus a few HCPCS Level II G-codes. */
export const CARRIER_SERVICES: readonly ServiceCode[] = [
  {
    system: SYSTEMS.cpt,
    code: '99213',
    display: 'Office visit, established patient, low',
    minCents: 9000,
    maxCents: 16000,
  },
  {
    system: SYSTEMS.cpt,
    code: '99214',
    display: 'Office visit, established patient, moderate',
    minCents: 13000,
    maxCents: 22000,
  },
  {
    system: SYSTEMS.cpt,
    code: '99203',
    display: 'Office visit, new patient, low',
    minCents: 11000,
    maxCents: 19000,
  },
  {
    system: SYSTEMS.cpt,
    code: '80053',
    display: 'Comprehensive metabolic panel',
    minCents: 1500,
    maxCents: 6000,
  },
  {
    system: SYSTEMS.cpt,
    code: '85025',
    display: 'Complete blood count with differential',
    minCents: 1000,
    maxCents: 4500,
  },
  { system: SYSTEMS.cpt, code: '83036', display: 'Hemoglobin A1c', minCents: 1300, maxCents: 4000 },
  { system: SYSTEMS.cpt, code: '36415', display: 'Routine venipuncture', minCents: 300, maxCents: 1500 },
  { system: SYSTEMS.cpt, code: '71046', display: 'Chest X-ray, 2 views', minCents: 4000, maxCents: 12000 },
  {
    system: SYSTEMS.cpt,
    code: '93000',
    display: 'Electrocardiogram, complete',
    minCents: 2000,
    maxCents: 7000,
  },
  {
    system: SYSTEMS.cpt,
    code: '97110',
    display: 'Therapeutic exercise, each 15 minutes',
    minCents: 3000,
    maxCents: 8000,
  },
  {
    system: SYSTEMS.cpt,
    code: '20610',
    display: 'Arthrocentesis or injection, major joint',
    minCents: 8000,
    maxCents: 20000,
  },
  {
    system: SYSTEMS.hcpcs,
    code: 'G0439',
    display: 'Annual wellness visit, subsequent',
    minCents: 14000,
    maxCents: 25000,
  },
  {
    system: SYSTEMS.hcpcs,
    code: 'G0008',
    display: 'Administration of influenza vaccine',
    minCents: 2000,
    maxCents: 4500,
  },
];

/** Sample durable medical equipment and supplies (HCPCS Level II). */
export const DME_ITEMS: readonly ServiceCode[] = [
  { system: SYSTEMS.hcpcs, code: 'E0601', display: 'CPAP device', minCents: 6000, maxCents: 15000 },
  {
    system: SYSTEMS.hcpcs,
    code: 'A7030',
    display: 'Full face mask for CPAP',
    minCents: 9000,
    maxCents: 18000,
  },
  {
    system: SYSTEMS.hcpcs,
    code: 'A4253',
    display: 'Blood glucose test strips, per 50',
    minCents: 2500,
    maxCents: 6000,
  },
  {
    system: SYSTEMS.hcpcs,
    code: 'E0143',
    display: 'Walker, folding, wheeled',
    minCents: 8000,
    maxCents: 16000,
  },
  { system: SYSTEMS.hcpcs, code: 'K0001', display: 'Standard wheelchair', minCents: 20000, maxCents: 45000 },
  {
    system: SYSTEMS.hcpcs,
    code: 'E0260',
    display: 'Hospital bed, semi-electric',
    minCents: 15000,
    maxCents: 40000,
  },
];

/** Sample institutional revenue-center lines, per claim type (prices per line, before days multiply). */
export const REVENUE_LINES = {
  inpatient: [
    {
      system: SYSTEMS.revenue,
      code: '0120',
      display: 'Room and board, semi-private',
      minCents: 180000,
      maxCents: 350000,
    },
    { system: SYSTEMS.revenue, code: '0250', display: 'Pharmacy', minCents: 20000, maxCents: 150000 },
    { system: SYSTEMS.revenue, code: '0300', display: 'Laboratory', minCents: 15000, maxCents: 90000 },
    {
      system: SYSTEMS.revenue,
      code: '0320',
      display: 'Diagnostic radiology',
      minCents: 30000,
      maxCents: 160000,
    },
  ],
  outpatient: [
    { system: SYSTEMS.revenue, code: '0450', display: 'Emergency room', minCents: 60000, maxCents: 300000 },
    { system: SYSTEMS.revenue, code: '0510', display: 'Clinic', minCents: 15000, maxCents: 50000 },
    { system: SYSTEMS.revenue, code: '0300', display: 'Laboratory', minCents: 5000, maxCents: 40000 },
    {
      system: SYSTEMS.revenue,
      code: '0320',
      display: 'Diagnostic radiology',
      minCents: 20000,
      maxCents: 120000,
    },
  ],
  snf: [
    {
      system: SYSTEMS.revenue,
      code: '0120',
      display: 'Room and board, semi-private',
      minCents: 40000,
      maxCents: 90000,
    },
    { system: SYSTEMS.revenue, code: '0420', display: 'Physical therapy', minCents: 30000, maxCents: 120000 },
    { system: SYSTEMS.revenue, code: '0250', display: 'Pharmacy', minCents: 10000, maxCents: 60000 },
  ],
  hha: [
    {
      system: SYSTEMS.revenue,
      code: '0551',
      display: 'Skilled nursing visit',
      minCents: 12000,
      maxCents: 25000,
    },
    { system: SYSTEMS.revenue, code: '0420', display: 'Physical therapy', minCents: 13000, maxCents: 26000 },
  ],
  hospice: [
    {
      system: SYSTEMS.revenue,
      code: '0651',
      display: 'Hospice routine home care',
      minCents: 18000,
      maxCents: 26000,
    },
    {
      system: SYSTEMS.revenue,
      code: '0652',
      display: 'Hospice continuous home care',
      minCents: 100000,
      maxCents: 160000,
    },
  ],
} as const satisfies Record<string, readonly ServiceCode[]>;

/** A sample prescription drug: NDC-shaped code (5-4-2), name, usual days' supply and price per fill. */
export interface DrugCode {
  readonly ndc: string;
  readonly name: string;
  readonly daysSupply: number;
  readonly quantity: number;
  readonly minCents: number;
  readonly maxCents: number;
}

/** Sample drugs. The NDCs are sample values; their pairing with the names is illustrative only. */
export const DRUGS: readonly DrugCode[] = [
  {
    ndc: '00093-7146-56',
    name: 'Atorvastatin 20 mg tablet',
    daysSupply: 30,
    quantity: 30,
    minCents: 800,
    maxCents: 3500,
  },
  {
    ndc: '00378-3855-93',
    name: 'Metformin 500 mg tablet',
    daysSupply: 30,
    quantity: 60,
    minCents: 500,
    maxCents: 2000,
  },
  {
    ndc: '68180-0513-09',
    name: 'Lisinopril 10 mg tablet',
    daysSupply: 90,
    quantity: 90,
    minCents: 600,
    maxCents: 2500,
  },
  {
    ndc: '00904-6290-61',
    name: 'Amlodipine 5 mg tablet',
    daysSupply: 30,
    quantity: 30,
    minCents: 400,
    maxCents: 1800,
  },
  {
    ndc: '65862-0157-99',
    name: 'Levothyroxine 50 mcg tablet',
    daysSupply: 90,
    quantity: 90,
    minCents: 900,
    maxCents: 3000,
  },
  {
    ndc: '00781-2613-31',
    name: 'Omeprazole 20 mg capsule',
    daysSupply: 30,
    quantity: 30,
    minCents: 700,
    maxCents: 2800,
  },
  {
    ndc: '16729-0020-15',
    name: 'Sertraline 50 mg tablet',
    daysSupply: 30,
    quantity: 30,
    minCents: 600,
    maxCents: 2400,
  },
  {
    ndc: '00591-3794-19',
    name: 'Tiotropium inhalation powder 18 mcg',
    daysSupply: 30,
    quantity: 30,
    minCents: 25000,
    maxCents: 48000,
  },
  {
    ndc: '00169-4132-12',
    name: 'Insulin glargine 100 units/mL pen',
    daysSupply: 30,
    quantity: 15,
    minCents: 30000,
    maxCents: 52000,
  },
  {
    ndc: '00006-0277-31',
    name: 'Sitagliptin 100 mg tablet',
    daysSupply: 30,
    quantity: 30,
    minCents: 40000,
    maxCents: 56000,
  },
];

/** Sample ICD-10-CM diagnoses common among Medicare enrollees. */
export const DIAGNOSES: readonly { readonly code: string; readonly display: string }[] = [
  { code: 'E11.9', display: 'Type 2 diabetes mellitus without complications' },
  { code: 'I10', display: 'Essential (primary) hypertension' },
  { code: 'J44.9', display: 'Chronic obstructive pulmonary disease, unspecified' },
  { code: 'E78.5', display: 'Hyperlipidemia, unspecified' },
  { code: 'I48.91', display: 'Unspecified atrial fibrillation' },
  { code: 'I50.9', display: 'Heart failure, unspecified' },
  {
    code: 'I25.10',
    display: 'Atherosclerotic heart disease of native coronary artery without angina pectoris',
  },
  { code: 'M17.11', display: 'Unilateral primary osteoarthritis, right knee' },
  { code: 'G47.33', display: 'Obstructive sleep apnea' },
  { code: 'F32.9', display: 'Major depressive disorder, single episode, unspecified' },
  { code: 'E03.9', display: 'Hypothyroidism, unspecified' },
  { code: 'K21.9', display: 'Gastro-esophageal reflux disease without esophagitis' },
  { code: 'N39.0', display: 'Urinary tract infection, site not specified' },
  { code: 'J18.9', display: 'Pneumonia, unspecified organism' },
  { code: 'R07.9', display: 'Chest pain, unspecified' },
  { code: 'Z00.00', display: 'Encounter for general adult medical examination without abnormal findings' },
];

/** Sample home addresses: state, city and a ZIP code of that state. */
export const PLACES: readonly {
  readonly state: string;
  readonly city: string;
  readonly postalCode: string;
}[] = [
  { state: 'MD', city: 'Baltimore', postalCode: '21201' },
  { state: 'FL', city: 'Tampa', postalCode: '33602' },
  { state: 'TX', city: 'San Antonio', postalCode: '78205' },
  { state: 'AZ', city: 'Phoenix', postalCode: '85004' },
  { state: 'OH', city: 'Columbus', postalCode: '43215' },
  { state: 'PA', city: 'Pittsburgh', postalCode: '15222' },
  { state: 'CA', city: 'Sacramento', postalCode: '95814' },
  { state: 'NY', city: 'Buffalo', postalCode: '14202' },
  { state: 'NC', city: 'Raleigh', postalCode: '27601' },
  { state: 'MI', city: 'Lansing', postalCode: '48933' },
];

/** Sample provider names by kind; the NPIs are generated (valid check digit, not real providers). */
export const PROVIDER_NAMES = {
  professional: ['Sample Family Practice', 'Sample Internal Medicine Group', 'Sample Cardiology Associates'],
  institutional: ['Sample General Hospital', 'Sample Regional Medical Center', 'Sample Community Hospital'],
  snf: ['Sample Skilled Nursing Center', 'Sample Rehabilitation and Care Center'],
  hha: ['Sample Home Health Agency', 'Sample Visiting Nurses'],
  hospice: ['Sample Hospice Care', 'Sample Comfort Hospice'],
  dme: ['Sample Medical Supply Co.', 'Sample Home Equipment'],
  pharmacy: ['Sample Pharmacy #104', 'Sample Drug Store #2210', 'Sample Mail Order Pharmacy'],
} as const;

/** The given names of sandboxIdentity (sandbox-identity.ts) whose Patient gender is female; the rest are male. */
export const FEMALE_GIVEN_NAMES: ReadonlySet<string> = new Set(['Jane', 'Maria', 'Linda', 'Ana', 'Rosa']);
