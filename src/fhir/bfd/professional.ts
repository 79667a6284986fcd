/**
 * What the two professional (Part B, non-institutional) claim types share as BFD serves them: carrier claims
 * (physicians and suppliers billing the local carriers) and DME claims (suppliers of durable medical
 * equipment billing the DME regional carriers). BFD's TransformerUtilsV2 groups these mappings as
 * mapEobCommonGroupCarrierDME (claim level) and mapEobCommonItemCarrierDME (line level); the functions here
 * follow the same groups, read the CCW RIF columns (docs/claims-rif.md) and add to an ExplanationOfBenefit under
 * construction in the order BFD adds them, so the sequences they number (careTeam, supportingInfo) and the
 * order of extensions and adjudications come out as BFD's. The line's HCPCS code (BFD mapHcpcs) is written
 * here for the institutional lines too, but inpatient ones (inpatient.ts writes theirs its own way).
 *
 * Also the tax-number rule: BFD maps a line's `TAX_NUM` (an item extension) only when the request carries
 * `IncludeTaxNumbers: true`. We store one body per claim, the one with the tax numbers, and answer a request
 * without the header with `withoutTaxNumbers` of it (stripping is exact; adding back would need the record).
 */
import {
  type PractitionerIdType,
  CARE_TEAM_ORDER,
  IDENTIFIER_TYPE,
  ITEM_ORDER,
  SYSTEMS,
  addAdjudication,
  addBenefitBalanceAmount,
  addCareTeamExtension,
  addCareTeamMember,
  addCareTeamQualification,
  addExtension,
  addInformation,
  adjudicationAmount,
  arrayOf,
  codingExtension,
  variableConcept,
  field,
  findOrCreateContainedObservation,
  fixedCoding,
  ndcDisplay,
  npiProviderDisplay,
  orderKeys,
} from './adjudication.js';
import { type Json, decimal, identifierExtension, variableUrl } from './elements.js';
import type { ClaimLookups } from './lookups.js';
import { type RifRow, rifDate } from './rif-record.js';

// ---------------------------------------------------------------------------------------------------------
// Tax numbers
// ---------------------------------------------------------------------------------------------------------

/** The URL of the item extension carrying a line's tax number (CCW `TAX_NUM`). */
export const TAX_NUM_URL = variableUrl('TAX_NUM');

/** Options of the carrier and DME transforms. */
export interface ProfessionalOptions {
  /**
   * Map each line's `TAX_NUM` as an item extension, as BFD does for `IncludeTaxNumbers: true`. Defaults to
   * true: the stored body is the one with tax numbers, and `withoutTaxNumbers` derives the other.
   */
  readonly includeTaxNumbers?: boolean;
}

/**
 * Whether a request asks for tax numbers, read from its `IncludeTaxNumbers` header values as BFD reads them
 * (its AbstractResourceProvider.returnIncludeTaxNumbers): no header is false, one value `true` or `false` in
 * any case is that, anything else (another value, the header twice) is an error the caller answers with 400.
 * BFD's EOB search also declares an `includeTaxNumbers` query parameter but never reads it: only the header
 * counts.
 */
export function includeTaxNumbersHeader(values: string | readonly string[] | undefined): boolean {
  const list = values === undefined ? [] : typeof values === 'string' ? [values] : values;
  if (list.length === 0) return false;
  if (list.length === 1) {
    const value = list[0]!.toLowerCase();
    if (value === 'true') return true;
    if (value === 'false') return false;
  }
  throw new Error(`Unsupported IncludeTaxNumbers header value: [${list.join(', ')}]`);
}

/**
 * The EOB as BFD answers it without `IncludeTaxNumbers: true`: the same resource less every item extension at
 * `TAX_NUM_URL` (an item left with no extension has none). A new object; the argument is not changed. EOBs of
 * other claim types, which carry no tax numbers, come back equal.
 */
