/**
 * Synthetic institutional claims as CCW writes them: inpatient stays (a DRG, room and ancillary revenue
 * lines, a knee replacement's procedure), outpatient visits (revenue lines with the HCPCS code billed and
 * what Medicare paid on each), SNF stays after a hospital stay, home health episodes and hospice periods. The
 * revenue lines, the type of bill, discharge status, admission type and point of origin are the NDJSON
 * generator's (eob-lines.ts revenueLines, claim-codes.ts); the facility and attending physician come from
 * the sample directory. Pure.
 */
import { adjudicate, type Amounts } from '../../../fhir/eob-amounts.js';
import { revenueLines } from '../../../fhir/eob-lines.js';
import {
  ADMISSION_TYPE,
  DISCHARGE_STATUS,
  POINT_OF_ORIGIN,
  TYPE_OF_BILL,
  type Code,
} from '../../../fhir/claim-codes.js';
import type { ProviderKind } from '../../../fhir/directory.js';
import { DIAGNOSES, type ServiceCode } from '../../../fhir/sample-codes.js';
import {
  claimHeader,
  controlNumber,
  diagnosisColumns,
  lineTotal,
  pickDiagnoses,
  type ClaimDraft,
  type Diagnosis,
} from './claim.js';
import { INPATIENT_STAYS, MAC_NUMBER, REVENUE_HCPCS } from './codes.js';
import { icdCode, money, rifDay, type RifValues } from './format.js';
import { RIF_CLINICIANS, RIF_PROVIDERS } from './providers.js';

type InstitutionalType = keyof typeof TYPE_OF_BILL;

const FACILITY: Record<InstitutionalType, ProviderKind> = {
  inpatient: 'institutional',
  outpatient: 'institutional',
  snf: 'snf',
  hha: 'hha',
  hospice: 'hospice',
};

interface RevenueLine {
  readonly service: ServiceCode;
  readonly quantity: number;
  readonly unitCents: number;
  readonly amounts: Amounts;
}

/** A share of an amount, in whole cents. */
const share = (cents: number, fraction: number) => Math.round(cents * fraction);

/** An institutional claim of any of the five kinds: its rows, one per revenue line. */
export function institutionalRows(draft: ClaimDraft): RifValues[] {
  const type = draft.type as InstitutionalType;
  const { rng } = draft;
  const days = draft.endDay - draft.startDay;
  const facility = rng.pick(RIF_PROVIDERS[FACILITY[type]]);
  const attending = rng.pick(RIF_CLINICIANS);
  const stay = type === 'inpatient' ? rng.pick(INPATIENT_STAYS) : undefined;
  const principal = stay && DIAGNOSES.find((d) => d.code === stay.diagnosis);
  const diagnoses = pickDiagnoses(draft, principal);
  const lines: RevenueLine[] = revenueLines(type, rng, days).map(({ service, quantity }) => {
    const unitCents = rng.int(service.minCents, service.maxCents);
    return { service, quantity, unitCents, amounts: adjudicate(unitCents * quantity, draft.part, rng) };
  });
  const discharge = rng.choice(DISCHARGE_STATUS[type]);
  const fiProcessed = draft.endDay + rng.int(2, 30);
  const bill = TYPE_OF_BILL[type].code;
  const paid = lineTotal(lines, 'benefit');
  const claim: RifValues = {
    ...claimHeader(draft, fiProcessed + rng.int(1, 7)),
    FI_CLM_PROC_DT: rifDay(fiProcessed),
    CLAIM_QUERY_CODE: '3',
    PRVDR_NUM: facility.providerNumber,
    CLM_FAC_TYPE_CD: bill.charAt(1),
    CLM_SRVC_CLSFCTN_TYPE_CD: bill.charAt(2),
    CLM_FREQ_CD: bill.charAt(3),
    FI_NUM: (MAC_NUMBER[facility.state] ?? '00002').replace(/2$/, '1'),
    CLM_PMT_AMT: money(paid),
    NCH_PRMRY_PYR_CLM_PD_AMT: '0.00',
    PRVDR_STATE_CD: facility.state,
    ORG_NPI_NUM: facility.npi,
    AT_PHYSN_NPI: attending.npi,
    PTNT_DSCHRG_STUS_CD: discharge.code,
    CLM_TOT_CHRG_AMT: money(lineTotal(lines, 'submitted')),
    ...diagnosisColumns(diagnoses, type === 'inpatient'),
    FI_DOC_CLM_CNTL_NUM: controlNumber(rng, 14),
    ...KIND_COLUMNS[type](draft, { lines, discharge, diagnoses, stay, days }),
  };
  const serviceDay = rifDay(draft.startDay);
  return lines.map((line, i) => ({
    ...claim,
    CLM_LINE_NUM: String(i + 1),
    REV_CNTR: line.service.code,
    ...(type === 'inpatient' || type === 'snf' ? {} : { REV_CNTR_DT: serviceDay }),
    ...(REVENUE_HCPCS[line.service.code] && type !== 'inpatient' && type !== 'snf'
      ? { HCPCS_CD: REVENUE_HCPCS[line.service.code]! }
      : {}),
    REV_CNTR_UNIT_CNT: String(line.quantity),
    REV_CNTR_RATE_AMT: money(line.unitCents),
    REV_CNTR_TOT_CHRG_AMT: money(line.amounts.submitted),
    REV_CNTR_NCVRD_CHRG_AMT: '0.00',
    ...LINE_COLUMNS[type](line),
    RNDRNG_PHYSN_NPI: attending.npi,
  }));
}

