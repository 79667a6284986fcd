/**
 * One synthetic ExplanationOfBenefit, in the C4BB profile of its claim family: the header every C4BB EOB
 * shares (claim id, dates, literal insurer/provider/care-team references, claim received date, network and
 * payment status), then the family's own part (eob-lines.ts). Pure: every draw comes from the enrollee's
 * stream.
 */
import type { Random } from '../shared/random.js';
import { CARIN_SYSTEMS, type C4bbProfileName } from './carin.js';
import {
  CMS_ORGANIZATION_ID,
  DIRECTORY,
  coding,
  meta,
  type Clinician,
  type FhirResource,
  type ProviderKind,
} from './directory.js';
import { fromDay } from './eob-amounts.js';
import { institutionalPart, pharmacyPart, professionalPart, type ClaimContext } from './eob-lines.js';
import { SYSTEMS } from './sample-codes.js';
import { EOB_TYPE_SYSTEM, type EobType } from './validate.js';

export type MedicarePart = 'a' | 'b' | 'c' | 'd';

export interface ClaimKind {
  eobCode: string;
  hl7Type: 'professional' | 'institutional' | 'pharmacy';
  profile: C4bbProfileName;
  part: MedicarePart;
  /** Length of the billable period in days (0 = one day). */
  days: [number, number];
  providers: ProviderKind;
}

/** SNF is billed as an inpatient stay, HHA and hospice as outpatient institutional claims (our choice). */
export const CLAIM_KINDS: Record<EobType, ClaimKind> = {
  carrier: kind('CARRIER', 'professional', 'Professional-NonClinician', 'b', [0, 0], 'professional'),
  dme: kind('DME', 'professional', 'Professional-NonClinician', 'b', [0, 0], 'dme'),
  pde: kind('PDE', 'pharmacy', 'Pharmacy', 'd', [0, 0], 'pharmacy'),
  inpatient: kind('INPATIENT', 'institutional', 'Inpatient-Institutional', 'a', [2, 8], 'institutional'),
  outpatient: kind('OUTPATIENT', 'institutional', 'Outpatient-Institutional', 'a', [0, 0], 'institutional'),
  snf: kind('SNF', 'institutional', 'Inpatient-Institutional', 'a', [7, 30], 'snf'),
  hha: kind('HHA', 'institutional', 'Outpatient-Institutional', 'a', [29, 29], 'hha'),
  hospice: kind('HOSPICE', 'institutional', 'Outpatient-Institutional', 'a', [14, 30], 'hospice'),
};

function kind(
  eobCode: string,
  hl7Type: ClaimKind['hl7Type'],
  profile: string,
  part: MedicarePart,
  days: [number, number],
  providers: ProviderKind,
): ClaimKind {
  return {
    eobCode,
    hl7Type,
    profile: `C4BB-ExplanationOfBenefit-${profile}` as C4bbProfileName,
    part,
    days,
    providers,
  };
}

/**
 * Our claim-number identifier system: CMS's own systems are not reproduced here
 * (docs/decisions.md#claim-identifiers).
 */
const CLAIM_ID_SYSTEM = 'https://openenroll.dev/identifiers/claim';

/** The clinician on the claim's care team and the C4BB care-team role they play, per claim family. */
const CARE_TEAM_ROLE: Record<EobType, { system: string; code: string; display: string }> = {
  carrier: { system: CARIN_SYSTEMS.claimCareTeamRole, code: 'rendering', display: 'Rendering provider' },
  dme: { system: CARIN_SYSTEMS.claimCareTeamRole, code: 'referring', display: 'Referring' },
  pde: { system: CARIN_SYSTEMS.claimCareTeamRole, code: 'prescribing', display: 'Prescribing provider' },
  inpatient: { system: CARIN_SYSTEMS.claimCareTeamRole, code: 'attending', display: 'Attending' },
  outpatient: { system: CARIN_SYSTEMS.claimCareTeamRole, code: 'attending', display: 'Attending' },
  snf: { system: CARIN_SYSTEMS.claimCareTeamRole, code: 'attending', display: 'Attending' },
  hha: { system: CARIN_SYSTEMS.claimCareTeamRole, code: 'attending', display: 'Attending' },
  hospice: { system: CARIN_SYSTEMS.claimCareTeamRole, code: 'attending', display: 'Attending' },
};

