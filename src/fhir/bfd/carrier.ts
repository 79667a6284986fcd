/**
 * A carrier claim (CCW `bcarrier` RIF record: a physician's or supplier's Part B claim processed by a local
 * carrier) as the ExplanationOfBenefit BFD serves for it (CarrierClaimTransformerV2 in BFD's public
 * repository), elements added in BFD's order (docs/claims-rif.md).
 */
import {
  addAdjudication,
  addCareTeamMember,
  addCareTeamOrganization,
  addExtension,
  addReceivedDate,
  addTotal,
  denialReasonAdjudication,
  field,
  totalAmount,
} from './adjudication.js';
import { addDiagnoses, addDiagnosisLink, lineDiagnosis } from './diagnosis.js';
import { type Json, decimal, quantityExtension, variableIdentifier } from './elements.js';
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
  addLocationIdentifier,
  addTaxNumber,
  markPerforming,
  orderItem,
} from './professional.js';
import type { RifClaim, RifRow, TransformContext } from './rif-record.js';

/**
 * The ExplanationOfBenefit of a carrier claim, its elements in BFD's order; each line's tax number is included unless
 * `options` says otherwise (ProfessionalOptions).
 */
export function carrierEob(
  claim: RifClaim,
  context: TransformContext,
  options: ProfessionalOptions = {},
): Json {
  const row = claim.rows[0];
  if (row === undefined) throw new Error('a carrier claim has at least one line');
  const { lookups } = context;
  const eob = eobHeader('carrier', claim, context);

  addReceivedDate(eob, 'NCH_WKLY_PROC_DT', optionalDate(row, 'NCH_WKLY_PROC_DT'));
  addTotal(eob, totalAmount('priorPayerPaid', field(row, 'CARR_CLM_PRMRY_PYR_PD_AMT'), 'CLM_TOT_CHRG_AMT'));
  addCarrierDmeGroup(eob, row, lookups);
  addDiagnoses(eob, row, 'carrier', lookups);
  // BFD types the carrier's referring provider id (a PIN, despite the name) as an NPI.
  addCareTeamMember(eob, undefined, 'npi', 'referring', field(row, 'CARR_CLM_RFRNG_PIN_NUM'), lookups, {
    taxonomy: true,
  });
  addClaimEntryCode(eob, row);
  eob.provider = {
    identifier: variableIdentifier('CARR_CLM_BLG_NPI_NUM', field(row, 'CARR_CLM_BLG_NPI_NUM') ?? 'UNKNOWN'),
  };

  for (const line of claim.rows) addCarrierLine(eob, row, line, lookups, options);
  return orderEob(eob);
}

/** One claim line as an item, in BFD's order. */
function addCarrierLine(
  eob: Json,
  claim: RifRow,
  line: RifRow,
  lookups: ClaimLookups,
  options: ProfessionalOptions,
): void {
  const item = addLineItem(eob, line);

  // The performing physician by NPI, by UPIN when the line has no NPI.
  const npi = field(line, 'PRF_PHYSN_NPI');
  const performing =
    npi !== undefined
      ? addCareTeamMember(eob, item, 'npi', 'performing', npi, lookups, { taxonomy: true })
      : addCareTeamMember(eob, item, 'upin', 'performing', field(line, 'PRF_PHYSN_UPIN'), lookups);
  markPerforming(performing, line, ['CARR_LINE_PRVDR_TYPE_CD', 'PRTCPTNG_IND_CD']);
  const organization = field(line, 'ORG_NPI_NUM');
  if (organization !== undefined) addCareTeamOrganization(eob, item, 'primary', organization, lookups);

  addAdjudication(
    item,
    denialReasonAdjudication('CARR_LINE_RDCD_PMT_PHYS_ASTN_C', field(line, 'CARR_LINE_RDCD_PMT_PHYS_ASTN_C')),
  );
  addItemHcpcs(item, line, 2, field(claim, 'CARR_CLM_HCPCS_YR_CD'));
  addTaxNumber(item, line, options);

  const anesthesia = decimal(field(line, 'CARR_LINE_ANSTHSA_UNIT_CNT') ?? '');
  if (anesthesia !== undefined && anesthesia > 0) {
    addExtension(item, quantityExtension('CARR_LINE_ANSTHSA_UNIT_CNT', anesthesia));
  }
  // BFD skips a zero count; it codes the unit indicator twice, once under the count's own URL.
  const mtusCount = decimal(field(line, 'CARR_LINE_MTUS_CNT') ?? '');
  if (mtusCount !== undefined && mtusCount !== 0)
    addExtension(item, quantityExtension('CARR_LINE_MTUS_CNT', mtusCount));
  addColumnCoding(item, line, 'CARR_LINE_MTUS_CD', 'CARR_LINE_MTUS_CNT');
  addColumnCoding(item, line, 'CARR_LINE_MTUS_CD');

  addCarrierDmeItem(eob, item, line, lookups);
  addDiagnosisLink(eob, item, lineDiagnosis(line), 'carrier', lookups);

  addLocationCoding(item, line, 'PRVDR_STATE_CD');
  addLocationCoding(item, line, 'PRVDR_ZIP');
  addLocationCoding(item, line, 'CARR_LINE_PRCNG_LCLTY_CD');
  addLocationIdentifier(item, line, 'CARR_LINE_CLIA_LAB_NUM');
  orderItem(item);
}