export function withoutTaxNumbers(eob: Json): Json {
  if (!Array.isArray(eob.item)) return { ...eob };
  const item = (eob.item as Json[]).map((entry) => {
    if (!Array.isArray(entry.extension)) return entry;
    const extension = (entry.extension as Json[]).filter((e) => e.url !== TAX_NUM_URL);
    if (extension.length === entry.extension.length) return entry;
    const copy: Json = { ...entry };
    if (extension.length === 0) delete copy.extension;
    else copy.extension = extension;
    return copy;
  });
  return { ...eob, item };
}

/** Adds the line's tax number (`TAX_NUM`) to the item when the options ask for tax numbers. */
export function addTaxNumber(item: Json, line: RifRow, options: ProfessionalOptions): void {
  const taxNumber = field(line, 'TAX_NUM');
  if (options.includeTaxNumbers === false || taxNumber === undefined) return;
  addExtension(item, codingExtension('TAX_NUM', taxNumber));
}

// ---------------------------------------------------------------------------------------------------------
// Claim level (BFD's mapEobCommonGroupCarrierDME)
// ---------------------------------------------------------------------------------------------------------

/**
 * A reference to a practitioner by a typed identifier (BFD's createPractitionerIdentifierReference): the
 * identifier type's coding, the value, and for an NPI its NPPES provider name as display when NPPES knows it.
 */
export function practitionerReference(type: PractitionerIdType, value: string, lookups: ClaimLookups): Json {
  const reference: Json = { identifier: { type: { coding: [fixedCoding(IDENTIFIER_TYPE[type])] }, value } };
  const display = type === 'npi' ? npiProviderDisplay(lookups, value) : undefined;
  if (display !== undefined) reference.display = display;
  return reference;
}

/**
 * The claim-level elements carrier and DME claims share, in BFD's order: the carrier number, carrier claim
 * control number and payment denial code as extensions, `CLM_DISP_CD` as disposition, the referring physician
 * (`RFR_PHYSN_NPI`, else `RFR_PHYSN_UPIN`) as referral and referring care-team member, the provider assignment
 * indicator and clinical trial number as extensions, and five claim amounts as Medical Care benefit-balance
 * entries (`CARR_CLM_CASH_DDCTBL_APLD_AMT`, `NCH_CLM_PRVDR_PMT_AMT`, `NCH_CLM_BENE_PMT_AMT`,
 * `NCH_CARR_CLM_SBMTD_CHRG_AMT`, `NCH_CARR_CLM_ALOWD_AMT`).
 */
export function addCarrierDmeGroup(eob: Json, claim: RifRow, lookups: ClaimLookups): void {
  const carrierNumber = field(claim, 'CARR_NUM');
  if (carrierNumber !== undefined) addExtension(eob, identifierExtension('CARR_NUM', carrierNumber));
  const controlNumber = field(claim, 'CARR_CLM_CNTL_NUM');
  if (controlNumber !== undefined) addExtension(eob, identifierExtension('CARR_CLM_CNTL_NUM', controlNumber));
  const denial = field(claim, 'CARR_CLM_PMT_DNL_CD');
  if (denial !== undefined) addExtension(eob, codingExtension('CARR_CLM_PMT_DNL_CD', denial));
  const disposition = field(claim, 'CLM_DISP_CD');
  if (disposition !== undefined) eob.disposition = disposition;

  const referringNpi = field(claim, 'RFR_PHYSN_NPI');
  if (referringNpi !== undefined) {
    eob.referral = practitionerReference('npi', referringNpi, lookups);
    addCareTeamMember(eob, undefined, 'npi', 'referring', referringNpi, lookups, { taxonomy: true });
  } else {
    const referringUpin = field(claim, 'RFR_PHYSN_UPIN');
    if (referringUpin !== undefined) eob.referral = practitionerReference('upin', referringUpin, lookups);
    addCareTeamMember(eob, undefined, 'upin', 'referring', referringUpin, lookups);
  }

  const assignment = field(claim, 'CARR_CLM_PRVDR_ASGNMT_IND_SW');
  if (assignment !== undefined) addExtension(eob, codingExtension('ASGMNTCD', assignment));
  const trial = field(claim, 'CLM_CLNCL_TRIL_NUM');
  if (trial !== undefined) addExtension(eob, identifierExtension('CLM_CLNCL_TRIL_NUM', trial));

  for (const variable of [
    'CARR_CLM_CASH_DDCTBL_APLD_AMT',
    'NCH_CLM_PRVDR_PMT_AMT',
    'NCH_CLM_BENE_PMT_AMT',
    'NCH_CARR_CLM_SBMTD_CHRG_AMT',
    'NCH_CARR_CLM_ALOWD_AMT',
  ]) {
    addBenefitBalanceAmount(eob, variable, field(claim, variable));
  }
}

