/**
 * A synthetic Part D event as CCW writes it: one fill of a sample drug (sample-codes.ts DRUGS) at a sample
 * pharmacy, prescribed by a sample clinician, under the enrollee's Part D contract; the plan pays a share of the
 * drug's cost (the NDJSON generator's amounts) and the enrollee the rest. Pure.
 */
import { DAW } from '../../../fhir/claim-codes.js';
import { adjudicate } from '../../../fhir/eob-amounts.js';
import { DRUGS } from '../../../fhir/sample-codes.js';
import { claimId, controlNumber, type ClaimDraft } from './claim.js';
import { BRAND_DRUGS } from './codes.js';
import { money, ndc11, rifDay, type RifValues } from './format.js';
import { RIF_CLINICIANS, RIF_PROVIDERS } from './providers.js';

/** A Part D event: one row. */
export function pdeRows(draft: ClaimDraft): RifValues[] {
  const { rng } = draft;
  const drug = rng.pick(DRUGS);
  const cost = adjudicate(rng.int(drug.minCents, drug.maxCents), draft.part, rng);
  const authorized = rng.pick([0, 2, 3, 5, 11]);
  const refill = rng.int(0, authorized);
  const daw = rng.next() < 0.9 ? DAW.none : DAW.prescriber;
  const pharmacy = rng.pick(RIF_PROVIDERS.pharmacy);
  const prescriber = rng.pick(RIF_CLINICIANS);
  const mailOrder = pharmacy.name.includes('Mail Order');
  return [
    {
      PDE_ID: claimId(draft),
      CLM_GRP_ID: claimId(draft),
      FINAL_ACTION: 'F',
      BENE_ID: draft.enrollee.beneId,
      SRVC_DT: rifDay(draft.startDay),
      PD_DT: rifDay(draft.startDay + rng.int(1, 14)),
      SRVC_PRVDR_ID_QLFYR_CD: '01',
      SRVC_PRVDR_ID: pharmacy.npi,
      PRSCRBR_ID_QLFYR_CD: '01',
      PRSCRBR_ID: prescriber.npi,
      RX_SRVC_RFRNC_NUM: controlNumber(rng, 9),
      PROD_SRVC_ID: ndc11(drug.ndc),
      PLAN_CNTRCT_REC_ID: draft.enrollee.partDContract,
      PLAN_PBP_REC_NUM: '001',
      CMPND_CD: '1',
      DAW_PROD_SLCTN_CD: daw.code,
      QTY_DSPNSD_NUM: String(drug.quantity),
      DAYS_SUPLY_NUM: String(drug.daysSupply),
      FILL_NUM: String(refill),
      DRUG_CVRG_STUS_CD: 'C',
      GDC_BLW_OOPT_AMT: money(cost.submitted),
      GDC_ABV_OOPT_AMT: '0.00',
      PTNT_PAY_AMT: money(cost.submitted - cost.benefit),
      OTHR_TROOP_AMT: '0.00',
      LICS_AMT: '0.00',
      PLRO_AMT: '0.00',
      CVRD_D_PLAN_PD_AMT: money(cost.benefit),
      NCVRD_PLAN_PD_AMT: '0.00',
      TOT_RX_CST_AMT: money(cost.submitted),
      RX_ORGN_CD: '3',
      RPTD_GAP_DSCNT_NUM: '0.00',
      BRND_GNRC_CD: BRAND_DRUGS.has(drug.ndc) ? 'B' : 'G',
      PHRMCY_SRVC_TYPE_CD: mailOrder ? '06' : '01',
      PTNT_RSDNC_CD: '01',
    },
  ];
}
