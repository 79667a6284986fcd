/**
 * The CARIN Consumer Directed Payer Data Exchange IG (CARIN Blue Button) 2.0.0 names this service uses: its
 * profile canonicals and the code systems of its slices. Shared by the generator and the import checks.
 */

export const CARIN_BASE = 'http://hl7.org/fhir/us/carin-bb';
export const CARIN_VERSION = '2.0.0';

export const C4BB_PROFILE_NAMES = [
  'C4BB-Patient',
  'C4BB-Coverage',
  'C4BB-Organization',
  'C4BB-Practitioner',
  'C4BB-ExplanationOfBenefit-Inpatient-Institutional',
  'C4BB-ExplanationOfBenefit-Outpatient-Institutional',
  'C4BB-ExplanationOfBenefit-Pharmacy',
  'C4BB-ExplanationOfBenefit-Professional-NonClinician',
  'C4BB-ExplanationOfBenefit-Oral',
] as const;
export type C4bbProfileName = (typeof C4BB_PROFILE_NAMES)[number];

/** `http://hl7.org/fhir/us/carin-bb/StructureDefinition/<name>` (unversioned). */
export const profileUrl = (name: C4bbProfileName) => `${CARIN_BASE}/StructureDefinition/${name}`;

/**
 * The versioned canonical `meta.profile` must carry: each 2.0.0 profile's `*-meta-profile-version`
 * invariant requires `<url>|2.0.` (major.minor) in meta.profile.
 */
export const profileCanonical = (name: C4bbProfileName) => `${profileUrl(name)}|${CARIN_VERSION}`;

/** The C4BB profile a `meta.profile` entry names (with or without a version), if any. */
export function c4bbProfileOf(canonical: string): { name: C4bbProfileName; version: string | null } | null {
  const [url, version] = canonical.split('|') as [string, string | undefined];
  const name = C4BB_PROFILE_NAMES.find((n) => profileUrl(n) === url);
  return name ? { name, version: version ?? null } : null;
}

/** Code systems of the CARIN package and the external ones its required bindings name. */
export const CARIN_SYSTEMS = {
  identifierType: `${CARIN_BASE}/CodeSystem/C4BBIdentifierType`,
  supportingInfoType: `${CARIN_BASE}/CodeSystem/C4BBSupportingInfoType`,
  adjudication: `${CARIN_BASE}/CodeSystem/C4BBAdjudication`,
  adjudicationDiscriminator: `${CARIN_BASE}/CodeSystem/C4BBAdjudicationDiscriminator`,
  payerAdjudicationStatus: `${CARIN_BASE}/CodeSystem/C4BBPayerAdjudicationStatus`,
  claimCareTeamRole: `${CARIN_BASE}/CodeSystem/C4BBClaimCareTeamRole`,
  claimDiagnosisType: `${CARIN_BASE}/CodeSystem/C4BBClaimDiagnosisType`,
  institutionalClaimSubType: `${CARIN_BASE}/CodeSystem/C4BBInstitutionalClaimSubType`,
  hl7CareTeamRole: 'http://terminology.hl7.org/CodeSystem/claimcareteamrole',
  hl7DiagnosisType: 'http://terminology.hl7.org/CodeSystem/ex-diagnosistype',
  v2IdentifierType: 'http://terminology.hl7.org/CodeSystem/v2-0203',
  dataAbsentReason: 'http://terminology.hl7.org/CodeSystem/data-absent-reason',
  typeOfBill: 'https://www.nubc.org/CodeSystem/TypeOfBill',
  dischargeStatus: 'https://www.nubc.org/CodeSystem/PatDischargeStatus',
  priorityTypeOfAdmission: 'https://www.nubc.org/CodeSystem/PriorityTypeOfAdmitOrVisit',
  pointOfOrigin: 'https://www.nubc.org/CodeSystem/PointOfOrigin',
  placeOfService: 'https://www.cms.gov/Medicare/Coding/place-of-service-codes/Place_of_Service_Code_Set',
  dawCode: 'http://terminology.hl7.org/CodeSystem/NCPDPDispensedAsWrittenOrProductSelectionCode',
  nuccTaxonomy: 'http://nucc.org/provider-taxonomy',
} as const;
