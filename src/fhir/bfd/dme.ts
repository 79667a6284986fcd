/**
 * A DME claim (CCW `dme` RIF record: a supplier's Part B claim for durable medical equipment, prosthetics,
 * orthotics and supplies, processed by a DME regional carrier) as the ExplanationOfBenefit BFD serves for it
 * (DMEClaimTransformerV2 in BFD's public repository), elements added in BFD's order (docs/claims-rif.md).
 * BFD gives DME claims the inpatient institutional profile, the institutional claim type and the Part A
 * coverage (eob-header.ts), and repeats a few line amounts; both are kept, as BFD serves them.
 */
import {
  SYSTEMS,
  addAdjudication,
  addCareTeamMember,
  addExtension,
  addReceivedDate,
  addTotal,
  adjudicationAmount,
  field,
  npiProviderDisplay,
  totalAmount,
} from './adjudication.js';
import { codeDisplay } from './codebook.js';
import { addDiagnoses, addDiagnosisLink, lineDiagnosis } from './diagnosis.js';
import { type Json, decimal, identifierExtension, variableUrl } from './elements.js';
import { eobHeader, optionalDate, orderEob } from './eob-header.js';
import type { ClaimLookups } from './lookups.js';
import {
  type ProfessionalOptions,
  addCarrierDmeGroup,
  addCarrierDmeItem,
  addClaimEntryCode,
  addColumnCoding,
  addItemHcpcs,
  addLineItem,
  addLocationCoding,
  addTaxNumber,
  markPerforming,
  orderItem,
} from './professional.js';
import type { RifClaim, RifRow, TransformContext } from './rif-record.js';

/**
 * The ExplanationOfBenefit of a DME claim, its elements in BFD's order; each line's tax number is included unless
 * `options` says otherwise (ProfessionalOptions).
 */
export function dmeEob(claim: RifClaim, context: TransformContext, options: ProfessionalOptions = {}): Json {
  const row = claim.rows[0];
  if (row === undefined) throw new Error('a DME claim has at least one line');
  const { lookups } = context;
  const eob = eobHeader('dme', claim, context);

  eob.provider = supplierReference(field(row, 'PRVDR_NPI'), lookups);
  addTotal(eob, totalAmount('priorPayerPaid', field(row, 'CARR_CLM_PRMRY_PYR_PD_AMT'), 'CLM_TOT_CHRG_AMT'));
  addReceivedDate(eob, 'NCH_WKLY_PROC_DT', optionalDate(row, 'NCH_WKLY_PROC_DT'));
  addCarrierDmeGroup(eob, row, lookups);
  addDiagnoses(eob, row, 'dme', lookups);
  addClaimEntryCode(eob, row);

  for (const line of claim.rows) addDmeLine(eob, row, line, lookups, options);
  return orderEob(eob);
}

/**
 * `EOB.provider` of a DME claim: the first line's supplier NPI (`PRVDR_NPI`) as a Practitioner reference in
 * the US NPI system, named from NPPES; BFD writes `UNKNOWN` as both value and display when the line has none.
 */
export function supplierReference(npi: string | undefined, lookups: ClaimLookups): Json {
  if (npi === undefined) {
    return {
      type: 'Practitioner',
      identifier: { system: SYSTEMS.npi, value: 'UNKNOWN' },
      display: 'UNKNOWN',
    };
  }
  const reference: Json = { type: 'Practitioner', identifier: { system: SYSTEMS.npi, value: npi } };
  const display = npiProviderDisplay(lookups, npi);
  if (display !== undefined) reference.display = display;
  return reference;
}

/**
 * The line's unit count (`DMERC_LINE_MTUS_CNT`) as a quantity extension, with the unit indicator
 * (`DMERC_LINE_MTUS_CD`) as the quantity's code in that variable's system and its codebook meaning as unit.
 */
function mtusExtension(line: RifRow): Json | undefined {
  const count = decimal(field(line, 'DMERC_LINE_MTUS_CNT') ?? '');
  if (count === undefined) return undefined;
  const quantity: Json = { value: count };
  const unit = field(line, 'DMERC_LINE_MTUS_CD');
  if (unit !== undefined) {
    const name = codeDisplay('DMERC_LINE_MTUS_CD', unit);
    if (name !== undefined) quantity.unit = name;
    quantity.system = variableUrl('DMERC_LINE_MTUS_CD');
    quantity.code = unit;
  }
  return { url: variableUrl('DMERC_LINE_MTUS_CNT'), valueQuantity: quantity };
}

/** One claim line as an item, in BFD's order. */
function addDmeLine(
  eob: Json,
  claim: RifRow,
  line: RifRow,
  lookups: ClaimLookups,
  options: ProfessionalOptions,
): void {
  const item = addLineItem(eob, line);
  const supplier = field(line, 'PRVDR_NUM');
  if (supplier !== undefined) addExtension(item, identifierExtension('SUPLRNUM', supplier));

  const performing = addCareTeamMember(eob, item, 'npi', 'performing', field(line, 'PRVDR_NPI'), lookups, {
    taxonomy: true,
  });
  markPerforming(performing, line, ['PRTCPTNG_IND_CD']);

  addItemHcpcs(item, line, 4, field(claim, 'CARR_CLM_HCPCS_YR_CD'));
  addTaxNumber(item, line, options);

  addAdjudication(
    item,
    adjudicationAmount('REV_CNTR_PRVDR_PMT_AMT', 'paidToProvider', field(line, 'LINE_PRVDR_PMT_AMT')),
  );
  addAdjudication(
    item,
    adjudicationAmount('LINE_PRMRY_ALOWD_CHRG_AMT', 'eligible', field(line, 'LINE_PRMRY_ALOWD_CHRG_AMT')),
  );
  const purchasePrice = field(line, 'LINE_DME_PRCHS_PRICE_AMT');
  addAdjudication(item, adjudicationAmount('LINE_DME_PRCHS_PRICE_AMT', 'submitted', purchasePrice));

  const savings = decimal(field(line, 'DMERC_LINE_SCRN_SVGS_AMT') ?? '');
  if (savings !== undefined) {
    addExtension(item, { url: variableUrl('DMERC_LINE_SCRN_SVGS_AMT'), valueQuantity: { value: savings } });
  }
  addExtension(item, mtusExtension(line));
  addColumnCoding(item, line, 'DMERC_LINE_PRCNG_STATE_CD');
  addColumnCoding(item, line, 'DMERC_LINE_SUPPLR_TYPE_CD');

  addCarrierDmeItem(eob, item, line, lookups);
  // BFD links a DME line's diagnosis with the carrier claim type's diagnosis types.
  addDiagnosisLink(eob, item, lineDiagnosis(line), 'carrier', lookups);
  addLocationCoding(item, line, 'PRVDR_STATE_CD');

  // BFD adds these two after the shared line amounts: the beneficiary payment slot carries the purchase price.
  addAdjudication(item, adjudicationAmount('LINE_BENE_PMT_AMT', 'paidToProvider', purchasePrice));
  addAdjudication(item, adjudicationAmount('LINE_DME_PRCHS_PRICE_AMT', 'submitted', purchasePrice));
  orderItem(item);
}
