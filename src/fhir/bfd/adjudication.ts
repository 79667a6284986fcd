/**
 * The money of a claim as BFD writes it (TransformerUtilsV2 in BFD's public repository): item and claim
 * adjudications in CARIN's amount categories, each naming its CCW variable; totals; claim-level amounts as
 * extensions; benefit-balance financial entries; the contained provider Organization and line Observations
 * (docs/claims-rif.md#elements).
 *
 * This module is also the one import for the rest of the shared claim elements: the CARIN codings
 * (carin.ts), supporting information (supporting-info.ts), the care team (care-team.ts), the NPI and drug
 * names (npi-names.ts), the CCW variable elements (elements.ts) and RIF column helpers (ccw.ts) are re-exported
 * from here.
 */
import {
  ADJUDICATION,
  ADJUDICATION_DISCRIMINATOR,
  ADJUDICATION_STATUS,
  type AdjudicationSlice,
  type AdjudicationStatus,
  IDENTIFIER_TYPE,
  type IdentifierType,
  MEDICAL_CARE,
  SYSTEMS,
  fixedCoding,
} from './carin.js';
import { type Json, decimal, money, variableConcept, variableUrl } from './elements.js';
import type { ClaimLookups } from './lookups.js';
import { npiOrganizationDisplay } from './npi-names.js';
import { arrayOf, variableNameCoding } from './supporting-info.js';

export * from './carin.js';
export * from './ccw.js';
export * from './elements.js';
export * from './care-team.js';
export * from './npi-names.js';
export * from './supporting-info.js';

/** An amount given as a RIF column's text or a number; undefined when absent or not a number. */
export type Amount = string | number | undefined;

/** The amount as a number, or undefined. */
export function amountOf(amount: Amount): number | undefined {
  if (amount === undefined) return undefined;
  return typeof amount === 'number' ? amount : decimal(amount.trim());
}

/** The category naming a CCW variable alone (BFD's createAdjudicationCategory), labelled from the codebook. */
export function adjudicationCategory(variable: string): Json {
  return { coding: [variableNameCoding(SYSTEMS.adjudication, variable)] };
}

/**
 * An adjudication amount in a CARIN category (BFD's createAdjudicationAmtSlice): the CARIN coding, the
 * variable's coding, the amount in dollars. Undefined when the amount is absent.
 */
export function adjudicationAmount(
  variable: string,
  slice: AdjudicationSlice,
  amount: Amount,
): Json | undefined {
  const value = amountOf(amount);
  if (value === undefined) return undefined;
  return {
    category: {
      coding: [fixedCoding(ADJUDICATION[slice]), variableNameCoding(SYSTEMS.adjudication, variable)],
    },
    amount: money(value),
  };
}

/**
 * A denial-reason adjudication (CARIN `denialreason`) whose reason is `code` of the CCW variable; undefined
 * when the code is absent.
 */
export function denialReasonAdjudication(variable: string, code: string | undefined): Json | undefined {
  if (code === undefined || code === '') return undefined;
  return {
    category: { coding: [fixedCoding(ADJUDICATION_DISCRIMINATOR.denialReason)] },
    reason: variableConcept(variable, code),
  };
}

/** Appends an adjudication to an item (or the claim) when there is one. */
export function addAdjudication(target: Json, adjudication: Json | undefined): void {
  if (adjudication !== undefined) arrayOf(target, 'adjudication').push(adjudication);
}

/**
 * A total in a CARIN amount category (BFD's createTotalAdjudicationAmountSlice), naming the CCW variable too
 * when one is given; undefined when the amount is absent.
 */
export function totalAmount(slice: AdjudicationSlice, amount: Amount, variable?: string): Json | undefined {
  const value = amountOf(amount);
  if (value === undefined) return undefined;
  const coding = [fixedCoding(ADJUDICATION[slice])];
  if (variable !== undefined) coding.push(variableNameCoding(SYSTEMS.adjudication, variable));
  return { category: { coding }, amount: money(value) };
}

/** A total in a CARIN payer adjudication status (BFD's createTotalAdjudicationStatusAmountSlice). */
export function totalStatusAmount(status: AdjudicationStatus, amount: Amount): Json | undefined {
  const value = amountOf(amount);
  if (value === undefined) return undefined;
  return { category: { coding: [fixedCoding(ADJUDICATION_STATUS[status])] }, amount: money(value) };
}

/** Appends a total to the claim when there is one. */
export function addTotal(eob: Json, total: Json | undefined): void {
  if (total !== undefined) arrayOf(eob, 'total').push(total);
}

/** A claim-level amount as an extension at the variable's URL (BFD's addAdjudicationTotal); undefined if absent. */
export function amountExtension(variable: string, amount: Amount): Json | undefined {
  const value = amountOf(amount);
  return value === undefined ? undefined : { url: variableUrl(variable), valueMoney: money(value) };
}

