/**
 * What the five institutional (Part A facility) claim types share as BFD serves them: inpatient, outpatient,
 * skilled nursing facility (SNF), home health agency (HHA) and hospice. BFD's TransformerUtilsV2 (in its public
 * repository) groups these mappings by the claim types that share them: mapEobCommonGroupInpOutHHAHospiceSNF,
 * mapEobCommonGroupInpOutSNF, addCommonEobInformationInpatientSNF, addCommonGroupInpatientSNF, mapCareTeam,
 * mapEobCommonItemRevenue, addItemRevenue, mapEobCommonItemRevenueOutHHAHospice and
 * mapEobCommonItemRevenueStatusCode. The functions here follow the same groups: each reads the CCW RIF columns
 * of a claim (docs/claims-rif.md) and adds to the ExplanationOfBenefit being built (`eob`, a plain JSON
 * object it mutates) in the order BFD adds them, so that what they number (supportingInfo, careTeam) comes out
 * numbered as BFD's. Claim-level columns are read from the claim's first row (`claim`), line-level ones from
 * the line's row (`line`). A line's HCPCS code (BFD mapHcpcs) is professional.ts addItemHcpcs, which the
 * carrier and DME lines share.
 */
import {
  SYSTEMS,
  type AdjudicationSlice,
  addAdjudication,
  addAdmissionPeriod,
  addBenefitBalanceAmount,
  addBenefitBalanceCount,
  addCareTeamMember,
  addExtension,
  addInformation,
  addCodedInformation,
  addInformationSliceWithCode,
  addInformationWithPeriod,
  addProviderSlice,
  addTotal,
  adjudicationAmount,
  amountOf,
  arrayOf,
  variableCoding,
  codingExtension,
  field,
  orderKeys,
  totalAmount,
  ITEM_ORDER,
} from './adjudication.js';
import { type Json, variableUrl } from './elements.js';
import { institutionalSubType, optionalDate } from './eob-header.js';
import type { ClaimLookups } from './lookups.js';
import type { RifRow } from './rif-record.js';

// ---------------------------------------------------------------------------------------------------------
// Reading amounts
// ---------------------------------------------------------------------------------------------------------

/**
 * An amount or count column BFD's RIF mappings (bfd-model-rif mappings/*.yaml) declare not null with default
 * "0": BFD's RIF parser reads an empty value as 0, so the element it feeds is always there.
 */
export function requiredAmount(row: RifRow, column: string): number {
  return amountOf(field(row, column)) ?? 0;
}

/** An amount or count column BFD's RIF mappings declare nullable: undefined when empty. */
export function optionalAmount(row: RifRow, column: string): number | undefined {
  return amountOf(field(row, column));
}

// ---------------------------------------------------------------------------------------------------------
// Claim-level groups
// ---------------------------------------------------------------------------------------------------------

/** The two CARIN institutional claim subtypes; BFD files SNF, HHA and hospice claims as inpatient. */
export type InstitutionalSubtype = 'inpatient' | 'outpatient';

/**
 * The claim-level elements all five institutional types share (BFD mapEobCommonGroupInpOutHHAHospiceSNF), in
 * BFD's order: CLAIM_QUERY_CODE as an extension of billablePeriod; FI_DOC_CLM_CNTL_NUM and FI_CLM_PROC_DT as
 * extensions; the billing organisation's NPI (ORG_NPI_NUM) in the contained provider Organization, named from
 * NPPES; CLM_FAC_TYPE_CD as an extension of facility; CLM_FREQ_CD as the `typeofbill` supportingInfo;
 * CLM_MDCR_NON_PMT_RSN_CD; PTNT_DSCHRG_STUS_CD as `discharge-status`; CLM_SRVC_CLSFCTN_TYPE_CD; NCH_PRMRY_PYR_CD
 * as supportingInfo; FI_NUM; CLM_TOT_CHRG_AMT as the submitted total; NCH_PRMRY_PYR_CLM_PD_AMT as the
 * `prpayamt` benefit balance; and the CARIN subtype (SNF, HHA and hospice claims are `inpatient`).
 */
