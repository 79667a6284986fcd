/**
 * What every synthetic RIF claim shares: who it is for, its ids and dates, the claim-level columns each CCW
 * claim file opens with, and its diagnoses (the enrollee's chronic conditions, as the NDJSON generator picks
 * them). Pure.
 */
import type { Amounts } from '../../../fhir/eob-amounts.js';
import type { MedicarePart } from '../../../fhir/eob.js';
import { DIAGNOSES } from '../../../fhir/sample-codes.js';
import type { RifClaimType } from '../../../fhir/bfd/rif-record.js';
import type { Random } from '../../../shared/random.js';
import type { EnrolleeFacts } from './beneficiary.js';
import { CLAIM_RECORD_CODES } from './codes.js';
import { icdCode, rifDay, type RifValues } from './format.js';

export interface Diagnosis {
  readonly code: string;
  readonly display: string;
}

/** One claim to write: its kind, number, service days and the stream its details are drawn from. */
export interface ClaimDraft {
  readonly type: RifClaimType;
  /** The synthetic claim number (positive); `CLM_ID` / `PDE_ID` is its negative. */
  readonly number: number;
  readonly startDay: number;
  readonly endDay: number;
  /** The Medicare part that pays it (as the NDJSON generator's claim kinds say). */
  readonly part: MedicarePart;
  readonly enrollee: EnrolleeFacts;
  readonly conditions: readonly Diagnosis[];
  readonly rng: Random;
}

/** One amount (cents) summed over the claim's lines. */
export const lineTotal = (lines: readonly { readonly amounts: Amounts }[], key: keyof Amounts): number =>
  lines.reduce((total, line) => total + line.amounts[key], 0);

/** `CLM_ID` / `PDE_ID`: negative, as Blue Button's synthetic claims are. */
export const claimId = (draft: ClaimDraft): string => String(-draft.number);

/**
 * The columns every claim of a CCW claim file starts with: beneficiary and claim ids (the claim group is the
 * claim's own id), final action, record and claim type codes, service dates and the NCH weekly processing
 * date, `processedDay`.
 */
export function claimHeader(draft: ClaimDraft, processedDay: number): RifValues {
  const codes = CLAIM_RECORD_CODES[draft.type as Exclude<RifClaimType, 'pde'>];
  return {
    BENE_ID: draft.enrollee.beneId,
    CLM_ID: claimId(draft),
    CLM_GRP_ID: claimId(draft),
    FINAL_ACTION: 'F',
    NCH_NEAR_LINE_REC_IDENT_CD: codes.ric,
    NCH_CLM_TYPE_CD: codes.claimType,
    CLM_FROM_DT: rifDay(draft.startDay),
    CLM_THRU_DT: rifDay(draft.endDay),
    NCH_WKLY_PROC_DT: rifDay(processedDay),
  };
}

/**
 * One or two diagnoses: a chronic condition of the enrollee first, and in six claims of ten a second
 * diagnosis from the sample list (the NDJSON generator's draw). `principal` puts a given diagnosis first.
 */
export function pickDiagnoses(draft: ClaimDraft, principal?: Diagnosis): Diagnosis[] {
  const { rng } = draft;
  const first = principal ?? rng.pick(draft.conditions);
  const second = principal ? rng.pick(draft.conditions) : rng.pick(DIAGNOSES);
  return second.code === first.code || rng.next() < 0.4 ? [first] : [first, second];
}

/**
 * The diagnosis columns: the principal diagnosis and the numbered ones (the principal again first, as CCW
 * writes them), all ICD-10 (version code 0); with `presentOnAdmission`, each numbered one marked present on
 * admission (`CLM_POA_IND_SWn` Y).
 */
export function diagnosisColumns(diagnoses: readonly Diagnosis[], presentOnAdmission = false): RifValues {
  const out: RifValues = {
    PRNCPAL_DGNS_CD: icdCode(diagnoses[0]!.code),
    PRNCPAL_DGNS_VRSN_CD: '0',
  };
  diagnoses.forEach((d, i) => {
    out[`ICD_DGNS_CD${i + 1}`] = icdCode(d.code);
    out[`ICD_DGNS_VRSN_CD${i + 1}`] = '0';
    if (presentOnAdmission) out[`CLM_POA_IND_SW${i + 1}`] = 'Y';
  });
  return out;
}

/** A control number of `length` digits, from the claim's stream. */
export function controlNumber(rng: Random, length: number): string {
  let out = String(rng.int(1, 9));
  while (out.length < length) out += String(rng.int(0, 9));
  return out;
}
