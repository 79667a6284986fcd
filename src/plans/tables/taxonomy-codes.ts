/**
 * A few codes of the NUCC Health Care Provider Taxonomy code set (National Uniform Claim Committee,
 * nucc.org; the names as the NPPES NPI Registry shows them) that the generated sample providers carry.
 * `ingest nucc-taxonomy` loads the whole code set.
 */
export interface TaxonomyCode {
  code: string;
  classification: string;
  specialization: string;
  displayName: string;
  individual: boolean;
}

// prettier-ignore
export const SAMPLE_TAXONOMY_CODES: readonly TaxonomyCode[] = [
  { code: '207Q00000X', classification: 'Family Medicine', specialization: '', displayName: 'Family Medicine', individual: true },
  { code: '207R00000X', classification: 'Internal Medicine', specialization: '', displayName: 'Internal Medicine', individual: true },
  { code: '208000000X', classification: 'Pediatrics', specialization: '', displayName: 'Pediatrics', individual: true },
  { code: '207L00000X', classification: 'Anesthesiology', specialization: '', displayName: 'Anesthesiology', individual: true },
  { code: '208800000X', classification: 'Urology', specialization: '', displayName: 'Urology', individual: true },
  { code: '207X00000X', classification: 'Orthopaedic Surgery', specialization: '', displayName: 'Orthopaedic Surgery', individual: true },
  { code: '207RX0202X', classification: 'Internal Medicine', specialization: 'Medical Oncology', displayName: 'Internal Medicine Medical Oncology', individual: true },
  { code: '103TC0700X', classification: 'Psychologist', specialization: 'Clinical', displayName: 'Psychologist Clinical', individual: true },
  { code: '261QD0000X', classification: 'Clinic/Center', specialization: 'Dental', displayName: 'Clinic/Center Dental', individual: false },
];

/** The header of the NUCC Health Care Provider Taxonomy CSV (`nucc_taxonomy_NNN.csv`), in its published order. */
export const NUCC_COLUMNS = [
  'Code',
  'Grouping',
  'Classification',
  'Specialization',
  'Definition',
  'Notes',
  'Display Name',
  'Section',
] as const;
