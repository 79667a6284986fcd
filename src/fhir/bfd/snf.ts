/**
 * A skilled nursing facility claim (CCW RIF SNF record, NCH claim types 20 and 30) as BFD serves it: BFD's
 * SNFClaimTransformerV2 in its public repository (docs/claims-rif.md). The claim header, the groups the
 * institutional types share (institutional.ts), the SNF-only qualifying stay and PPS indicator, diagnoses
 * (without present-on-admission indicators), procedures, and one item per revenue-center line.
 */
import {
  addBenefitBalanceCount,
  addCodedInformation,
  addInformationWithPeriod,
  addProviderSlice,
  addReceivedDate,
  field,
} from './adjudication.js';
import { addDiagnoses } from './diagnosis.js';
import type { Json } from './elements.js';
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
  requiredAmount,
} from './institutional.js';
import { addProcedures } from './procedure.js';
import { addItemHcpcs } from './professional.js';
import type { RifClaim, RifRow, TransformContext } from './rif-record.js';

/**
 * The qualifying stay (NCH_QLFYD_STAY_FROM_DT to NCH_QLFYD_STAY_THRU_DT, the hospital stay that qualifies
 * the beneficiary for SNF care) as one supportingInfo period, named by the from-date variable, when either
 * date is there.
 */
function addQualifyingStay(eob: Json, row: RifRow): void {
  addInformationWithPeriod(
    eob,
    'nch_qlfyd_stay_from_dt',
    optionalDate(row, 'NCH_QLFYD_STAY_FROM_DT'),
    optionalDate(row, 'NCH_QLFYD_STAY_THRU_DT'),
  );
}

/** One revenue-center line as an item, in the order BFD fills it. */
function addLine(eob: Json, claim: RifRow, line: RifRow, context: TransformContext): void {
  const item = addInstitutionalItem(eob, claim, line);
  addItemHcpcs(item, line, 0);
  addItemRevenueCenter(item, line);
  addItemDeductibleCoinsurance(item, line);
  addRenderingPhysician(eob, item, line, context.lookups);
}

/** The ExplanationOfBenefit of an SNF claim, its elements in BFD's order. */
export function snfEob(claim: RifClaim, context: TransformContext): Json {
  const eob = eobHeader('snf', claim, context);
  const row = claim.rows[0]!;
  const { lookups } = context;

  addReceivedDate(eob, 'nch_wkly_proc_dt', optionalDate(row, 'NCH_WKLY_PROC_DT'));
  addProviderSlice(eob, 'prn', field(row, 'PRVDR_NUM'), lookups);
  addInpatientSnfStayInformation(eob, row);

  addPatientStatus(eob, row);
  addInpatientSnfAdmissionPeriod(eob, row);
  addBenefitBalanceCount(eob, 'clm_utlztn_day_cnt', requiredAmount(row, 'CLM_UTLZTN_DAY_CNT'));
  addQualifyingStay(eob, row);

  addCodedInformation(eob, row, 'CLM_PPS_IND_CD');

  addInpatientSnfBenefits(eob, row);
  addInstitutionalCareTeam(eob, row, lookups);
  addInpatientOutpatientSnfGroup(eob, row);
  addInstitutionalGroup(eob, row, lookups, 'inpatient');

  addDiagnoses(eob, row, 'snf', lookups);
  addProcedures(eob, row, lookups);

  for (const line of claim.rows) addLine(eob, row, line, context);
  return orderEob(eob);
}
