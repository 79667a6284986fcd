/**
 * A synthetic sandbox enrollee as CCW beneficiary records: the beneficiary row (who they are, where they live,
 * their Medicare entitlement and the reference year's monthly enrollment) and the beneficiary-history rows of
 * earlier MBIs. The beneficiary id is the negative patient id of `sandboxIdentity(n)`, so the sandbox login
 * `BBUser0000n` lands on the Patient BFD's rules make of it (docs/decisions.md#sandbox-enrollees). Pure: every
 * draw comes from the enrollee's stream.
 */
import { RIF_MONTHS } from '../../../fhir/bfd/rif-record.js';
import { FEMALE_GIVEN_NAMES, PLACES } from '../../../fhir/sample-codes.js';
import { sandboxIdentity } from '../../../fhir/sandbox-identity.js';
import type { Random } from '../../../shared/random.js';
import { rifDay, toDay, type RifValues } from './format.js';

/** What the claims of an enrollee need to know of them. */
export interface EnrolleeFacts {
  readonly n: number;
  /** `BENE_ID`: the negative patient id. */
  readonly beneId: string;
  readonly state: string;
  /** The Medicare Advantage contract (H…) of an enrollee in Part C. */
  readonly partCContract?: string;
  /** The Part D contract: the MA-PD contract in Part C, else a stand-alone drug plan's (S…). */
  readonly partDContract: string;
}

export interface SyntheticBeneficiary {
  readonly facts: EnrolleeFacts;
  readonly row: RifValues;
  readonly history: RifValues[];
}

/** An MBI-shaped value; the 'S' in position 2 is a letter real MBIs never use, marking it synthetic. */
export function syntheticMbi(rng: Random): string {
  const letters = 'ACDEFGHJKMNPQRTUVWXY';
  const digit = () => String(rng.int(0, 9));
  const letter = () => rng.pick([...letters]);
  return `${rng.int(1, 9)}S${letter()}${digit()}${letter()}${letter()}${digit()}${letter()}${letter()}${digit()}${digit()}`;
}

/**
 * A HICN-shaped claim account number: nine digits and the beneficiary identification code `A`. The digits
 * start `000`, which no Social Security number has, and are unique per enrollee.
 */
export function syntheticHicn(n: number): string {
  return `${String(1 + n).padStart(9, '0')}A`;
}

/** CCW race codes (`BENE_RACE_CD`) with sample weights. */
const RACES: readonly [string, number][] = [
  ['1', 75],
  ['2', 10],
  ['5', 8],
  ['4', 4],
  ['3', 2],
  ['6', 1],
];

/** MBIs were first issued in April 2018: no MBI is effective before. */
const FIRST_MBI_DAY = toDay('2018-04-01');
/** The latest day a reissued MBI takes effect. */
const LAST_REISSUE_DAY = toDay('2025-12-31');

/** Twelve monthly columns (`PREFIX_JAN_SUFFIX`…) all set to `value`. */
function monthly(prefix: string, suffix: string, value: string): RifValues {
  return Object.fromEntries(RIF_MONTHS.map((m) => [`${prefix}_${m}_${suffix}`, value]));
}

/** Twelve numbered monthly columns (`PREFIX_1_SUFFIX`…) all set to `value`. */
function numbered(prefix: string, suffix: string, value: string): RifValues {
  return Object.fromEntries(RIF_MONTHS.map((_, i) => [`${prefix}_${i + 1}_${suffix}`, value]));
}

/**
 * Enrollee `n`: aged 69–90 in the reference year (so entitled to Medicare, at 65, before the first claim
 * date), a home in one of the sample places, Parts A, B and D, and Part C for about three in ten; enrollee 0
 * and about a third of the others had earlier MBIs.
 */