/** The claim's carrier claim entry code (`CARR_CLM_ENTRY_CD`) as an extension, which both types add late. */
export function addClaimEntryCode(eob: Json, claim: RifRow): void {
  const entry = field(claim, 'CARR_CLM_ENTRY_CD');
  if (entry !== undefined) addExtension(eob, codingExtension('CARR_CLM_ENTRY_CD', entry));
}

// ---------------------------------------------------------------------------------------------------------
// Line level
// ---------------------------------------------------------------------------------------------------------

/** A new item for the line, numbered by its `LINE_NUM`, appended to the EOB. */
export function addLineItem(eob: Json, line: RifRow): Json {
  const items = arrayOf(eob, 'item');
  const number = Number(field(line, 'LINE_NUM') ?? Number.NaN);
  const item: Json = { sequence: Number.isInteger(number) && number > 0 ? number : items.length + 1 };
  items.push(item);
  return item;
}

/**
 * Marks a care-team member as the line's responsible performing provider (BFD sets `responsible` and then adds
 * the line's specialty `PRVDR_SPCLTY` as a qualification coding and each of `extensionColumns` as a coded
 * extension, each only once per member).
 */
export function markPerforming(
  member: Json | undefined,
  line: RifRow,
  extensionColumns: readonly string[],
): void {
  if (member === undefined) return;
  member.responsible = true;
  addCareTeamQualification(member, 'PRVDR_SPCLTY', field(line, 'PRVDR_SPCLTY'));
  for (const column of extensionColumns) addCareTeamExtension(member, column, field(line, column));
  orderKeys(member, CARE_TEAM_ORDER);
}

/** A claim line's HCPCS modifier columns, in order. */
const HCPCS_MODIFIERS = [
  'HCPCS_1ST_MDFR_CD',
  'HCPCS_2ND_MDFR_CD',
  'HCPCS_3RD_MDFR_CD',
  'HCPCS_4TH_MDFR_CD',
] as const;

/** The line's HCPCS code as a productOrService (addItemHcpcs); the data-absent `NULL` coding without one. */
export function hcpcsProductOrService(line: RifRow): Json {
  const hcpcs = field(line, 'HCPCS_CD');
  return {
    coding: [
      hcpcs === undefined
        ? { system: SYSTEMS.dataAbsentReason, code: 'NULL' }
        : { system: SYSTEMS.hcpcs, code: hcpcs },
    ],
  };
}

/**
 * The line's HCPCS code (`HCPCS_CD`) as the item's productOrService in Blue Button's HCPCS system (the
 * data-absent-reason `NULL` coding when it has none), and each present one of the line's first `modifiers`
 * modifier columns as an item modifier in the same system, versioned by the claim's HCPCS `year` when there is
 * one (BFD's mapHcpcs). DME lines have four modifier columns; carrier, outpatient, HHA and hospice lines two;
 * SNF lines none. Only carrier and DME claims have a year (`CARR_CLM_HCPCS_YR_CD`); institutional lines are
 * unversioned. The inpatient transform writes its productOrService its own way.
 */
export function addItemHcpcs(item: Json, line: RifRow, modifiers: 0 | 2 | 4, year?: string): void {
  item.productOrService = hcpcsProductOrService(line);
  for (const column of HCPCS_MODIFIERS.slice(0, modifiers)) {
    const modifier = field(line, column);
    if (modifier === undefined) continue;
    const coding: Json =
      year === undefined
        ? { system: SYSTEMS.hcpcs, code: modifier }
        : { system: SYSTEMS.hcpcs, version: year, code: modifier };
    arrayOf(item, 'modifier').push({ coding: [coding] });
  }
  orderKeys(item, ITEM_ORDER);
}