/** Appends an extension to the claim, an item or any element when there is one. */
export function addExtension(target: Json, extension: Json | undefined): void {
  if (extension !== undefined) arrayOf(target, 'extension').push(extension);
}

/**
 * Appends a financial entry naming the CCW variable to the claim's "Medical Care" benefit balance (created on
 * first use) and returns it, for the caller to give its `used…` value.
 */
export function addBenefitBalanceFinancial(eob: Json, variable: string): Json {
  const balances = arrayOf(eob, 'benefitBalance');
  let medical = balances.find((b) =>
    (((b.category as Json | undefined)?.coding ?? []) as Json[]).some(
      (c) => c.system === MEDICAL_CARE.system && c.code === MEDICAL_CARE.code,
    ),
  );
  if (medical === undefined) {
    medical = { category: { coding: [fixedCoding(MEDICAL_CARE)] }, financial: [] };
    balances.push(medical);
  }
  const entry: Json = { type: { coding: [variableNameCoding(SYSTEMS.benefitBalance, variable)] } };
  arrayOf(medical, 'financial').push(entry);
  return entry;
}

/** A benefit-balance entry of money used (BFD's addBenefitBalanceFinancialMedicalAmt); nothing when absent. */
export function addBenefitBalanceAmount(eob: Json, variable: string, amount: Amount): Json | undefined {
  const value = amountOf(amount);
  if (value === undefined) return undefined;
  const entry = addBenefitBalanceFinancial(eob, variable);
  entry.usedMoney = money(value);
  return entry;
}

/**
 * A benefit-balance entry of a count used (days, visits: BFD's addBenefitBalanceFinancialMedicalInt), the
 * count's whole part; nothing when absent.
 */
export function addBenefitBalanceCount(eob: Json, variable: string, count: Amount): Json | undefined {
  const value = amountOf(count);
  if (value === undefined) return undefined;
  const entry = addBenefitBalanceFinancial(eob, variable);
  entry.usedUnsignedInt = Math.trunc(value);
  return entry;
}

/** The id of the contained provider Organization, and the reference to it BFD gives as `EOB.provider`. */
export const PROVIDER_ORG_ID = 'provider-org';
const ORGANIZATION_PROFILE = 'http://hl7.org/fhir/us/carin-bb/StructureDefinition/C4BB-Organization';

/** The contained resource with this id, created by `create` and appended when missing. */
export function findOrCreateContained(eob: Json, id: string, create: () => Json): Json {
  const contained = arrayOf(eob, 'contained');
  let resource = contained.find((r) => r.id === id);
  if (resource === undefined) {
    resource = create();
    contained.push(resource);
  }
  return resource;
}

/** The contained Observation with this id (a carrier or DME line's lab result), created empty when missing. */
export function findOrCreateContainedObservation(eob: Json, id: string): Json {
  return findOrCreateContained(eob, id, () => ({ resourceType: 'Observation', id }));
}

/** The contained provider Organization (CARIN Organization profile), created when missing. */
export function findOrCreateProviderOrganization(eob: Json): Json {
  return findOrCreateContained(eob, PROVIDER_ORG_ID, () => ({
    resourceType: 'Organization',
    id: PROVIDER_ORG_ID,
    meta: { profile: [ORGANIZATION_PROFILE] },
  }));
}

/**
 * Adds an identifier of the claim's provider organisation (BFD's addProviderSlice): to the contained
 * Organization, which `EOB.provider` then references. An NPI is in the US NPI system and names the
 * organisation from NPPES (no name when NPPES does not know it as an organisation). Nothing for an absent value.
 */
export function addProviderSlice(
  eob: Json,
  type: IdentifierType,
  value: string | undefined,
  lookups: ClaimLookups,
): void {
  if (value === undefined || value === '') return;
  const organization = findOrCreateProviderOrganization(eob);
  const coding = IDENTIFIER_TYPE[type];
  const identifier: Json = { type: { coding: [{ system: coding.system, code: coding.code }] } };
  if (type === 'npi') identifier.system = SYSTEMS.npi;
  identifier.value = value;
  arrayOf(organization, 'identifier').push(identifier);
  organization.active = true;
  if (type === 'npi') {
    const name = npiOrganizationDisplay(lookups, value);
    delete organization.name;
    if (name !== undefined) organization.name = name;
  }
  eob.provider = { reference: `#${PROVIDER_ORG_ID}` };
}

/**
 * A reference to an organisation by a typed identifier (a Part D event's pharmacy, BFD's
 * createIdentifierReference): the identifier's type coding without display, and the NPPES provider name of the
 * value as display when NPPES knows it (BFD looks the value up as an NPI whatever its type).
 */
export function organizationReference(
  type: IdentifierType,
  value: string,
  display: string | undefined,
): Json {
  const coding = IDENTIFIER_TYPE[type];
  const reference: Json = {
    identifier: { type: { coding: [{ system: coding.system, code: coding.code }] }, value },
  };
  if (display !== undefined) reference.display = display;
  return reference;
}
