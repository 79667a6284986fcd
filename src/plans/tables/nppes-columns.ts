/**
 * The columns of the NPPES NPI registry full replacement file (`npidata_pfile_…csv`, 330 columns in all)
 * that `ingest nppes` reads, with their published names; files written in that layout (the sample's
 * providers, benchmark files) carry these. Taxonomy slots 2–15 and their primary switches are read too when
 * present; the sex column was "Provider Gender Code" until NPPES renamed it "Provider Sex Code".
 */
export const NPPES_COLUMNS = [
  'NPI',
  'Entity Type Code',
  'Provider Organization Name (Legal Business Name)',
  'Provider Last Name (Legal Name)',
  'Provider First Name',
  'Provider Middle Name',
  'Provider Name Suffix Text',
  'Provider Credential Text',
  'Provider First Line Business Practice Location Address',
  'Provider Second Line Business Practice Location Address',
  'Provider Business Practice Location Address City Name',
  'Provider Business Practice Location Address State Name',
  'Provider Business Practice Location Address Postal Code',
  'Provider Business Practice Location Address Telephone Number',
  'Provider Gender Code',
  'Healthcare Provider Taxonomy Code_1',
  'Healthcare Provider Primary Taxonomy Switch_1',
  'NPI Deactivation Date',
  'NPI Reactivation Date',
] as const;