/** Adds a coded extension of the line's `column` to the element when the column has a value. */
export function addColumnCoding(target: Json, line: RifRow, column: string, variable = column): void {
  const code = field(line, column);
  if (code !== undefined) addExtension(target, codingExtension(variable, code));
}

/** The item's location concept (created by the place of service); extensions are added to it. */
function itemLocation(item: Json): Json {
  const location = (item.locationCodeableConcept as Json | undefined) ?? {};
  item.locationCodeableConcept = location;
  return location;
}

/** Adds a coded extension of a line column to the item's location concept, extensions before the coding. */
export function addLocationCoding(item: Json, line: RifRow, column: string): void {
  const code = field(line, column);
  if (code === undefined) return;
  const location = itemLocation(item);
  addExtension(location, codingExtension(column, code));
  orderKeys(location, ['extension', 'coding']);
}

/** Adds an identifier extension of a line column to the item's location concept. */
export function addLocationIdentifier(item: Json, line: RifRow, column: string): void {
  const value = field(line, column);
  if (value === undefined) return;
  const location = itemLocation(item);
  addExtension(location, identifierExtension(column, value));
  orderKeys(location, ['extension', 'coding']);
}

/**
 * The line's hematocrit or hemoglobin test (BFD maps it when `LINE_HCT_HGB_TYPE_CD` is present): a contained
 * Observation `line-observation-<item sequence>` coding the test type with the result as its value, a
 * supportingInfo entry for `LINE_HCT_HGB_RSLT_NUM` referencing it, and the item's informationSequence
 * pointing to that entry.
 */
export function addLineObservation(eob: Json, item: Json, line: RifRow): void {
  const testType = field(line, 'LINE_HCT_HGB_TYPE_CD');
  if (testType === undefined) return;
  const id = `line-observation-${String(item.sequence)}`;
  const information = addInformation(eob, 'LINE_HCT_HGB_RSLT_NUM');
  information.valueReference = { reference: `#${id}` };
  const observation = findOrCreateContainedObservation(eob, id);
  observation.status = 'unknown';
  observation.code = variableConcept('LINE_HCT_HGB_TYPE_CD', testType);
  const result = decimal(field(line, 'LINE_HCT_HGB_RSLT_NUM') ?? '');
  if (result !== undefined) observation.valueQuantity = { value: result };
  ((item.informationSequence ??= []) as number[]).push(information.sequence as number);
}

/**
 * The line's NDC (`LINE_NDC_CD`) as an extension of the item's productOrService, named from FDA's list when it
 * knows the product; a data-absent-reason extension when the line has none (BFD's addNationalDrugCode).
 */
export function addNationalDrugCode(item: Json, line: RifRow, lookups: ClaimLookups): void {
  const product = (item.productOrService as Json | undefined) ?? {};
  item.productOrService = product;
  const ndc = field(line, 'LINE_NDC_CD');
  if (ndc === undefined) {
    const absent = fixedCoding({
      system: SYSTEMS.dataAbsentReason,
      code: 'NULL',
      display: 'Data Absent Reason',
    });
    addExtension(product, { url: SYSTEMS.dataAbsentReason, valueCoding: absent });
  } else {
    const display = ndcDisplay(lookups, ndc);
    const coding: Json =
      display === undefined
        ? { system: SYSTEMS.ndc, code: ndc }
        : { system: SYSTEMS.ndc, code: ndc, display };
    addExtension(product, { url: SYSTEMS.ndc, valueCoding: coding });
  }
  orderKeys(product, ['extension', 'coding']);
}

/**
 * The line's service dates: a period from `LINE_1ST_EXPNS_DT` to `LINE_LAST_EXPNS_DT` when both are known, the
 * first alone as servicedDate otherwise.
 */
function addServiceDates(item: Json, line: RifRow): void {
  const first = rifDate(field(line, 'LINE_1ST_EXPNS_DT') ?? '');
  const last = rifDate(field(line, 'LINE_LAST_EXPNS_DT') ?? '');
  if (first !== undefined && last !== undefined) item.servicedPeriod = { start: first, end: last };
  else if (first !== undefined) item.servicedDate = first;
}

