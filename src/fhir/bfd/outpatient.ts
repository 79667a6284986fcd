/**
 * A hospital outpatient claim (CCW RIF outpatient record, NCH claim type 40) as BFD serves it: BFD's
 * OutpatientClaimTransformerV2 in its public repository (docs/claims-rif.md). The claim header, the groups
 * the institutional types share (institutional.ts), the outpatient Part B amounts, diagnoses (with the
 * reasons for visit), procedures, and one item per revenue-center line with its denial reasons, its Part B
 * amounts, its NDC and its rendering physician.
 */
import {
  addAdjudication,
  addBenefitBalanceAmount,
  addProviderSlice,
  addReceivedDate,
  type AdjudicationSlice,
  denialReasonAdjudication,
  field,
  orderKeys,
  ITEM_ORDER,
} from './adjudication.js';
import { addDiagnoses } from './diagnosis.js';
import type { Json } from './elements.js';
import { eobHeader, optionalDate, orderEob } from './eob-header.js';
import {
  addInpatientOutpatientSnfGroup,
  addInstitutionalCareTeam,
  addInstitutionalGroup,
  addInstitutionalItem,
  addItemAmounts,
  addItemRevenueCenter,
  addItemRevenueDateAndPayment,
  addItemRevenueStatus,
  addRenderingPhysician,
  requiredAmount,
} from './institutional.js';
import type { ClaimLookups } from './lookups.js';
import { addProcedures } from './procedure.js';
import { addItemHcpcs, addNationalDrugCode } from './professional.js';
import type { RifClaim, RifRow, TransformContext } from './rif-record.js';

/**
 * The outpatient claim's Part B amounts, each a benefit-balance entry in BFD's order: the professional
 * component charge, the Part B deductible and coinsurance, the payments to the provider and to the
 * beneficiary. All five default to 0 in BFD's RIF mappings, so they are always there.
 */
const CLAIM_AMOUNTS: readonly (readonly [column: string, variable: string])[] = [
  ['NCH_PROFNL_CMPNT_CHRG_AMT', 'nch_profnl_cmpnt_chrg_amt'],
  ['NCH_BENE_PTB_DDCTBL_AMT', 'nch_bene_ptb_ddctbl_amt'],
  ['NCH_BENE_PTB_COINSRNC_AMT', 'nch_bene_ptb_coinsrnc_amt'],
  ['CLM_OP_PRVDR_PMT_AMT', 'clm_op_prvdr_pmt_amt'],
  ['CLM_OP_BENE_PMT_AMT', 'clm_op_bene_pmt_amt'],
];

/** The revenue-center ANSI denial reason columns (the claim adjustment group and reason codes), in order. */
const DENIAL_REASONS = [
  'REV_CNTR_1ST_ANSI_CD',
  'REV_CNTR_2ND_ANSI_CD',
  'REV_CNTR_3RD_ANSI_CD',
  'REV_CNTR_4TH_ANSI_CD',
] as const;

/**
 * The outpatient line's amounts with the CARIN category each is filed under, in BFD's order. All default to
 * 0 in BFD's RIF mappings, so every line has all nine.
 */
const LINE_AMOUNTS: readonly (readonly [column: string, slice: AdjudicationSlice])[] = [
  ['REV_CNTR_BLOOD_DDCTBL_AMT', 'deductible'],
  ['REV_CNTR_CASH_DDCTBL_AMT', 'deductible'],
  ['REV_CNTR_COINSRNC_WGE_ADJSTD_C', 'coinsurance'],
  ['REV_CNTR_RDCD_COINSRNC_AMT', 'coinsurance'],
  ['REV_CNTR_1ST_MSP_PD_AMT', 'priorPayerPaid'],
  ['REV_CNTR_2ND_MSP_PD_AMT', 'priorPayerPaid'],
  ['REV_CNTR_PRVDR_PMT_AMT', 'paidToProvider'],
  ['REV_CNTR_BENE_PMT_AMT', 'paidToPatient'],
  ['REV_CNTR_PTNT_RSPNSBLTY_PMT', 'paidByPatient'],
];

/**
 * The line's NDC, IDE or UPC number (REV_CNTR_IDE_NDC_UPC_NUM) as the NDC extension of its productOrService,
 * or the data-absent-reason extension when the line has none: the same element BFD's addNationalDrugCode
 * writes for a carrier or DME line's LINE_NDC_CD, so professional.ts's function serves, given the column
 * under its carrier name.
 */
function addLineNationalDrugCode(item: Json, line: RifRow, lookups: ClaimLookups): void {
  addNationalDrugCode(item, { LINE_NDC_CD: line.REV_CNTR_IDE_NDC_UPC_NUM ?? '' }, lookups);
}

/** One revenue-center line as an item, in the order BFD fills it. */
function addLine(eob: Json, claim: RifRow, line: RifRow, lookups: ClaimLookups): void {
  const item = addInstitutionalItem(eob, claim, line);
  for (const column of DENIAL_REASONS)
    addAdjudication(item, denialReasonAdjudication(column.toLowerCase(), field(line, column)));
  addItemHcpcs(item, line, 2);
  addItemRevenueCenter(item, line);
  addItemAmounts(item, line, LINE_AMOUNTS);
  addItemRevenueDateAndPayment(item, line);
  addLineNationalDrugCode(item, line, lookups);
  addRenderingPhysician(eob, item, line, lookups);
  addItemRevenueStatus(item, line);
  orderKeys(item, ITEM_ORDER);
}

/** The ExplanationOfBenefit of an outpatient claim, its elements in BFD's order. */
export function outpatientEob(claim: RifClaim, context: TransformContext): Json {
  const eob = eobHeader('outpatient', claim, context);
  const row = claim.rows[0]!;
  const { lookups } = context;

  addReceivedDate(eob, 'nch_wkly_proc_dt', optionalDate(row, 'NCH_WKLY_PROC_DT'));
  addInstitutionalCareTeam(eob, row, lookups);
  addProviderSlice(eob, 'prn', field(row, 'PRVDR_NUM'), lookups);
  for (const [column, variable] of CLAIM_AMOUNTS)
    addBenefitBalanceAmount(eob, variable, requiredAmount(row, column));
  addInpatientOutpatientSnfGroup(eob, row);
  addInstitutionalGroup(eob, row, lookups, 'outpatient');

  addDiagnoses(eob, row, 'outpatient', lookups);
  addProcedures(eob, row, lookups);

  for (const line of claim.rows) addLine(eob, row, line, lookups);
  return orderEob(eob);
}