export function addInstitutionalGroup(
  eob: Json,
  claim: RifRow,
  lookups: ClaimLookups,
  subtype: InstitutionalSubtype,
): void {
  const queryCode = field(claim, 'CLAIM_QUERY_CODE');
  if (queryCode !== undefined) {
    const billablePeriod = (eob.billablePeriod ?? {}) as Json;
    addExtension(billablePeriod, codingExtension('claim_query_cd', queryCode));
    eob.billablePeriod = orderKeys(billablePeriod, ['extension', 'start', 'end']);
  }

  const controlNumber = field(claim, 'FI_DOC_CLM_CNTL_NUM');
  if (controlNumber !== undefined) {
    const url = variableUrl('fi_doc_clm_cntl_num');
    addExtension(eob, { url, valueIdentifier: { system: url, value: controlNumber } });
  }
  const processed = optionalDate(claim, 'FI_CLM_PROC_DT');
  if (processed !== undefined)
    addExtension(eob, { url: variableUrl('fi_clm_proc_dt'), valueDate: processed });

  addProviderSlice(eob, 'npi', field(claim, 'ORG_NPI_NUM'), lookups);

  const facilityType = field(claim, 'CLM_FAC_TYPE_CD');
  if (facilityType !== undefined) {
    const facility = (eob.facility ?? {}) as Json;
    addExtension(facility, codingExtension('clm_fac_type_cd', facilityType));
    eob.facility = facility;
  }

  addInformationSliceWithCode(eob, 'typeOfBill', 'clm_freq_cd', field(claim, 'CLM_FREQ_CD'));

  const nonPayment = field(claim, 'CLM_MDCR_NON_PMT_RSN_CD');
  if (nonPayment !== undefined) addExtension(eob, codingExtension('clm_mdcr_non_pmt_rsn_cd', nonPayment));

  addInformationSliceWithCode(
    eob,
    'dischargeStatus',
    'ptnt_dschrg_stus_cd',
    field(claim, 'PTNT_DSCHRG_STUS_CD'),
  );

  const classification = field(claim, 'CLM_SRVC_CLSFCTN_TYPE_CD');
  if (classification !== undefined)
    addExtension(eob, codingExtension('clm_srvc_clsfctn_type_cd', classification));

  addCodedInformation(eob, claim, 'NCH_PRMRY_PYR_CD');

  const fiNumber = field(claim, 'FI_NUM');
  if (fiNumber !== undefined) addExtension(eob, codingExtension('fi_num', fiNumber));

  addTotal(eob, totalAmount('submitted', requiredAmount(claim, 'CLM_TOT_CHRG_AMT'), 'clm_tot_chrg_amt'));
  addBenefitBalanceAmount(eob, 'prpayamt', requiredAmount(claim, 'NCH_PRMRY_PYR_CLM_PD_AMT'));

  eob.subType = institutionalSubType(subtype);
}

/**
 * What inpatient, outpatient and SNF claims share (BFD mapEobCommonGroupInpOutSNF): the blood deductible
 * liability (NCH_BENE_BLOOD_DDCTBL_LBLTY_AM) as a benefit-balance amount and the managed-care-paid switch
 * (CLM_MCO_PD_SW) as supportingInfo.
 */
export function addInpatientOutpatientSnfGroup(eob: Json, claim: RifRow): void {
  addBenefitBalanceAmount(
    eob,
    'nch_bene_blood_ddctbl_lblty_am',
    requiredAmount(claim, 'NCH_BENE_BLOOD_DDCTBL_LBLTY_AM'),
  );
  addCodedInformation(eob, claim, 'CLM_MCO_PD_SW');
}

/**
 * The stay information inpatient and SNF claims share (BFD addCommonEobInformationInpatientSNF), in BFD's
 * order: the admission type (CLM_IP_ADMSN_TYPE_CD, CARIN `admtype` in NUBC's codes), the source of admission,
 * the verified non-covered stay as a period, the covered-care-through and benefits-exhausted dates, the DRG
 * code (CLM_DRG_CD, three or four characters, as it is) and the FI claim action code as an extension.
 */
