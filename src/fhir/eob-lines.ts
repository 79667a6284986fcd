/**
 * The claim-family parts of a synthetic EOB (eob.ts builds the shared header): billed lines and their
 * amounts, diagnoses, and the supporting information and adjudication slices each C4BB profile requires —
 * Pharmacy (days supply, DAW code, refill numbers), Inpatient/Outpatient-Institutional (sub-type, type of
 * bill, admission period, discharge status; amounts on the lines, statuses on the header) and
 * Professional-NonClinician (place of service and payment status on every line).
 */
import type { Random } from '../shared/random.js';
import { CARIN_SYSTEMS } from './carin.js';
import {
  ADMISSION_TYPE,
  DAW,
  DISCHARGE_STATUS,
  PLACE_OF_SERVICE,
  POINT_OF_ORIGIN,
  TYPE_OF_BILL,
  type Code,
} from './claim-codes.js';
import { coding } from './directory.js';
import { adjudicate, amounts, fromDay, headerStatus, statusAdjudication, sum, usd } from './eob-amounts.js';
import type { ClaimKind } from './eob.js';
import {
  CARRIER_SERVICES,
  DIAGNOSES,
  DME_ITEMS,
  DRUGS,
  REVENUE_LINES,
  SYSTEMS,
  type ServiceCode,
} from './sample-codes.js';
import type { EobType } from './validate.js';

type Json = Record<string, unknown>;

export interface ClaimContext {
  type: EobType;
  claim: ClaimKind;
  startDay: number;
  endDay: number;
  rng: Random;
  conditions: readonly { code: string; display: string }[];
  inNetwork: boolean;
}

export interface ClaimPart {
  subType?: Json;
  supportingInfo: Json[];
  diagnosis?: Json[];
  item: Json[];
  adjudication: Json[];
  total: Json[];
  payment: { value: number; currency: string };
}

const info = (code: string, display: string, value: Json) => ({
  category: { coding: [coding(CARIN_SYSTEMS.supportingInfoType, code, display)] },
  ...value,
});
const coded = (system: string, c: Code) => ({ coding: [coding(system, c.code, c.display)] });

// ---- Diagnoses ---------------------------------------------------------------------------------------

/**
 * The first diagnosis is `principal` (HL7 ex-diagnosistype, in every family's ValueSet); the others are
 * C4BBClaimDiagnosisType `secondary` on professional claims and `other` on institutional ones — the codes
 * C4BBClaimProfessionalAndNonClinicianDiagnosisType and C4BBClaim{In,Out}patientInstitutionalDiagnosisType
 * allow.
 */
function diagnoses(ctx: ClaimContext): Json[] {
  const first = ctx.rng.pick(ctx.conditions);
  const second = ctx.rng.pick(DIAGNOSES);
  const picked = second.code === first.code || ctx.rng.next() < 0.4 ? [first] : [first, second];
  const other = ctx.claim.hl7Type === 'professional' ? 'secondary' : 'other';
  return picked.map((d, i) => ({
    sequence: i + 1,
    diagnosisCodeableConcept: { coding: [coding(SYSTEMS.icd10cm, d.code, d.display)] },
    type: [
      {
        coding: [
          i === 0
            ? coding(CARIN_SYSTEMS.hl7DiagnosisType, 'principal', 'Principal Diagnosis')
            : coding(CARIN_SYSTEMS.claimDiagnosisType, other, capitalise(other)),
        ],
      },
    ],
  }));
}

const capitalise = (s: string) => s[0]!.toUpperCase() + s.slice(1);

// ---- Pharmacy ----------------------------------------------------------------------------------------

/** C4BB-ExplanationOfBenefit-Pharmacy: one dispensed drug; dayssupply, dawcode, refillnum, refillsauthorized. */
export function pharmacyPart(ctx: ClaimContext): ClaimPart {
  const { rng } = ctx;
  const drug = rng.pick(DRUGS);
  const totals = adjudicate(rng.int(drug.minCents, drug.maxCents), ctx.claim.part, rng);
  const authorized = rng.pick([0, 2, 3, 5, 11]);
  const refill = rng.int(0, authorized);
  const daw = rng.next() < 0.9 ? DAW.none : DAW.prescriber;
  return {
    supportingInfo: [
      info('dayssupply', 'Days Supply', {
        valueQuantity: {
          value: drug.daysSupply,
          unit: 'days',
          system: 'http://unitsofmeasure.org',
          code: 'd',
        },
      }),
      info('dawcode', 'Dispense As Written Product Selection Code', {
        code: coded(CARIN_SYSTEMS.dawCode, daw),
      }),
      info('refillnum', 'Refill Number', { valueQuantity: { value: refill } }),
      info('refillsauthorized', 'Refills Authorized', { valueQuantity: { value: authorized } }),
    ],
    item: [
      {
        sequence: 1,
        productOrService: { coding: [coding(SYSTEMS.ndc, drug.ndc, drug.name)], text: drug.name },
        servicedDate: fromDay(ctx.startDay),
        quantity: { value: drug.quantity },
        adjudication: amounts(totals),
      },
    ],
    adjudication: headerStatus(ctx.inNetwork),
    total: amounts(totals),
    payment: usd(totals.benefit),
  };
}

// ---- Professional ------------------------------------------------------------------------------------