export function syntheticBeneficiary(n: number, rng: Random, referenceYear: number): SyntheticBeneficiary {
  const identity = sandboxIdentity(n);
  const beneId = identity.patientId;
  const female = FEMALE_GIVEN_NAMES.has(identity.givenName);
  const age = rng.int(69, 90);
  const birthYear = referenceYear - age;
  const birthMonth = rng.int(1, 12);
  const birthDay = toDay(
    `${birthYear}-${String(birthMonth).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`,
  );
  const entitled = toDay(`${birthYear + 65}-${String(birthMonth).padStart(2, '0')}-01`);
  const partDStart = Math.max(entitled, toDay('2006-01-01'));
  const place = rng.pick(PLACES);
  const race = rng.choice(RACES);
  const partC = rng.next() < 0.3 ? `H9${String(rng.int(0, 999)).padStart(3, '0')}` : undefined;
  const partD = partC ?? `S9${String(rng.int(0, 999)).padStart(3, '0')}`;
  const street = `${rng.int(100, 9999)} SAMPLE ST`;

  // Earlier MBIs, each effective until the day before the next one; the current one from then on.
  const earlier = n === 0 ? 2 : rng.next() < 0.33 ? rng.int(1, 2) : 0;
  const mbis = Array.from({ length: earlier + 1 }, () => syntheticMbi(rng));
  const firstMbiDay = Math.max(entitled, FIRST_MBI_DAY);
  const changes = Array.from({ length: earlier }, () => rng.int(firstMbiDay + 30, LAST_REISSUE_DAY)).sort(
    (a, b) => a - b,
  );
  for (let i = 1; i < changes.length; i++) changes[i] = Math.max(changes[i]!, changes[i - 1]! + 30);
  const starts = [firstMbiDay, ...changes];
  const mbi = mbis[earlier]!;
  const sex = female ? '2' : '1';
  const hicn = syntheticHicn(n);

  const row: RifValues = {
    BENE_ID: beneId,
    STATE_CODE: place.state,
    BENE_ZIP_CD: place.postalCode,
    BENE_BIRTH_DT: rifDay(birthDay),
    BENE_SEX_IDENT_CD: sex,
    BENE_RACE_CD: race,
    BENE_ENTLMT_RSN_ORIG: '0',
    BENE_ENTLMT_RSN_CURR: '0',
    BENE_ESRD_IND: '0',
    BENE_MDCR_STATUS_CD: '10',
    BENE_PTA_TRMNTN_CD: '0',
    BENE_PTB_TRMNTN_CD: '0',
    BENE_CRNT_HIC_NUM: hicn,
    BENE_SRNM_NAME: identity.familyName,
    BENE_GVN_NAME: identity.givenName,
    MBI_NUM: mbi,
    RFRNC_YR: String(referenceYear),
    A_MO_CNT: '12',
    B_MO_CNT: '12',
    BUYIN_MO_CNT: '0',
    HMO_MO_CNT: partC ? '12' : '0',
    RDS_MO_CNT: '0',
    AGE: String(age),
    COVSTART: rifDay(entitled),
    DUAL_MO_CNT: '0',
    RTI_RACE_CD: race,
    ...monthly('MDCR_STUS', 'CD', '10'),
    PLAN_CVRG_MO_CNT: '12',
    ...numbered('MDCR_ENTLMT_BUYIN', 'IND', '3'),
    ...numbered('HMO', 'IND', partC ? 'C' : '0'),
    ...(partC
      ? {
          ...monthly('PTC_CNTRCT', 'ID', partC),
          ...monthly('PTC_PBP', 'ID', '001'),
          ...monthly('PTC_PLAN_TYPE', 'CD', '001'),
        }
      : {}),
    ...monthly('PTD_CNTRCT', 'ID', partD),
    ...monthly('PTD_PBP', 'ID', '001'),
    ...monthly('PTD_SGMT', 'ID', '000'),
    ...monthly('RDS', 'IND', 'N'),
    ...monthly('META_DUAL_ELGBL_STUS', 'CD', 'NA'),
    ...monthly('CST_SHR_GRP', 'CD', '09'),
    DRVD_LINE_1_ADR: street,
    CITY_NAME: place.city.toUpperCase(),
    STATE_CD: place.state,
    STATE_CNTY_ZIP_CD: `${place.postalCode}${String(rng.int(1, 9999)).padStart(4, '0')}`,
    EFCTV_BGN_DT: rifDay(starts[earlier]!),
    PTA_CVRG_STRT_DT: rifDay(entitled),
    PTB_CVRG_STRT_DT: rifDay(entitled),
    PTD_CVRG_STRT_DT: rifDay(partDStart),
  };
  const history = mbis.slice(0, earlier).map((earlierMbi, i) => ({
    BENE_ID: beneId,
    BENE_BIRTH_DT: rifDay(birthDay),
    BENE_SEX_IDENT_CD: sex,
    BENE_CRNT_HIC_NUM: hicn,
    MBI_NUM: earlierMbi,
    EFCTV_BGN_DT: rifDay(starts[i]!),
    EFCTV_END_DT: rifDay(starts[i + 1]! - 1),
  }));
  const facts: EnrolleeFacts = {
    n,
    beneId,
    state: place.state,
    partDContract: partD,
    ...(partC ? { partCContract: partC } : {}),
  };
  return { facts, row, history };
}
