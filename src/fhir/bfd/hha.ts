/**
 * A home health agency claim (CCW RIF HHA record, NCH claim type 10) as BFD serves it: BFD's
 * HHAClaimTransformerV2 in its public repository (docs/claims-rif.md). The claim header, the groups the
 * institutional types share (institutional.ts; BFD files HHA claims under CARIN's inpatient subtype but the
 * professional/non-clinician profile), the HHA-only supporting information (PPS indicator, low-utilization
 * payment adjustment, referral source, visit count, start of care), diagnoses, and one item per
 * revenue-center line.
 */
import {
  addAdjudication,
  addAdmissionPeriod,
  addCodedInformation,
  addInformation,
  addProviderSlice,
  addReceivedDate,
  denialReasonAdjudication,
  field,
  orderKeys,
  ITEM_ORDER,
} from './adjudication.js';
import { addDiagnoses } from './diagnosis.js';
import type { Json } from './elements.js';
import { eobHeader, optionalDate, orderEob } from './eob-header.js';
import {
  addInstitutionalCareTeam,
  addInstitutionalGroup,
  addInstitutionalItem,
  addItemDeductibleCoinsurance,
  addItemRevenueCenter,
  addItemRevenueDateAndPayment,
  addItemRevenueStatus,
  addRenderingPhysician,
  requiredAmount,
} from './institutional.js';
import type { ClaimLookups } from './lookups.js';
import { addItemHcpcs } from './professional.js';
import type { RifClaim, RifRow, TransformContext } from './rif-record.js';

/**
 * The HHA-only claim information in BFD's order after the diagnoses and care team: the low-utilization
 * payment adjustment indicator (CLM_HHA_LUPA_IND_CD) and the referral source (CLM_HHA_RFRL_CD) when present,
 * the total visit count (CLM_HHA_TOT_VISIT_CNT, 0 when empty, as BFD's RIF mapping defaults it) as a
 * quantity, and the start of care (CLM_ADMSN_DT) as the admission period's start.
 */
function addHomeHealthInformation(eob: Json, row: RifRow): void {
  addCodedInformation(eob, row, 'CLM_HHA_LUPA_IND_CD');
  addCodedInformation(eob, row, 'CLM_HHA_RFRL_CD');
  addInformation(eob, 'clm_hha_tot_visit_cnt').valueQuantity = {
    value: Math.trunc(requiredAmount(row, 'CLM_HHA_TOT_VISIT_CNT')),
  };
  addAdmissionPeriod(eob, optionalDate(row, 'CLM_ADMSN_DT'), undefined);
}

/** One revenue-center line as an item, in the order BFD fills it. */
function addLine(eob: Json, claim: RifRow, line: RifRow, lookups: ClaimLookups): void {
  const item = addInstitutionalItem(eob, claim, line);
  addItemHcpcs(item, line, 2);
  addAdjudication(
    item,
    denialReasonAdjudication('rev_cntr_1st_ansi_cd', field(line, 'REV_CNTR_1ST_ANSI_CD')),
  );
  addItemRevenueCenter(item, line);
  addItemRevenueDateAndPayment(item, line);
  addItemDeductibleCoinsurance(item, line);
  addRenderingPhysician(eob, item, line, lookups);
  addItemRevenueStatus(item, line);
  orderKeys(item, ITEM_ORDER);
}

/** The ExplanationOfBenefit of an HHA claim, its elements in BFD's order. */
export function hhaEob(claim: RifClaim, context: TransformContext): Json {
  const eob = eobHeader('hha', claim, context);
  const row = claim.rows[0]!;
  const { lookups } = context;

  addReceivedDate(eob, 'nch_wkly_proc_dt', optionalDate(row, 'NCH_WKLY_PROC_DT'));
  addProviderSlice(eob, 'prn', field(row, 'PRVDR_NUM'), lookups);
  addInstitutionalGroup(eob, row, lookups, 'inpatient');
  // BFD adds the PPS indicator unconditionally and fails on a claim without one; an absent code is left out.
  addCodedInformation(eob, row, 'CLM_PPS_IND_CD');
  addDiagnoses(eob, row, 'hha', lookups);
  addInstitutionalCareTeam(eob, row, lookups);
  addHomeHealthInformation(eob, row);

  for (const line of claim.rows) addLine(eob, row, line, lookups);
  return orderEob(eob);
}
