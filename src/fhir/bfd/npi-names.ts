/**
 * The names BFD fills in from reference data after it builds a claim (its "enrichment" step, in BFD's public
 * repository TransformerUtilsV2.enrichEob): a provider's or organisation's name and primary taxonomy by NPI
 * from NPPES, a drug's name by NDC from FDA. BFD first writes a placeholder and then replaces it; when the
 * lookup finds nothing the display is dropped, never guessed (docs/claims-rif.md#names). These functions give
 * the final value directly.
 */
import { SYSTEMS } from './carin.js';
import type { Json } from './elements.js';
import type { ClaimLookups, NpiRecord } from './lookups.js';

/**
 * How BFD names an NPI where it wants a provider's name: an individual's name parts (prefix, first, middle,
 * last, suffix, credential) joined by single spaces, blanks skipped; an organisation's name. Undefined when
 * that leaves nothing (BFD then writes an empty display, which FHIR JSON leaves out).
 */
export function providerName(record: NpiRecord): string | undefined {
  const name =
    record.entityType === '1'
      ? [
          record.prefix,
          record.firstName,
          record.middleName,
          record.lastName,
          record.suffix,
          record.credential,
        ]
          .map((part) => part?.trim() ?? '')
          .filter((part) => part !== '')
          .join(' ')
      : record.organizationName;
  return name === undefined || name === '' ? undefined : name;
}

/** The display of a reference to a provider by NPI (care-team member, facility, referral): its name. */
export function npiProviderDisplay(lookups: ClaimLookups, npi: string): string | undefined {
  const record = lookups.npi(npi);
  return record === undefined ? undefined : providerName(record);
}

/**
 * The display where BFD wants the organisation behind an NPI (an organisation care-team member, the contained
 * provider Organization's name): NPPES's organisation name, undefined for an individual or an unknown NPI.
 */
export function npiOrganizationDisplay(lookups: ClaimLookups, npi: string): string | undefined {
  const name = lookups.npi(npi)?.organizationName;
  return name === undefined || name === '' ? undefined : name;
}

/**
 * The NUCC taxonomy coding BFD gives a care-team member's qualification from the NPI's primary taxonomy;
 * undefined when the NPI is unknown (BFD then drops the coding, and the qualification with it when that was
 * its only coding). A known NPI without a taxonomy keeps the bare system, as BFD's does.
 */
export function npiTaxonomyCoding(lookups: ClaimLookups, npi: string): Json | undefined {
  const record = lookups.npi(npi);
  if (record === undefined) return undefined;
  const coding: Json = { system: SYSTEMS.nuccTaxonomy };
  if (record.taxonomyCode !== undefined && record.taxonomyCode !== '') coding.code = record.taxonomyCode;
  if (record.taxonomyDisplay !== undefined && record.taxonomyDisplay !== '')
    coding.display = record.taxonomyDisplay;
  return coding;
}

/**
 * An NDC as FDA's product NDC (`labeler-product`): the first five digits, a hyphen, the next four. Undefined
 * for a code shorter than nine characters, which BFD does not look up.
 */
export function productNdc(ndc: string): string | undefined {
  return ndc.length >= 9 ? `${ndc.slice(0, 5)}-${ndc.slice(5, 9)}` : undefined;
}

/** A drug's name by its (11-digit) NDC, as BFD displays it; undefined when FDA's list lacks it. */
export function ndcDisplay(lookups: ClaimLookups, ndc: string): string | undefined {
  const product = productNdc(ndc);
  if (product === undefined) return undefined;
  const name = lookups.drugName(product);
  return name === undefined || name === '' ? undefined : name;
}