export function addInpatientSnfStayInformation(eob: Json, claim: RifRow): void {
  addCodedInformation(eob, claim, 'CLM_IP_ADMSN_TYPE_CD');
  addCodedInformation(eob, claim, 'CLM_SRC_IP_ADMSN_CD');
  addInformationWithPeriod(
    eob,
    'nch_vrfd_ncvrd_stay_from_dt',
    optionalDate(claim, 'NCH_VRFD_NCVRD_STAY_FROM_DT'),
    optionalDate(claim, 'NCH_VRFD_NCVRD_STAY_THRU_DT'),
  );

  const coveredThrough = optionalDate(claim, 'NCH_ACTV_OR_CVRD_LVL_CARE_THRU');
  if (coveredThrough !== undefined)
    addInformation(eob, 'nch_actv_or_cvrd_lvl_care_thru').timingDate = coveredThrough;

  const exhausted = optionalDate(claim, 'NCH_BENE_MDCR_BNFTS_EXHTD_DT_I');
  if (exhausted !== undefined) addInformation(eob, 'nch_bene_mdcr_bnfts_exhtd_dt_i').timingDate = exhausted;

  addCodedInformation(eob, claim, 'CLM_DRG_CD');

  const action = field(claim, 'FI_CLM_ACTN_CD');
  if (action !== undefined) addExtension(eob, codingExtension('fi_clm_actn_cd', action));
}

/**
 * The benefit balances and blood pints inpatient and SNF claims share (BFD addCommonGroupInpatientSNF), in
 * BFD's order: coinsurance and non-utilization day counts, the Part A deductible and coinsurance liability,
 * the blood pints furnished (supportingInfo, in UCUM US pints), the non-covered charge, the total deduction,
 * and the six PPS capital amounts each when present.
 */
export function addInpatientSnfBenefits(eob: Json, claim: RifRow): void {
  addBenefitBalanceCount(
    eob,
    'bene_tot_coinsrnc_days_cnt',
    requiredAmount(claim, 'BENE_TOT_COINSRNC_DAYS_CNT'),
  );
  addBenefitBalanceCount(eob, 'clm_non_utlztn_days_cnt', requiredAmount(claim, 'CLM_NON_UTLZTN_DAYS_CNT'));
  addBenefitBalanceAmount(eob, 'nch_bene_ip_ddctbl_amt', requiredAmount(claim, 'NCH_BENE_IP_DDCTBL_AMT'));
  addBenefitBalanceAmount(
    eob,
    'nch_bene_pta_coinsrnc_lblty_amt',
    requiredAmount(claim, 'NCH_BENE_PTA_COINSRNC_LBLTY_AM'),
  );

  addInformation(eob, 'nch_blood_pnts_frnshd_qty').valueQuantity = {
    value: requiredAmount(claim, 'NCH_BLOOD_PNTS_FRNSHD_QTY'),
    unit: 'pint',
    system: SYSTEMS.ucum,
    code: '[pt_us]',
  };

  addBenefitBalanceAmount(eob, 'nch_ip_ncvrd_chrg_amt', requiredAmount(claim, 'NCH_IP_NCVRD_CHRG_AMT'));
  addBenefitBalanceAmount(eob, 'nch_ip_tot_ddctn_amt', requiredAmount(claim, 'NCH_IP_TOT_DDCTN_AMT'));
  for (const column of [
    'CLM_PPS_CPTL_DSPRPRTNT_SHR_AMT',
    'CLM_PPS_CPTL_EXCPTN_AMT',
    'CLM_PPS_CPTL_FSP_AMT',
    'CLM_PPS_CPTL_IME_AMT',
    'CLM_PPS_CPTL_OUTLIER_AMT',
    'CLM_PPS_OLD_CPTL_HLD_HRMLS_AMT',
  ]) {
    addBenefitBalanceAmount(eob, column.toLowerCase(), optionalAmount(claim, column));
  }
}

/**
 * The NCH patient status (RIF column NCH_PTNT_STATUS_IND_CD, CCW variable nch_ptnt_stus_ind_cd) as
 * supportingInfo when present (inpatient, SNF and hospice).
 */
export function addPatientStatus(eob: Json, claim: RifRow): void {
  addCodedInformation(eob, claim, 'NCH_PTNT_STATUS_IND_CD', 'nch_ptnt_stus_ind_cd');
}

/**
 * The admission period, CLM_ADMSN_DT to NCH_BENE_DSCHRG_DT, as CARIN's `admissionperiod` supportingInfo when
 * either date is there (BFD createInformationAdmPeriodSlice; inpatient and SNF).
 */
