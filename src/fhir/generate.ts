/**
 * Deterministic synthetic Medicare enrollees: the Patient, Coverage and ExplanationOfBenefit resources of
 * sandbox enrollee `n`, in the CARIN Blue Button 2.0.0 profiles they claim (C4BB-Patient, C4BB-Coverage,
 * C4BB-ExplanationOfBenefit-*; eob.ts and eob-lines.ts build the claims), pointing at the shared directory
 * of Organizations and Practitioners (directory.ts), with Blue Button's id forms
 * (docs/decisions.md#fhir-ids: Coverage `part-a--<pid>`…, EOB `<claimtype>--<number>`;
 * docs/decisions.md#sandbox-enrollees: negative synthetic ids). Patient ids and names come from
 * `sandboxIdentity(n)` so the data links to the sandbox accounts.
 * Pure: no I/O, no clock, no Math.random; the same (n, seed) always gives the same JSON.
 * Every resource carries the `synthetic` tag and no `meta.lastUpdated` (the importer sets it).
 */
import { Random } from '../shared/random.js';
import { sandboxIdentity } from './sandbox-identity.js';
import {
  CMS_ORGANIZATION_ID,
  MA_ORGANIZATION_ID,
  coding,
  directoryResources,
  meta,
  type FhirResource,
} from './directory.js';
import { CLAIM_KINDS, eobResource, type MedicarePart } from './eob.js';
import { DIAGNOSES, FEMALE_GIVEN_NAMES, PLACES, SYSTEMS } from './sample-codes.js';
import type { EobType } from './validate.js';

export { SYNTHETIC_TAG, directoryResources, type FhirResource } from './directory.js';
export type { MedicarePart } from './eob.js';

/** Our member-id system (C4BB-Patient `identifier:memberid`); the values are sample member numbers. */
const MEMBER_ID_SYSTEM = 'https://openenroll.dev/identifiers/member';

/** Claims are dated within this window (inclusive). */
export const FIRST_SERVICE_DATE = '2023-01-01';
export const LAST_SERVICE_DATE = '2026-10-31';
export const MIN_EOBS = 20;
export const MAX_EOBS = 60;

/** `part-a--19990000000001`-style: the part prefix, a hyphen, then the (negative) patient id. */
export function coverageId(part: MedicarePart, patientId: string): string {
  return `part-${part}-${patientId}`;
}

/** `carrier--10000000000`-style: the claim type, a hyphen, then the negative synthetic claim number. */
export function eobId(type: EobType, claimNumber: number): string {
  return `${type}-${-claimNumber}`;
}

// ---- Dates -------------------------------------------------------------------------------------------

const DAY_MS = 86_400_000;
const toDay = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const FIRST_DAY = toDay(FIRST_SERVICE_DATE);
const LAST_DAY = toDay(LAST_SERVICE_DATE);

/** Relative frequency of each claim type after the guaranteed first carrier and pde claims. */
export const CLAIM_WEIGHTS: Record<EobType, number> = {
  carrier: 45,
  pde: 30,
  outpatient: 9,
  dme: 5,
  inpatient: 4,
  hha: 3,
  snf: 2,
  hospice: 2,
};

// ---- Identifiers -------------------------------------------------------------------------------------

/** An MBI-shaped value; the 'S' in position 2 is a letter real MBIs never use, marking it synthetic. */
function mbi(rng: Random): string {
  const letters = 'ACDEFGHJKMNPQRTUVWXY';
  const digit = () => String(rng.int(0, 9));
  const letter = () => rng.pick([...letters]);
  return `${rng.int(1, 9)}S${letter()}${digit()}${letter()}${letter()}${digit()}${letter()}${letter()}${digit()}${digit()}`;
}

/** Synthetic claim number, unique across enrollees: 64 slots per enrollee above 10^10. */
function claimNumber(n: number, index: number): number {
  return 10_000_000_000 + n * 64 + index;
}

// ---- Resources ---------------------------------------------------------------------------------------

/**
 * C4BB-Patient: `identifier:memberid` (v2-0203 `MB`, our sample member number) is required; the MBI is
 * typed `MC` (Patient's Medicare number).
 */
function patientResource(
  n: number,
  rng: Random,
  mbiValue: string,
): { resource: FhirResource; birthDay: number } {
  const identity = sandboxIdentity(n);
  const age = rng.int(65, 90);
  const birthDate = `${2026 - age}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`;
  const place = rng.pick(PLACES);
  const resource: FhirResource = {
    resourceType: 'Patient',
    id: identity.patientId,
    meta: meta('C4BB-Patient'),
    identifier: [
      {
        type: { coding: [coding(SYSTEMS.identifierType, 'MB', 'Member Number')] },
        system: MEMBER_ID_SYSTEM,
        value: identity.patientId.replace(/^-/, 'M'),
      },
      {
        type: { coding: [coding(SYSTEMS.identifierType, 'MC', "Patient's Medicare number")] },
        system: SYSTEMS.mbi,
        value: mbiValue,
      },
    ],
    name: [{ use: 'usual', family: identity.familyName, given: [identity.givenName] }],
    gender: FEMALE_GIVEN_NAMES.has(identity.givenName) ? 'female' : 'male',
    birthDate,
    address: [
      { use: 'home', city: place.city, state: place.state, postalCode: place.postalCode, country: 'US' },
    ],
  };
  return { resource, birthDay: toDay(birthDate) };
}

