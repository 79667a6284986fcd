/**
 * Synthetic Part B professional claims as CCW writes them: carrier claims (one to three CPT/HCPCS lines from a
 * sample practice, rendered by a sample clinician) and DME claims (one item from a sample supplier, ordered
 * by a sample clinician). Medicare allows part of the charge and pays 80% of what it allows (the NDJSON
 * generator's amounts); the rest of the allowed amount is the beneficiary's coinsurance. Pure.
 */
import { adjudicate, type Amounts } from '../../../fhir/eob-amounts.js';
import { PLACE_OF_SERVICE } from '../../../fhir/claim-codes.js';
import { CARRIER_SERVICES, DME_ITEMS, type ServiceCode } from '../../../fhir/sample-codes.js';
import type { Random } from '../../../shared/random.js';
import {
  claimHeader,
  controlNumber,
  diagnosisColumns,
  lineTotal,
  pickDiagnoses,
  type ClaimDraft,
  type Diagnosis,
} from './claim.js';
import {
  CCN_STATE,
  DME_MAC_NUMBER,
  DME_SUPPLIER_SPECIALTY,
  MAC_NUMBER,
  SERVICE_TRAITS,
  SPECIALTY_BY_TAXONOMY,
} from './codes.js';
import { icdCode, money, rifDay, yearOf, type RifValues } from './format.js';
import { RIF_CLINICIANS, RIF_PROVIDERS, type RifProvider } from './providers.js';

interface Line {
  readonly service: ServiceCode;
  readonly amounts: Amounts;
}

/** The claim-level amounts and codes carrier and DME claims share. */
function paidClaim(draft: ClaimDraft, lines: readonly Line[], diagnoses: readonly Diagnosis[]): RifValues {
  const paid = money(lineTotal(lines, 'benefit'));
  return {
    CARR_CLM_ENTRY_CD: '1',
    CLM_DISP_CD: '01',
    CARR_CLM_PMT_DNL_CD: '1',
    CLM_PMT_AMT: paid,
    CARR_CLM_PRMRY_PYR_PD_AMT: '0.00',
    CARR_CLM_PRVDR_ASGNMT_IND_SW: 'A',
    NCH_CLM_PRVDR_PMT_AMT: paid,
    NCH_CLM_BENE_PMT_AMT: '0.00',
    NCH_CARR_CLM_SBMTD_CHRG_AMT: money(lineTotal(lines, 'submitted')),
    NCH_CARR_CLM_ALOWD_AMT: money(lineTotal(lines, 'eligible')),
    CARR_CLM_CASH_DDCTBL_APLD_AMT: '0.00',
    CARR_CLM_HCPCS_YR_CD: String(yearOf(draft.startDay) % 10),
    ...diagnosisColumns(diagnoses),
    CARR_CLM_CNTL_NUM: controlNumber(draft.rng, 14),
  };
}

/** The line amounts carrier and DME lines share: Medicare pays the provider; coinsurance is the rest. */
function lineAmounts({ amounts: a }: Line): RifValues {
  return {
    LINE_NCH_PMT_AMT: money(a.benefit),
    LINE_BENE_PMT_AMT: '0.00',
    LINE_PRVDR_PMT_AMT: money(a.benefit),
    LINE_BENE_PTB_DDCTBL_AMT: '0.00',
    LINE_BENE_PRMRY_PYR_PD_AMT: '0.00',
    LINE_COINSRNC_AMT: money(a.eligible - a.benefit),
  };
}

function drawLine(draft: ClaimDraft, table: readonly ServiceCode[]): Line {
  const service = draft.rng.pick(table);
  return {
    service,
    amounts: adjudicate(draft.rng.int(service.minCents, service.maxCents), draft.part, draft.rng),
  };
}

/** A CLIA laboratory number shape (state code, `D`, seven digits) for a practice's own lab. */
const cliaNumber = (practice: RifProvider) =>
  `${CCN_STATE[practice.state] ?? '99'}D${practice.npi.slice(3, 10)}`;

/** A hemoglobin result (g/dL) for a blood count line. */
const hemoglobin = (rng: Random) => (rng.int(110, 155) / 10).toFixed(1);