interface KindInput {
  readonly lines: readonly RevenueLine[];
  readonly discharge: Code;
  readonly diagnoses: readonly Diagnosis[];
  readonly stay: (typeof INPATIENT_STAYS)[number] | undefined;
  readonly days: number;
}

/** The claim-level columns only some kinds of institutional claim have. */
const KIND_COLUMNS: Record<InstitutionalType, (draft: ClaimDraft, input: KindInput) => RifValues> = {
  inpatient(draft, { lines, discharge, diagnoses, stay, days }) {
    const { rng } = draft;
    const paid = lineTotal(lines, 'benefit');
    const owed = lineTotal(lines, 'eligible') - paid;
    const capital = share(paid, 0.06);
    const federal = share(capital, 0.9);
    const surgeon = RIF_CLINICIANS.find((c) => c.taxonomy.code === '207X00000X') ?? RIF_CLINICIANS[0]!;
    const admission =
      stay?.procedure || rng.next() >= 0.6 ? ADMISSION_TYPE.elective : ADMISSION_TYPE.emergency;
    return {
      FI_CLM_ACTN_CD: '1',
      ...(stay?.procedure ? { OP_PHYSN_NPI: surgeon.npi } : {}),
      CLM_MCO_PD_SW: '0',
      CLM_PPS_IND_CD: '2',
      CLM_ADMSN_DT: rifDay(draft.startDay),
      CLM_IP_ADMSN_TYPE_CD: admission.code,
      CLM_SRC_IP_ADMSN_CD: POINT_OF_ORIGIN.nonHealthFacility.code,
      NCH_PTNT_STATUS_IND_CD: discharge.code === '30' ? 'C' : 'A',
      CLM_PASS_THRU_PER_DIEM_AMT: '0.00',
      NCH_BENE_IP_DDCTBL_AMT: money(owed),
      NCH_BENE_PTA_COINSRNC_LBLTY_AM: '0.00',
      NCH_BENE_BLOOD_DDCTBL_LBLTY_AM: '0.00',
      NCH_PROFNL_CMPNT_CHRG_AMT: '0.00',
      NCH_IP_NCVRD_CHRG_AMT: '0.00',
      NCH_IP_TOT_DDCTN_AMT: money(owed),
      CLM_TOT_PPS_CPTL_AMT: money(capital),
      CLM_PPS_CPTL_FSP_AMT: money(federal),
      CLM_PPS_CPTL_OUTLIER_AMT: '0.00',
      CLM_PPS_CPTL_DSPRPRTNT_SHR_AMT: '0.00',
      CLM_PPS_CPTL_IME_AMT: money(capital - federal),
      CLM_PPS_CPTL_EXCPTN_AMT: '0.00',
      CLM_PPS_OLD_CPTL_HLD_HRMLS_AMT: '0.00',
      CLM_PPS_CPTL_DRG_WT_NUM: stay?.weight ?? '1.0',
      CLM_UTLZTN_DAY_CNT: String(Math.max(1, days)),
      BENE_TOT_COINSRNC_DAYS_CNT: '0',
      BENE_LRD_USED_CNT: '0',
      CLM_NON_UTLZTN_DAYS_CNT: '0',
      NCH_BLOOD_PNTS_FRNSHD_QTY: '0',
      ...(discharge.code === '30' ? {} : { NCH_BENE_DSCHRG_DT: rifDay(draft.endDay) }),
      ...(stay ? { CLM_DRG_CD: stay.drg } : {}),
      CLM_DRG_OUTLIER_STAY_CD: '0',
      NCH_DRG_OUTLIER_APRVD_PMT_AMT: '0.00',
      ADMTG_DGNS_CD: icdCode(diagnoses[0]!.code),
      ADMTG_DGNS_VRSN_CD: '0',
      ...(stay?.procedure
        ? {
            ICD_PRCDR_CD1: stay.procedure,
            ICD_PRCDR_VRSN_CD1: '0',
            PRCDR_DT1: rifDay(Math.min(draft.startDay + 1, draft.endDay)),
          }
        : {}),
      IME_OP_CLM_VAL_AMT: money(share(paid, 0.04)),
      DSH_OP_CLM_VAL_AMT: money(share(paid, 0.03)),
      CLM_UNCOMPD_CARE_PMT_AMT: money(share(paid, 0.01)),
    };
  },
  snf(draft, { lines, discharge, diagnoses, days }) {
    const owed = lineTotal(lines, 'eligible') - lineTotal(lines, 'benefit');
    return {
      FI_CLM_ACTN_CD: '1',
      CLM_MCO_PD_SW: '0',
      CLM_PPS_IND_CD: '2',
      CLM_ADMSN_DT: rifDay(draft.startDay),
      CLM_IP_ADMSN_TYPE_CD: ADMISSION_TYPE.elective.code,
      CLM_SRC_IP_ADMSN_CD: POINT_OF_ORIGIN.hospitalTransfer.code,
      NCH_PTNT_STATUS_IND_CD: discharge.code === '30' ? 'C' : 'A',
      NCH_BENE_IP_DDCTBL_AMT: '0.00',
      NCH_BENE_PTA_COINSRNC_LBLTY_AM: money(owed),
      NCH_BENE_BLOOD_DDCTBL_LBLTY_AM: '0.00',
      NCH_IP_NCVRD_CHRG_AMT: '0.00',
      NCH_IP_TOT_DDCTN_AMT: money(owed),
      CLM_UTLZTN_DAY_CNT: String(Math.max(1, days)),
      // Days 21 to 100 of a SNF stay carry the daily coinsurance.
      BENE_TOT_COINSRNC_DAYS_CNT: String(Math.max(0, days - 20)),
      CLM_NON_UTLZTN_DAYS_CNT: '0',
      NCH_BLOOD_PNTS_FRNSHD_QTY: '0',
      // The qualifying hospital stay: three days up to the day before admission.
      NCH_QLFYD_STAY_FROM_DT: rifDay(draft.startDay - 4),
      NCH_QLFYD_STAY_THRU_DT: rifDay(draft.startDay - 1),
      ...(discharge.code === '30' ? {} : { NCH_BENE_DSCHRG_DT: rifDay(draft.endDay) }),
      ADMTG_DGNS_CD: icdCode(diagnoses[0]!.code),
      ADMTG_DGNS_VRSN_CD: '0',
    };
  },
  outpatient(_draft, { lines, diagnoses }) {
    const paid = lineTotal(lines, 'benefit');
    return {
      CLM_MCO_PD_SW: '0',
      NCH_BENE_BLOOD_DDCTBL_LBLTY_AM: '0.00',
      NCH_PROFNL_CMPNT_CHRG_AMT: '0.00',
      RSN_VISIT_CD1: icdCode(diagnoses[0]!.code),
      RSN_VISIT_VRSN_CD1: '0',
      NCH_BENE_PTB_DDCTBL_AMT: '0.00',
      NCH_BENE_PTB_COINSRNC_AMT: money(lineTotal(lines, 'eligible') - paid),
      CLM_OP_PRVDR_PMT_AMT: money(paid),
      CLM_OP_BENE_PMT_AMT: '0.00',
    };
  },
  hha(draft, { lines }) {
    return {
      CLM_PPS_IND_CD: '2',
      CLM_HHA_RFRL_CD: '1',
      CLM_HHA_TOT_VISIT_CNT: String(lines.reduce((n, line) => n + line.quantity, 0)),
      CLM_ADMSN_DT: rifDay(draft.startDay),
    };
  },
  hospice(draft, { discharge, days }) {
    return {
      NCH_PTNT_STATUS_IND_CD: discharge.code === '30' ? 'C' : 'A',
      CLM_UTLZTN_DAY_CNT: String(days + 1),
      ...(discharge.code === '30' ? {} : { NCH_BENE_DSCHRG_DT: rifDay(draft.endDay) }),
      CLM_HOSPC_START_DT_ID: rifDay(draft.startDay),
      BENE_HOSPC_PRD_CNT: '1',
    };
  },
};

