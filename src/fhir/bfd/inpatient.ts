/**
 * An inpatient claim (CCW RIF inpatient record, NCH claim type 60) as BFD serves it: BFD's
 * InpatientClaimTransformerV2 in its public repository (docs/claims-rif.md). The claim header, the groups the
 * institutional types share (institutional.ts), the inpatient-only amounts, diagnoses with their
 * present-on-admission indicators, procedures, and one item per revenue-center line.
 */
import {
  addBenefitBalanceAmount,
  addBenefitBalanceCount,
  addExtension,
  addProviderSlice,
  addReceivedDate,
  amountExtension,
  field,
  orderKeys,
  ITEM_ORDER,
  SYSTEMS,
} from './adjudication.js';
import { addDiagnoses } from './diagnosis.js';
import { type Json, variableUrl } from './elements.js';
import { eobHeader, optionalDate, orderEob } from './eob-header.js';
import {
  addInpatientOutpatientSnfGroup,
  addInpatientSnfAdmissionPeriod,
  addInpatientSnfBenefits,
  addInpatientSnfStayInformation,
  addInstitutionalCareTeam,
  addInstitutionalGroup,
  addInstitutionalItem,
  addItemDeductibleCoinsurance,
  addItemRevenueCenter,
  addPatientStatus,
  addRenderingPhysician,
  optionalAmount,
  requiredAmount,
} from './institutional.js';
import { addProcedures } from './procedure.js';
import type { RifClaim, RifRow, TransformContext } from './rif-record.js';

/**
 * The inpatient line's productOrService: its HCPCS code both as the CCW `hcpcs_cd` variable and in Blue
 * Button's HCPCS system, or, without one, the data-absent-reason `NULL` coding with its display. (The other
 * institutional types name the code once, professional.ts addItemHcpcs.)
 */
export function inpatientProductOrService(hcpcs: string | undefined): Json {
  return hcpcs === undefined
    ? { coding: [{ system: SYSTEMS.dataAbsentReason, code: 'NULL', display: 'Data Absent Reason' }] }
    : {
        coding: [
          { system: variableUrl('hcpcs_cd'), code: hcpcs },
          { system: SYSTEMS.hcpcs, code: hcpcs },
        ],
      };
}

/** One revenue-center line as an item, in the order BFD fills it. */
function addLine(eob: Json, claim: RifRow, line: RifRow, context: TransformContext): void {
  const item = addInstitutionalItem(eob, claim, line);
  addItemRevenueCenter(item, line);
  addItemDeductibleCoinsurance(item, line);
  item.productOrService = inpatientProductOrService(field(line, 'HCPCS_CD'));
  orderKeys(item, ITEM_ORDER);
  addRenderingPhysician(eob, item, line, context.lookups);
}

/** The ExplanationOfBenefit of an inpatient claim, its elements in BFD's order. */
export function inpatientEob(claim: RifClaim, context: TransformContext): Json {
  const eob = eobHeader('inpatient', claim, context);
  const row = claim.rows[0]!;
  const { lookups } = context;

  addProviderSlice(eob, 'prn', field(row, 'PRVDR_NUM'), lookups);

  addPatientStatus(eob, row);
  addInpatientSnfAdmissionPeriod(eob, row);
  addInpatientSnfStayInformation(eob, row);

  addExtension(eob, amountExtension('ime_op_clm_val_amt', optionalAmount(row, 'IME_OP_CLM_VAL_AMT')));
  addExtension(
    eob,
    amountExtension('clm_uncompd_care_pmt_amt', optionalAmount(row, 'CLM_UNCOMPD_CARE_PMT_AMT')),
  );
  addExtension(eob, amountExtension('dsh_op_clm_val_amt', optionalAmount(row, 'DSH_OP_CLM_VAL_AMT')));

  addBenefitBalanceAmount(
    eob,
    'clm_pass_thru_per_diem_amt',
    requiredAmount(row, 'CLM_PASS_THRU_PER_DIEM_AMT'),
  );
  addBenefitBalanceAmount(eob, 'nch_profnl_cmpnt_chrg_amt', requiredAmount(row, 'NCH_PROFNL_CMPNT_CHRG_AMT'));
  addBenefitBalanceAmount(eob, 'clm_tot_pps_cptl_amt', optionalAmount(row, 'CLM_TOT_PPS_CPTL_AMT'));
  addInpatientSnfBenefits(eob, row);
  addBenefitBalanceAmount(
    eob,
    'nch_drg_outlier_aprvd_pmt_amt',
    optionalAmount(row, 'NCH_DRG_OUTLIER_APRVD_PMT_AMT'),
  );

  addInstitutionalCareTeam(eob, row, lookups);
  addInpatientOutpatientSnfGroup(eob, row);
  addInstitutionalGroup(eob, row, lookups, 'inpatient');
  addBenefitBalanceCount(eob, 'clm_utlztn_day_cnt', requiredAmount(row, 'CLM_UTLZTN_DAY_CNT'));

  addDiagnoses(eob, row, 'inpatient', lookups);
  addProcedures(eob, row, lookups);
  addReceivedDate(eob, 'nch_wkly_proc_dt', optionalDate(row, 'NCH_WKLY_PROC_DT'));

  addBenefitBalanceCount(eob, 'clm_pps_cptl_drg_wt_num', optionalAmount(row, 'CLM_PPS_CPTL_DRG_WT_NUM'));
  addBenefitBalanceCount(eob, 'bene_lrd_used_cnt', optionalAmount(row, 'BENE_LRD_USED_CNT'));

  for (const line of claim.rows) addLine(eob, row, line, context);
  return orderEob(eob);
}