/** A carrier claim: its rows, one per line. */
export function carrierRows(draft: ClaimDraft): RifValues[] {
  const { rng } = draft;
  const processed = draft.endDay + rng.int(2, 30);
  const practice = rng.pick(RIF_PROVIDERS.professional);
  const clinician = rng.pick(RIF_CLINICIANS);
  const referring = rng.next() < 0.3 ? rng.pick(RIF_CLINICIANS) : undefined;
  const place = rng.next() < 0.8 ? PLACE_OF_SERVICE.office : PLACE_OF_SERVICE.outpatientHospital;
  const diagnoses = pickDiagnoses(draft);
  const lines = Array.from({ length: rng.int(1, 3) }, () => drawLine(draft, CARRIER_SERVICES));
  const claim: RifValues = {
    ...claimHeader(draft, processed),
    CARR_NUM: MAC_NUMBER[practice.state] ?? '',
    ...paidClaim(draft, lines, diagnoses),
    ...(referring
      ? { RFR_PHYSN_NPI: referring.npi, CARR_CLM_RFRNG_PIN_NUM: `P${referring.npi.slice(4)}` }
      : {}),
    CARR_CLM_BLG_NPI_NUM: practice.npi,
  };
  const serviceDay = rifDay(draft.startDay);
  return lines.map((line, i) => {
    const traits = SERVICE_TRAITS[line.service.code];
    return {
      ...claim,
      LINE_NUM: String(i + 1),
      CARR_PRFRNG_PIN_NUM: `P${clinician.npi.slice(4)}`,
      PRF_PHYSN_NPI: clinician.npi,
      ORG_NPI_NUM: practice.npi,
      CARR_LINE_PRVDR_TYPE_CD: '0',
      TAX_NUM: practice.taxNumber,
      PRVDR_STATE_CD: practice.state,
      PRVDR_ZIP: practice.zip9,
      PRVDR_SPCLTY: SPECIALTY_BY_TAXONOMY[clinician.taxonomy.code] ?? '',
      PRTCPTNG_IND_CD: '1',
      CARR_LINE_RDCD_PMT_PHYS_ASTN_C: '0',
      LINE_SRVC_CNT: '1',
      LINE_CMS_TYPE_SRVC_CD: traits?.typeOfService ?? '1',
      LINE_PLACE_OF_SRVC_CD: place.code,
      CARR_LINE_PRCNG_LCLTY_CD: '01',
      LINE_1ST_EXPNS_DT: serviceDay,
      LINE_LAST_EXPNS_DT: serviceDay,
      HCPCS_CD: line.service.code,
      ...(traits?.betos ? { BETOS_CD: traits.betos } : {}),
      ...lineAmounts(line),
      LINE_SBMTD_CHRG_AMT: money(line.amounts.submitted),
      LINE_ALOWD_CHRG_AMT: money(line.amounts.eligible),
      LINE_PRCSG_IND_CD: 'A',
      LINE_PMT_80_100_CD: '0',
      LINE_SERVICE_DEDUCTIBLE: '0',
      CARR_LINE_MTUS_CNT: '1',
      CARR_LINE_MTUS_CD: '3',
      LINE_ICD_DGNS_CD: icdCode(diagnoses[0]!.code),
      LINE_ICD_DGNS_VRSN_CD: '0',
      ...(line.service.code === '85025'
        ? { LINE_HCT_HGB_RSLT_NUM: hemoglobin(rng), LINE_HCT_HGB_TYPE_CD: 'R1' }
        : {}),
      ...(traits?.lab ? { CARR_LINE_CLIA_LAB_NUM: cliaNumber(practice) } : {}),
      CARR_LINE_ANSTHSA_UNIT_CNT: '0',
    };
  });
}

/** A DME claim: one item, rented (modifier RR) or bought new (NU), delivered to the enrollee's home. */
export function dmeRows(draft: ClaimDraft): RifValues[] {
  const { rng } = draft;
  const processed = draft.endDay + rng.int(2, 30);
  const supplier = rng.pick(RIF_PROVIDERS.dme);
  const ordering = rng.pick(RIF_CLINICIANS);
  const diagnoses = pickDiagnoses(draft);
  const line = drawLine(draft, DME_ITEMS);
  const traits = SERVICE_TRAITS[line.service.code];
  const serviceDay = rifDay(draft.startDay);
  return [
    {
      ...claimHeader(draft, processed),
      CARR_NUM: DME_MAC_NUMBER[draft.enrollee.state] ?? '',
      ...paidClaim(draft, [line], diagnoses),
      RFR_PHYSN_NPI: ordering.npi,
      LINE_NUM: '1',
      TAX_NUM: supplier.taxNumber,
      PRVDR_SPCLTY: DME_SUPPLIER_SPECIALTY,
      PRTCPTNG_IND_CD: '1',
      LINE_SRVC_CNT: '1',
      LINE_CMS_TYPE_SRVC_CD: traits?.typeOfService ?? 'P',
      LINE_PLACE_OF_SRVC_CD: PLACE_OF_SERVICE.home.code,
      LINE_1ST_EXPNS_DT: serviceDay,
      LINE_LAST_EXPNS_DT: serviceDay,
      HCPCS_CD: line.service.code,
      HCPCS_1ST_MDFR_CD: traits?.rental ? 'RR' : 'NU',
      ...(traits?.betos ? { BETOS_CD: traits.betos } : {}),
      ...lineAmounts(line),
      LINE_PRMRY_ALOWD_CHRG_AMT: '0.00',
      LINE_SBMTD_CHRG_AMT: money(line.amounts.submitted),
      LINE_ALOWD_CHRG_AMT: money(line.amounts.eligible),
      LINE_PRCSG_IND_CD: 'A',
      LINE_PMT_80_100_CD: '0',
      LINE_SERVICE_DEDUCTIBLE: '0',
      LINE_ICD_DGNS_CD: icdCode(diagnoses[0]!.code),
      LINE_ICD_DGNS_VRSN_CD: '0',
      LINE_DME_PRCHS_PRICE_AMT: money(line.amounts.eligible),
      PRVDR_NUM: supplier.providerNumber,
      PRVDR_NPI: supplier.npi,
      DMERC_LINE_PRCNG_STATE_CD: draft.enrollee.state,
      PRVDR_STATE_CD: supplier.state,
      DMERC_LINE_SUPPLR_TYPE_CD: '3',
      DMERC_LINE_SCRN_SVGS_AMT: '0.00',
      DMERC_LINE_MTUS_CNT: '1',
      DMERC_LINE_MTUS_CD: '3',
    },
  ];
}
