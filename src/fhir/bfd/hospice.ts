/**
 * A hospice claim (CCW RIF hospice record, NCH claim type 50) as BFD serves it: BFD's
 * HospiceClaimTransformerV2 in its public repository (docs/claims-rif.md). The claim header, the hospice-only
 * patient status, hospice period and utilization days, the groups the institutional types share
 * (institutional.ts; hospice claims are CARIN's inpatient subtype), diagnoses, and one item per
 * revenue-center line.
 */
import {
  addAdmissionPeriod,
  addBenefitBalanceCount,
  addExtension,
  addProviderSlice,
  addReceivedDate,
  field,
  orderKeys,
  ITEM_ORDER,
} from './adjudication.js';
import { addDiagnoses } from './diagnosis.js';
import { type Json, quantityExtension } from './elements.js';
import { eobHeader, optionalDate, orderEob } from './eob-header.js';
import {
  addInstitutionalCareTeam,
  addInstitutionalGroup,
  addInstitutionalItem,
  addItemAmounts,
  addItemDeductibleCoinsurance,
  addItemRevenueCenter,
  addItemRevenueDateAndPayment,
  addPatientStatus,
  addRenderingPhysician,
  optionalAmount,
  requiredAmount,
} from './institutional.js';
import type { ClaimLookups } from './lookups.js';
import { addItemHcpcs } from './professional.js';
import type { RifClaim, RifRow, TransformContext } from './rif-record.js';

/**
 * The hospice stay in BFD's order after the provider number: the NCH patient status (RIF column
 * NCH_PTNT_STATUS_IND_CD, CCW variable nch_ptnt_stus_ind_cd) when present, the admission period from the
 * hospice start date (CLM_HOSPC_START_DT_ID) to the discharge date (NCH_BENE_DSCHRG_DT), and the Medicare
 * utilization days (CLM_UTLZTN_DAY_CNT, 0 when empty, as BFD's RIF mapping defaults it) as a benefit-balance
 * count.
 */
function addHospiceStay(eob: Json, row: RifRow): void {
  addPatientStatus(eob, row);
  addAdmissionPeriod(
    eob,
    optionalDate(row, 'CLM_HOSPC_START_DT_ID'),
    optionalDate(row, 'NCH_BENE_DSCHRG_DT'),
  );
  addBenefitBalanceCount(eob, 'clm_utlztn_day_cnt', requiredAmount(row, 'CLM_UTLZTN_DAY_CNT'));
}

/**
 * One revenue-center line as an item, in the order BFD fills it (the HCPCS code after the revenue center, so
 * the NDC quantity qualifier's modifier comes before the HCPCS modifiers). The non-covered charge is nullable
 * on hospice lines, so it is left out when empty.
 */
function addLine(eob: Json, claim: RifRow, line: RifRow, lookups: ClaimLookups): void {
  const item = addInstitutionalItem(eob, claim, line);
  addItemRevenueCenter(item, line, { nonCoveredNullable: true });
  addItemDeductibleCoinsurance(item, line);
  addRenderingPhysician(eob, item, line, lookups);
  addItemHcpcs(item, line, 2);
  addItemAmounts(item, line, [
    ['REV_CNTR_PRVDR_PMT_AMT', 'paidToProvider'],
    ['REV_CNTR_BENE_PMT_AMT', 'paidToPatient'],
  ]);
  addItemRevenueDateAndPayment(item, line);
  orderKeys(item, ITEM_ORDER);
}

/** The ExplanationOfBenefit of a hospice claim, its elements in BFD's order. */
export function hospiceEob(claim: RifClaim, context: TransformContext): Json {
  const eob = eobHeader('hospice', claim, context);
  const row = claim.rows[0]!;
  const { lookups } = context;

  addReceivedDate(eob, 'nch_wkly_proc_dt', optionalDate(row, 'NCH_WKLY_PROC_DT'));
  addProviderSlice(eob, 'prn', field(row, 'PRVDR_NUM'), lookups);
  addHospiceStay(eob, row);
  addInstitutionalGroup(eob, row, lookups, 'inpatient');
  addDiagnoses(eob, row, 'hospice', lookups);
  addInstitutionalCareTeam(eob, row, lookups);

  // BENE_HOSPC_PRD_CNT, the beneficiary's hospice period count, when present.
  const periods = optionalAmount(row, 'BENE_HOSPC_PRD_CNT');
  if (periods !== undefined) addExtension(eob, quantityExtension('bene_hospc_prd_cnt', periods));

  for (const line of claim.rows) addLine(eob, row, line, lookups);
  return orderEob(eob);
}