/** The line-level payment columns of each kind (inpatient and SNF lines carry charges only). */
const LINE_COLUMNS: Record<InstitutionalType, (line: RevenueLine) => RifValues> = {
  inpatient: () => ({}),
  snf: () => ({}),
  outpatient: ({ amounts: a }) => ({
    REV_CNTR_BLOOD_DDCTBL_AMT: '0.00',
    REV_CNTR_CASH_DDCTBL_AMT: '0.00',
    REV_CNTR_COINSRNC_WGE_ADJSTD_C: money(a.eligible - a.benefit),
    REV_CNTR_RDCD_COINSRNC_AMT: '0.00',
    REV_CNTR_1ST_MSP_PD_AMT: '0.00',
    REV_CNTR_2ND_MSP_PD_AMT: '0.00',
    REV_CNTR_PRVDR_PMT_AMT: money(a.benefit),
    REV_CNTR_BENE_PMT_AMT: '0.00',
    REV_CNTR_PTNT_RSPNSBLTY_PMT: money(a.eligible - a.benefit),
    REV_CNTR_PMT_AMT_AMT: money(a.benefit),
  }),
  hha: ({ amounts: a }) => ({ REV_CNTR_PMT_AMT_AMT: money(a.benefit) }),
  hospice: ({ amounts: a }) => ({
    REV_CNTR_PRVDR_PMT_AMT: money(a.benefit),
    REV_CNTR_BENE_PMT_AMT: '0.00',
    REV_CNTR_PMT_AMT_AMT: money(a.benefit),
  }),
};