function careTeam(type: EobType, clinician: Clinician) {
  const role = CARE_TEAM_ROLE[type];
  return [
    {
      sequence: 1,
      provider: { reference: `Practitioner/${clinician.id}`, display: `Dr. ${clinician.name}` },
      role: { coding: [coding(role.system, role.code, role.display)] },
      // C4BB EOB-careteam-qualification: a rendering clinician's qualification is a NUCC taxonomy code.
      ...(role.code === 'rendering'
        ? {
            qualification: {
              coding: [
                coding(CARIN_SYSTEMS.nuccTaxonomy, clinician.taxonomy.code, clinician.taxonomy.display),
              ],
            },
          }
        : {}),
    },
  ];
}

const capitalise = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** The EOB of one claim: `type`, claim `number`, service days `startDay..endDay` (epoch days). */
export function eobResource(
  type: EobType,
  id: string,
  number: number,
  patientId: string,
  coverageId: string,
  startDay: number,
  endDay: number,
  rng: Random,
  conditions: readonly { code: string; display: string }[],
): FhirResource {
  const claim = CLAIM_KINDS[type];
  const lag = rng.int(2, 30);
  const created = `${fromDay(endDay + lag)}T${String(rng.int(8, 18)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}:00Z`;
  const received = fromDay(endDay + rng.int(1, lag - 1));
  const provider = rng.pick(DIRECTORY.providers[claim.providers]);
  const clinician = rng.pick(DIRECTORY.clinicians);
  const inNetwork = rng.next() < 0.92;
  const context: ClaimContext = { type, claim, startDay, endDay, rng, conditions, inNetwork };
  const part =
    claim.hl7Type === 'pharmacy'
      ? pharmacyPart(context)
      : claim.hl7Type === 'professional'
        ? professionalPart(context)
        : institutionalPart(context);
  const supportingInfo = [
    ...part.supportingInfo,
    {
      category: { coding: [coding(CARIN_SYSTEMS.supportingInfoType, 'clmrecvddate', 'Claim Received Date')] },
      timingDate: received,
    },
  ].map((info, i) => ({ sequence: i + 1, ...info }));

  return {
    resourceType: 'ExplanationOfBenefit',
    id,
    meta: meta(claim.profile),
    identifier: [
      {
        type: { coding: [coding(CARIN_SYSTEMS.identifierType, 'uc', 'Unique Claim ID')] },
        system: CLAIM_ID_SYSTEM,
        value: String(-number),
      },
    ],
    status: 'active',
    type: {
      coding: [
        coding(EOB_TYPE_SYSTEM, claim.eobCode),
        coding(SYSTEMS.claimType, claim.hl7Type, capitalise(claim.hl7Type)),
      ],
    },
    ...(part.subType ? { subType: part.subType } : {}),
    use: 'claim',
    patient: { reference: `Patient/${patientId}` },
    billablePeriod: { start: fromDay(startDay), end: fromDay(endDay) },
    created,
    insurer: {
      reference: `Organization/${CMS_ORGANIZATION_ID}`,
      display: 'Centers for Medicare and Medicaid Services',
    },
    provider: { reference: `Organization/${provider.id}`, display: provider.name },
    outcome: 'complete',
    careTeam: careTeam(type, clinician),
    supportingInfo,
    ...(part.diagnosis ? { diagnosis: part.diagnosis } : {}),
    insurance: [{ focal: true, coverage: { reference: `Coverage/${coverageId}` } }],
    item: part.item,
    adjudication: part.adjudication,
    total: part.total,
    payment: {
      type: { coding: [coding(CARIN_SYSTEMS.payerAdjudicationStatus, 'paid', 'Paid')] },
      date: created.slice(0, 10),
      amount: part.payment,
    },
  };
}