/**
 * The line-level elements carrier and DME lines share, in BFD's order (mapEobCommonItemCarrierDME): quantity
 * (`LINE_SRVC_CNT`), category (`LINE_CMS_TYPE_SRVC_CD`), location (`LINE_PLACE_OF_SRVC_CD`), the BETOS code
 * extension, service dates, the line's amounts as adjudications (Medicare payment, with the 80/100 payment
 * code as its extension; paid to patient; paid to provider; deductible; prior payer paid; coinsurance;
 * submitted; allowed), the primary payer, processing indicator and service deductible codes as extensions,
 * the hematocrit/hemoglobin test and the NDC.
 */
export function addCarrierDmeItem(eob: Json, item: Json, line: RifRow, lookups: ClaimLookups): void {
  const count = decimal(field(line, 'LINE_SRVC_CNT') ?? '');
  if (count !== undefined) item.quantity = { value: count };
  const serviceType = field(line, 'LINE_CMS_TYPE_SRVC_CD');
  if (serviceType !== undefined) item.category = variableConcept('LINE_CMS_TYPE_SRVC_CD', serviceType);
  const place = field(line, 'LINE_PLACE_OF_SRVC_CD');
  if (place !== undefined) {
    itemLocation(item).coding = variableConcept('LINE_PLACE_OF_SRVC_CD', place).coding;
  }
  addColumnCoding(item, line, 'BETOS_CD');
  addServiceDates(item, line);

  const payment = adjudicationAmount('LINE_NCH_PMT_AMT', 'benefit', field(line, 'LINE_NCH_PMT_AMT'));
  const paymentCode = field(line, 'LINE_PMT_80_100_CD');
  if (payment !== undefined && paymentCode !== undefined) {
    addExtension(payment, codingExtension('LINE_PMT_80_100_CD', paymentCode));
    orderKeys(payment, ['extension', 'category', 'reason', 'amount']);
  }
  addAdjudication(item, payment);
  addAdjudication(
    item,
    adjudicationAmount('LINE_BENE_PMT_AMT', 'paidToPatient', field(line, 'LINE_BENE_PMT_AMT')),
  );
  addAdjudication(
    item,
    adjudicationAmount('LINE_PRVDR_PMT_AMT', 'paidToProvider', field(line, 'LINE_PRVDR_PMT_AMT')),
  );
  addAdjudication(
    item,
    adjudicationAmount('LINE_BENE_PTB_DDCTBL_AMT', 'deductible', field(line, 'LINE_BENE_PTB_DDCTBL_AMT')),
  );
  addColumnCoding(item, line, 'LINE_BENE_PRMRY_PYR_CD');
  addAdjudication(
    item,
    adjudicationAmount(
      'LINE_BENE_PRMRY_PYR_PD_AMT',
      'priorPayerPaid',
      field(line, 'LINE_BENE_PRMRY_PYR_PD_AMT'),
    ),
  );
  addAdjudication(
    item,
    adjudicationAmount('LINE_COINSRNC_AMT', 'coinsurance', field(line, 'LINE_COINSRNC_AMT')),
  );
  addAdjudication(
    item,
    adjudicationAmount('LINE_SBMTD_CHRG_AMT', 'submitted', field(line, 'LINE_SBMTD_CHRG_AMT')),
  );
  addAdjudication(
    item,
    adjudicationAmount('LINE_ALOWD_CHRG_AMT', 'eligible', field(line, 'LINE_ALOWD_CHRG_AMT')),
  );
  addColumnCoding(item, line, 'LINE_PRCSG_IND_CD');
  addColumnCoding(item, line, 'LINE_SERVICE_DEDUCTIBLE');
  addLineObservation(eob, item, line);
  addNationalDrugCode(item, line, lookups);
}

/** The item with its elements in FHIR's order (what BFD's answers show). */
export function orderItem(item: Json): Json {
  return orderKeys(item, ITEM_ORDER);
}