/** C4BB-ExplanationOfBenefit-Professional-NonClinician: CPT/HCPCS lines with place of service and status. */
export function professionalPart(ctx: ClaimContext): ClaimPart {
  const { rng } = ctx;
  const table = ctx.type === 'dme' ? DME_ITEMS : CARRIER_SERVICES;
  const count = ctx.type === 'dme' ? 1 : rng.int(1, 3);
  const place =
    ctx.type === 'dme'
      ? PLACE_OF_SERVICE.home
      : rng.next() < 0.8
        ? PLACE_OF_SERVICE.office
        : PLACE_OF_SERVICE.outpatientHospital;
  const diagnosis = diagnoses(ctx);
  const lines = Array.from({ length: count }, () => {
    const service = rng.pick(table);
    return { service, totals: adjudicate(rng.int(service.minCents, service.maxCents), ctx.claim.part, rng) };
  });
  const totals = sum(lines.map((l) => l.totals));
  return {
    supportingInfo: [],
    diagnosis,
    item: lines.map(({ service, totals: a }, i) => ({
      sequence: i + 1,
      careTeamSequence: [1],
      diagnosisSequence: [1],
      productOrService: { coding: [coding(service.system, service.code, service.display)] },
      servicedDate: fromDay(ctx.startDay),
      locationCodeableConcept: coded(CARIN_SYSTEMS.placeOfService, place),
      quantity: { value: 1 },
      adjudication: [statusAdjudication('benefitpaymentstatus', ctx.inNetwork), ...amounts(a)],
    })),
    adjudication: [statusAdjudication('billingnetworkstatus', ctx.inNetwork)],
    total: amounts(totals),
    payment: usd(totals.benefit),
  };
}

// ---- Institutional -----------------------------------------------------------------------------------

/**
 * The revenue-center services of an institutional claim and the quantity of each, `days` the length of its
 * billing period (the RIF generator draws its revenue lines the same way).
 */
export function revenueLines(
  type: EobType,
  rng: Random,
  days: number,
): { service: ServiceCode; quantity: number }[] {
  switch (type) {
    case 'inpatient':
    case 'snf':
      return REVENUE_LINES[type]
        .slice(0, rng.int(2, REVENUE_LINES[type].length))
        .map((service, i) => ({ service, quantity: i === 0 ? Math.max(1, days) : 1 }));
    case 'outpatient':
      return Array.from({ length: rng.int(1, 3) }, () => ({
        service: rng.pick(REVENUE_LINES.outpatient),
        quantity: 1,
      }));
    case 'hha':
      return [{ service: rng.pick(REVENUE_LINES.hha), quantity: rng.int(4, 12) }];
    default:
      return [{ service: rng.pick(REVENUE_LINES.hospice), quantity: days + 1 }];
  }
}

/**
 * C4BB-ExplanationOfBenefit-Inpatient-Institutional (inpatient, SNF) and -Outpatient-Institutional
 * (outpatient, HHA, hospice): revenue-center lines; amounts on the lines and only statuses on the header
 * (invariant EOB-institutional-item-or-header-adjudication: amounts at one level, not both). Outpatient
 * lines carry `servicedDate` (the profile allows no period), dated the first day of the billing period.
 */
export function institutionalPart(ctx: ClaimContext): ClaimPart {
  const { rng, type } = ctx;
  const institutional = type as keyof typeof TYPE_OF_BILL;
  const inpatient = ctx.claim.profile === 'C4BB-ExplanationOfBenefit-Inpatient-Institutional';
  const start = fromDay(ctx.startDay);
  const end = fromDay(ctx.endDay);
  const diagnosis = diagnoses(ctx);
  const lines = revenueLines(type, rng, ctx.endDay - ctx.startDay).map(({ service, quantity }) => ({
    service,
    quantity,
    totals: adjudicate(rng.int(service.minCents, service.maxCents) * quantity, ctx.claim.part, rng),
  }));
  const totals = sum(lines.map((l) => l.totals));
  const discharge = rng.choice(DISCHARGE_STATUS[institutional]);
  const admissionType =
    type === 'inpatient' && rng.next() < 0.6 ? ADMISSION_TYPE.emergency : ADMISSION_TYPE.elective;
  const origin = type === 'snf' ? POINT_OF_ORIGIN.hospitalTransfer : POINT_OF_ORIGIN.nonHealthFacility;
  const subType = inpatient ? 'inpatient' : 'outpatient';
  return {
    subType: { coding: [coding(CARIN_SYSTEMS.institutionalClaimSubType, subType, capitalise(subType))] },
    supportingInfo: [
      ...(inpatient
        ? [
            info('admissionperiod', 'Admission Period', { timingPeriod: { start, end } }),
            info('admtype', 'Admission Type', {
              code: coded(CARIN_SYSTEMS.priorityTypeOfAdmission, admissionType),
            }),
            info('pointoforigin', 'Point Of Origin', { code: coded(CARIN_SYSTEMS.pointOfOrigin, origin) }),
          ]
        : []),
      info('typeofbill', 'Type of Bill', {
        code: coded(CARIN_SYSTEMS.typeOfBill, TYPE_OF_BILL[institutional]),
      }),
      info('discharge-status', 'Discharge Status', { code: coded(CARIN_SYSTEMS.dischargeStatus, discharge) }),
    ],
    diagnosis,
    item: lines.map(({ service, quantity, totals: a }, i) => ({
      sequence: i + 1,
      diagnosisSequence: [1],
      revenue: { coding: [coding(service.system, service.code, service.display)] },
      // Revenue-center lines carry no CPT/HCPCS code here: C4BBEOBInstitutionalProcedureCodes' own
      // "not applicable" (data-absent-reason), with the line's description as text.
      productOrService: {
        coding: [coding(CARIN_SYSTEMS.dataAbsentReason, 'not-applicable', 'Not Applicable')],
        text: service.display,
      },
      ...(inpatient && start !== end ? { servicedPeriod: { start, end } } : { servicedDate: start }),
      quantity: { value: quantity },
      adjudication: amounts(a),
    })),
    adjudication: headerStatus(ctx.inNetwork),
    total: amounts(totals),
    payment: usd(totals.benefit),
  };
}