export function addInpatientSnfAdmissionPeriod(eob: Json, claim: RifRow): void {
  addAdmissionPeriod(eob, optionalDate(claim, 'CLM_ADMSN_DT'), optionalDate(claim, 'NCH_BENE_DSCHRG_DT'));
}

/**
 * The claim's attending, operating and other physicians as care-team members (BFD mapCareTeam): for each role
 * in that order its NPI (AT_/OP_/OT_PHYSN_NPI, qualified by its NPPES primary taxonomy) then its UPIN
 * (…_PHYSN_UPIN). HHA and hospice claims have only the attending physician's columns, so the same call serves
 * them.
 */
export function addInstitutionalCareTeam(eob: Json, claim: RifRow, lookups: ClaimLookups): void {
  for (const [role, prefix] of [
    ['attending', 'AT'],
    ['operating', 'OP'],
    ['otherOperating', 'OT'],
  ] as const) {
    addCareTeamMember(eob, undefined, 'npi', role, field(claim, `${prefix}_PHYSN_NPI`), lookups, {
      taxonomy: true,
    });
    addCareTeamMember(eob, undefined, 'upin', role, field(claim, `${prefix}_PHYSN_UPIN`), lookups);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Line-level groups
// ---------------------------------------------------------------------------------------------------------

/**
 * A new item for one claim line, as every institutional transform starts its items: sequence CLM_LINE_NUM,
 * location the provider's state (the claim's PRVDR_STATE_CD). Appended to `eob.item` and returned for the
 * other line groups to fill.
 */
export function addInstitutionalItem(eob: Json, claim: RifRow, line: RifRow): Json {
  const items = arrayOf(eob, 'item');
  const lineNumber = field(line, 'CLM_LINE_NUM');
  const item: Json = { sequence: lineNumber === undefined ? items.length + 1 : Number(lineNumber) };
  const state = field(claim, 'PRVDR_STATE_CD');
  if (state !== undefined) item.locationAddress = { state };
  items.push(item);
  return item;
}

/** The NDC quantity qualifiers (REV_CNTR_NDC_QTY_QLFR_CD) BFD names when it writes them as UCUM codings. */
const UNIT_DISPLAYS: Readonly<Record<string, string>> = {
  F2: 'International Unit',
  GR: 'Gram',
  ML: 'Milliliter',
  ME: 'Milligram',
  UN: 'Unit',
};

/**
 * The revenue-center elements every institutional line has (BFD mapEobCommonItemRevenue): REV_CNTR as the
 * item's revenue; the rate, the total charge and the non-covered charge as adjudications (submitted,
 * submitted, noncovered); the NDC quantity qualifier as a UCUM modifier (its code kept as CCW writes it); the
 * NDC quantity as the item's quantity; a non-zero REV_CNTR_UNIT_CNT as an extension.
 * `nonCoveredNullable`: the line's non-covered charge is nullable (hospice) rather than defaulting to 0.
 */
export function addItemRevenueCenter(
  item: Json,
  line: RifRow,
  options: { nonCoveredNullable?: boolean } = {},
): void {
  item.revenue = { coding: [variableCoding('rev_cntr', field(line, 'REV_CNTR') ?? '')] };

  addAdjudication(
    item,
    adjudicationAmount('rev_cntr_rate_amt', 'submitted', requiredAmount(line, 'REV_CNTR_RATE_AMT')),
  );
  addAdjudication(
    item,
    adjudicationAmount('rev_cntr_tot_chrg_amt', 'submitted', requiredAmount(line, 'REV_CNTR_TOT_CHRG_AMT')),
  );
  const nonCovered =
    options.nonCoveredNullable === true
      ? optionalAmount(line, 'REV_CNTR_NCVRD_CHRG_AMT')
      : requiredAmount(line, 'REV_CNTR_NCVRD_CHRG_AMT');
  addAdjudication(item, adjudicationAmount('rev_cntr_ncvrd_chrg_amt', 'noncovered', nonCovered));

  const qualifier = field(line, 'REV_CNTR_NDC_QTY_QLFR_CD');
  if (qualifier !== undefined) {
    const unit: Json = { system: SYSTEMS.ucum, code: qualifier };
    const display = UNIT_DISPLAYS[qualifier];
    if (display !== undefined) unit.display = display;
    arrayOf(item, 'modifier').push({ coding: [unit] });
  }

  const quantity = optionalAmount(line, 'REV_CNTR_NDC_QTY');
  if (quantity !== undefined) item.quantity = { value: quantity };

  const units = requiredAmount(line, 'REV_CNTR_UNIT_CNT');
  if (units !== 0)
    addExtension(item, { url: variableUrl('rev_cntr_unit_cnt'), valueQuantity: { value: units } });
  orderKeys(item, ITEM_ORDER);
}

/**
 * The line's revenue-center deductible/coinsurance code (REV_CNTR_DDCTBL_COINSRNC_CD) added to the item's
 * revenue concept twice, as BFD addItemRevenue does: the code in the NUBC revenue-code system, then the CCW
 * variable's own coding. Every institutional type but outpatient. Nothing for an absent code.
 */
export function addItemDeductibleCoinsurance(item: Json, line: RifRow): void {
  const code = field(line, 'REV_CNTR_DDCTBL_COINSRNC_CD');
  if (code === undefined) return;
  const revenue = (item.revenue ??= {}) as Json;
  arrayOf(revenue, 'coding').push(
    { system: SYSTEMS.nubcRevenue, code },
    variableCoding('rev_cntr_ddctbl_coinsrnc_cd', code),
  );
  orderKeys(item, ITEM_ORDER);
}

/**
 * The line's rendering physician as the `performing` care-team member linked from the item (every
 * institutional type): RNDRNG_PHYSN_UPIN, then RNDRNG_PHYSN_NPI qualified by its NPPES primary taxonomy.
 * (BFD's HHA transform names CARIN's professional `performing` role instead of the institutional one; the two
 * are the same coding, so one function serves all five types.)
 */
export function addRenderingPhysician(eob: Json, item: Json, line: RifRow, lookups: ClaimLookups): void {
  addCareTeamMember(eob, item, 'upin', 'performing', field(line, 'RNDRNG_PHYSN_UPIN'), lookups);
  addCareTeamMember(eob, item, 'npi', 'performing', field(line, 'RNDRNG_PHYSN_NPI'), lookups, {
    taxonomy: true,
  });
}

/**
 * The revenue-center date and payment outpatient, HHA and hospice lines share (BFD
 * mapEobCommonItemRevenueOutHHAHospice): REV_CNTR_DT as servicedDate, REV_CNTR_PMT_AMT_AMT as a submitted
 * adjudication.
 */
export function addItemRevenueDateAndPayment(item: Json, line: RifRow): void {
  const date = optionalDate(line, 'REV_CNTR_DT');
  if (date !== undefined) item.servicedDate = date;
  addAdjudication(
    item,
    adjudicationAmount('rev_cntr_pmt_amt_amt', 'submitted', requiredAmount(line, 'REV_CNTR_PMT_AMT_AMT')),
  );
  orderKeys(item, ITEM_ORDER);
}

/**
 * Required line amounts (0 when empty) as adjudications, each named by its column's CCW variable and filed
 * under its CARIN category, in the order given.
 */
export function addItemAmounts(
  item: Json,
  line: RifRow,
  amounts: readonly (readonly [column: string, slice: AdjudicationSlice])[],
): void {
  for (const [column, slice] of amounts)
    addAdjudication(item, adjudicationAmount(column.toLowerCase(), slice, requiredAmount(line, column)));
}

/**
 * The revenue-center status indicator (REV_CNTR_STUS_IND_CD) as an extension of the item's revenue concept
 * (BFD mapEobCommonItemRevenueStatusCode; outpatient and HHA). Nothing when absent.
 */
export function addItemRevenueStatus(item: Json, line: RifRow): void {
  const status = field(line, 'REV_CNTR_STUS_IND_CD');
  if (status === undefined) return;
  const revenue = (item.revenue ??= {}) as Json;
  addExtension(revenue, codingExtension('rev_cntr_stus_ind_cd', status));
  orderKeys(revenue, ['extension', 'coding', 'text']);
  orderKeys(item, ITEM_ORDER);
}
