/**
 * Deterministic synthetic CCW RIF records for the sandbox enrollees: for enrollee `n`, the beneficiary record
 * and its history rows, then 20–60 claims over 2023-01-01..2026-10-31 — a carrier claim and a Part D event
 * always, the rest drawn with the NDJSON generator's weights (src/fhir/generate.ts), and for enrollee 0 one
 * claim of every kind, so the first sandbox login shows each. Ids are BFD's synthetic forms: negative
 * `BENE_ID` (= `sandboxIdentity(n).patientId`), negative `CLM_ID` / `PDE_ID` numbered as the NDJSON generator
 * numbers its claims (so EOB ids read `carrier--10000000000`), MBIs with the synthetic 'S'
 * (docs/decisions.md#sandbox-enrollees, docs/claims-rif.md#ids). Pure: the same (count, seed) always gives
 * the same records.
 */
import { RIF_CLAIM_TYPES, type RifClaimType, type RifRecordType } from '../../../fhir/bfd/rif-record.js';
import { CLAIM_KINDS } from '../../../fhir/eob.js';
import {
  CLAIM_WEIGHTS,
  FIRST_SERVICE_DATE,
  LAST_SERVICE_DATE,
  MAX_EOBS,
  MIN_EOBS,
} from '../../../fhir/generate.js';
import { DIAGNOSES } from '../../../fhir/sample-codes.js';
import { Random } from '../../../shared/random.js';
import { syntheticBeneficiary } from './beneficiary.js';
import type { ClaimDraft } from './claim.js';
import { toDay, yearOf, type RifValues } from './format.js';
import { institutionalRows } from './institutional.js';
import { pdeRows } from './pde.js';
import { carrierRows, dmeRows } from './professional.js';

/**
 * The record types the generator writes, in the order they load: the history rows first, so each Patient is
 * built once, with its earlier MBIs, when its beneficiary record arrives; beneficiaries before their claims.
 */
export const SYNTHETIC_RECORD_TYPES = [
  'beneficiary-history',
  'beneficiary',
  ...RIF_CLAIM_TYPES,
] as const satisfies readonly RifRecordType[];
export type SyntheticRecordType = (typeof SYNTHETIC_RECORD_TYPES)[number];

/** One record: a beneficiary, one history row, or a claim with its rows (one per claim line). */
export interface SyntheticRecord {
  readonly type: SyntheticRecordType;
  readonly rows: readonly RifValues[];
}

const FIRST_DAY = toDay(FIRST_SERVICE_DATE);
const LAST_DAY = toDay(LAST_SERVICE_DATE);
/** The year of the beneficiary records' monthly enrollment data. */
export const REFERENCE_YEAR = yearOf(LAST_DAY);

/** The claims every enrollee has, first: a carrier claim and a Part D event. */
const ALWAYS: readonly RifClaimType[] = ['carrier', 'pde'];

/** Every claim kind, in the order enrollee 0 gets one of each: those of `ALWAYS`, then the rest in RIF order. */
const CLAIM_TYPES: readonly RifClaimType[] = [
  ...ALWAYS,
  ...RIF_CLAIM_TYPES.filter((type) => !ALWAYS.includes(type)),
];

/** Synthetic claim number, unique across enrollees: 64 slots per enrollee above 10^10 (as the NDJSON generator's). */
export function syntheticClaimNumber(n: number, index: number): number {
  return 10_000_000_000 + n * 64 + index;
}

const ROWS: Record<RifClaimType, (draft: ClaimDraft) => RifValues[]> = {
  carrier: carrierRows,
  dme: dmeRows,
  hha: institutionalRows,
  hospice: institutionalRows,
  inpatient: institutionalRows,
  outpatient: institutionalRows,
  snf: institutionalRows,
  pde: pdeRows,
};

/** The records of sandbox enrollee `n`: beneficiary, history rows, then the claims by service date. */
export function syntheticEnrolleeRecords(n: number, seed: number): SyntheticRecord[] {
  if (!Number.isSafeInteger(n) || n < 0)
    throw new RangeError('enrollee number must be a non-negative integer');
  if (!Number.isSafeInteger(seed)) throw new RangeError('seed must be a safe integer');
  const rng = new Random(seed, `rif:${n}`);
  const beneficiary = syntheticBeneficiary(n, rng, REFERENCE_YEAR);
  const records: SyntheticRecord[] = [
    { type: 'beneficiary', rows: [beneficiary.row] },
    ...beneficiary.history.map((row) => ({ type: 'beneficiary-history' as const, rows: [row] })),
  ];

  // A few chronic conditions per enrollee, reused across claims so the history hangs together.
  const conditions = Array.from({ length: rng.int(2, 4) }, () => rng.pick(DIAGNOSES));
  const total = rng.int(MIN_EOBS, MAX_EOBS);
  const guaranteed = n === 0 ? CLAIM_TYPES : ALWAYS;
  const schedule = Array.from({ length: total }, (_, i) => ({
    type: guaranteed[i] ?? (rng.weighted(CLAIM_WEIGHTS) as RifClaimType),
    startDay: rng.int(FIRST_DAY, LAST_DAY),
  }));
  schedule.sort((x, y) => x.startDay - y.startDay);
  schedule.forEach((claim, i) => {
    const claimRng = new Random(seed, `rif:${n}:${i}`);
    const kind = CLAIM_KINDS[claim.type];
    const endDay = Math.min(LAST_DAY, claim.startDay + claimRng.int(kind.days[0], kind.days[1]));
    const draft: ClaimDraft = {
      type: claim.type,
      number: syntheticClaimNumber(n, i),
      startDay: claim.startDay,
      endDay,
      part: kind.part,
      enrollee: beneficiary.facts,
      conditions,
      rng: claimRng,
    };
    records.push({ type: claim.type, rows: ROWS[claim.type](draft) });
  });
  return records;
}

/** The records of enrollees 0..count-1, enrollee by enrollee; streams. */
export function* syntheticRifRecords(
  count: number,
  seed: number,
): Generator<SyntheticRecord, void, undefined> {
  for (let n = 0; n < count; n++) yield* syntheticEnrolleeRecords(n, seed);
}