/** C4BB-Coverage: exactly one `payor`, a literal reference to a C4BB-Organization we serve. */
function coverageResource(
  part: MedicarePart,
  patientId: string,
  memberId: string,
  start: string,
  plan: { value: string; name: string },
  payor: { id: string; display: string },
): FhirResource {
  return {
    resourceType: 'Coverage',
    id: coverageId(part, patientId),
    meta: meta('C4BB-Coverage'),
    status: 'active',
    type: {
      coding: [coding(SYSTEMS.actCode, 'SUBSIDIZ', 'subsidized health program')],
      text: `Medicare Part ${part.toUpperCase()}`,
    },
    subscriberId: memberId,
    beneficiary: { reference: `Patient/${patientId}` },
    relationship: { coding: [coding(SYSTEMS.subscriberRelationship, 'self', 'Self')] },
    period: { start },
    payor: [{ reference: `Organization/${payor.id}`, display: payor.display }],
    class: [
      {
        type: { coding: [coding(SYSTEMS.coverageClass, 'group', 'Group')] },
        value: 'Medicare',
        name: 'Medicare',
      },
      {
        type: { coding: [coding(SYSTEMS.coverageClass, 'plan', 'Plan')] },
        value: plan.value,
        name: plan.name,
      },
    ],
  };
}

function coverages(rng: Random, patientId: string, memberId: string, birthDay: number, hasPartC: boolean) {
  const sixtyFifth = new Date(birthDay * DAY_MS);
  sixtyFifth.setUTCFullYear(sixtyFifth.getUTCFullYear() + 65, sixtyFifth.getUTCMonth(), 1);
  const entitled = sixtyFifth.toISOString().slice(0, 10);
  const later = (minYear: number) => {
    const year = Math.max(minYear, Number(entitled.slice(0, 4)));
    return `${year}-01-01` > entitled ? `${year}-01-01` : entitled;
  };
  const cms = { id: CMS_ORGANIZATION_ID, display: 'Centers for Medicare and Medicaid Services' };
  const list = [
    coverageResource('a', patientId, memberId, entitled, { value: 'Part A', name: 'Medicare Part A' }, cms),
    coverageResource('b', patientId, memberId, entitled, { value: 'Part B', name: 'Medicare Part B' }, cms),
  ];
  if (hasPartC) {
    const contract = `H9${String(rng.int(0, 999)).padStart(3, '0')}`;
    list.push(
      coverageResource(
        'c',
        patientId,
        memberId,
        later(rng.int(2015, 2023)),
        { value: contract, name: 'Sample Medicare Advantage Plan' },
        { id: MA_ORGANIZATION_ID, display: 'Sample Medicare Advantage Organization' },
      ),
    );
  }
  const pdp = `S9${String(rng.int(0, 999)).padStart(3, '0')}`;
  list.push(
    coverageResource(
      'd',
      patientId,
      memberId,
      later(2006),
      { value: pdp, name: 'Sample Prescription Drug Plan' },
      cms,
    ),
  );
  return list;
}

// ---- Public API --------------------------------------------------------------------------------------

/**
 * The resources of sandbox enrollee `n`: Patient, Coverages (A, B, [C], D), then 20–60 EOBs by date.
 * They refer to the directory (`directoryResources()`), which is not repeated per enrollee.
 */
export function generateEnrollee(n: number, seed: number): FhirResource[] {
  if (!Number.isSafeInteger(n) || n < 0)
    throw new RangeError('enrollee number must be a non-negative integer');
  if (!Number.isFinite(seed)) throw new RangeError('seed must be a finite number');
  const rng = new Random(seed, n);
  const memberId = mbi(rng);
  const { resource: patient, birthDay } = patientResource(n, rng, memberId);
  const hasPartC = rng.next() < 0.3;
  const result = [patient, ...coverages(rng, patient.id, memberId, birthDay, hasPartC)];

  // A few chronic conditions per enrollee, reused across claims so the history hangs together.
  const conditions = Array.from({ length: rng.int(2, 4) }, () => rng.pick(DIAGNOSES));
  const total = rng.int(MIN_EOBS, MAX_EOBS);
  const claims = Array.from({ length: total }, (_, i) => ({
    type: i === 0 ? 'carrier' : i === 1 ? 'pde' : rng.weighted(CLAIM_WEIGHTS),
    startDay: rng.int(FIRST_DAY, LAST_DAY),
  }));
  claims.sort((x, y) => x.startDay - y.startDay);
  claims.forEach((claim, i) => {
    const kind = CLAIM_KINDS[claim.type];
    const endDay = Math.min(LAST_DAY, claim.startDay + rng.int(kind.days[0], kind.days[1]));
    const number = claimNumber(n, i);
    result.push(
      eobResource(
        claim.type,
        eobId(claim.type, number),
        number,
        patient.id,
        coverageId(kind.part, patient.id),
        claim.startDay,
        endDay,
        rng,
        conditions,
      ),
    );
  });
  return result;
}

/**
 * The directory (insurer, payors, providers; once), then the resources of enrollees 0..count-1,
 * enrollee by enrollee (Patient, Coverages, EOBs); streams.
 */
export function* generateEnrollees(count: number, seed: number): Generator<FhirResource, void, undefined> {
  if (count > 0) yield* directoryResources();
  for (let n = 0; n < count; n++) yield* generateEnrollee(n, seed);
}
