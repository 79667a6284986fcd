/** Columns of the NPPES full replacement file (`npidata_pfile_…csv`, 330 columns) that we read. */
export const C = {
  npi: 'NPI',
  entity: 'Entity Type Code',
  organization: 'Provider Organization Name (Legal Business Name)',
  last: 'Provider Last Name (Legal Name)',
  first: 'Provider First Name',
  middle: 'Provider Middle Name',
  suffix: 'Provider Name Suffix Text',
  credential: 'Provider Credential Text',
  street1: 'Provider First Line Business Practice Location Address',
  street2: 'Provider Second Line Business Practice Location Address',
  city: 'Provider Business Practice Location Address City Name',
  state: 'Provider Business Practice Location Address State Name',
  postal: 'Provider Business Practice Location Address Postal Code',
  phone: 'Provider Business Practice Location Address Telephone Number',
  deactivated: 'NPI Deactivation Date',
  reactivated: 'NPI Reactivation Date',
} as const;
/** The sex column was "Provider Gender Code" until NPPES renamed it "Provider Sex Code". */
export const GENDER_COLUMNS = ['Provider Gender Code', 'Provider Sex Code'];
const taxonomyColumn = (n: number) => `Healthcare Provider Taxonomy Code_${n}`;
const primaryColumn = (n: number) => `Healthcare Provider Primary Taxonomy Switch_${n}`;
/** The 15 taxonomy slots' column names, made once: a name built per row is hashed again on every lookup. */
export const TAXONOMY_SLOTS = Array.from({ length: 15 }, (_, i) => ({
  code: taxonomyColumn(i + 1),
  primary: primaryColumn(i + 1),
}));

export const REQUIRED = [
  C.npi,
  C.entity,
  C.organization,
  C.last,
  C.first,
  C.street1,
  C.city,
  C.state,
  C.postal,
  taxonomyColumn(1),
  primaryColumn(1),
];

/** Every column the format reads: the rows carry these cells alone. */
export const READ_COLUMNS = [
  ...Object.values(C),
  ...GENDER_COLUMNS,
  ...TAXONOMY_SLOTS.flatMap((slot) => [slot.code, slot.primary]),
];
