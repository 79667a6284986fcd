/**
 * Names BFD adds to the claims it serves by looking them up in reference data: the organisation, provider
 * and primary taxonomy of an NPI (NPPES), a drug's name by NDC (FDA), a diagnosis or procedure code's
 * description. The ingest fills these from the datasets the service has loaded; a lookup that finds nothing
 * leaves the display out rather than invent one (docs/claims-rif.md#names).
 */

/** What the NPI registry says of one NPI. */
export interface NpiRecord {
  /** NPPES entity type: '1' an individual, '2' an organisation. */
  readonly entityType: '1' | '2';
  readonly organizationName?: string;
  /** The individual's name parts, as NPPES lists them. */
  readonly prefix?: string;
  readonly firstName?: string;
  readonly middleName?: string;
  readonly lastName?: string;
  readonly suffix?: string;
  readonly credential?: string;
  /** The primary taxonomy code and its NUCC display. */
  readonly taxonomyCode?: string;
  readonly taxonomyDisplay?: string;
}

export interface ClaimLookups {
  npi(npi: string): NpiRecord | undefined;
  /** A drug's name by its product NDC (`labeler-product`, e.g. `00000-0000`), as FDA lists it. */
  drugName(productNdc: string): string | undefined;
  /** The description of a diagnosis or procedure code in the given FHIR code system. */
  codeDescription(system: string, code: string): string | undefined;
}

/** Looks up nothing: every display that needs reference data is left out. */
export const NO_LOOKUPS: ClaimLookups = {
  npi: () => undefined,
  drugName: () => undefined,
  codeDescription: () => undefined,
};
