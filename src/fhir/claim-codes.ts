/**
 * Codes the synthetic claims carry in the CARIN slices: NUBC type of bill, patient discharge status,
 * priority (type) of admission and point of origin; CMS place of service; NCPDP dispense-as-written. These
 * are codes of the named published code sets (displays abridged); which claim gets which is our sample
 * choice, weighted to look plausible for Medicare claims.
 */
import type { EobType } from './validate.js';

export interface Code {
  readonly code: string;
  readonly display: string;
}

/** NUBC type of bill (facility type, bill classification, frequency 1 = admit through discharge). */
export const TYPE_OF_BILL: Record<Exclude<EobType, 'carrier' | 'dme' | 'pde'>, Code> = {
  inpatient: { code: '0111', display: 'Hospital inpatient (Part A), admit through discharge claim' },
  snf: { code: '0211', display: 'Skilled nursing inpatient (Part A), admit through discharge claim' },
  outpatient: { code: '0131', display: 'Hospital outpatient, admit through discharge claim' },
  hha: { code: '0329', display: 'Home health (Part A), final claim for a payment episode' },
  hospice: { code: '0811', display: 'Hospice (non-hospital based), admit through discharge claim' },
};

/** NUBC patient discharge status codes, with relative weights per institutional claim type. */
const HOME: Code = { code: '01', display: 'Discharged to home or self care' };
const SNF: Code = { code: '03', display: 'Discharged/transferred to skilled nursing facility' };
const HOME_HEALTH: Code = {
  code: '06',
  display: 'Discharged/transferred to home under care of organized home health service organization',
};
const STILL_PATIENT: Code = { code: '30', display: 'Still patient' };

export const DISCHARGE_STATUS: Record<keyof typeof TYPE_OF_BILL, readonly [Code, number][]> = {
  inpatient: [
    [HOME, 70],
    [HOME_HEALTH, 20],
    [SNF, 10],
  ],
  snf: [
    [HOME, 60],
    [HOME_HEALTH, 40],
  ],
  outpatient: [[HOME, 1]],
  hha: [
    [HOME, 50],
    [STILL_PATIENT, 50],
  ],
  hospice: [[STILL_PATIENT, 1]],
};

/** NUBC priority (type) of admission or visit. */
export const ADMISSION_TYPE = {
  emergency: { code: '1', display: 'Emergency' },
  elective: { code: '3', display: 'Elective' },
} as const satisfies Record<string, Code>;

/** NUBC point of origin for admission or visit. */
export const POINT_OF_ORIGIN = {
  nonHealthFacility: { code: '1', display: 'Non-health care facility point of origin' },
  hospitalTransfer: { code: '4', display: 'Transfer from a hospital (different facility)' },
} as const satisfies Record<string, Code>;

/** CMS place of service codes (professional claim lines). */
export const PLACE_OF_SERVICE = {
  office: { code: '11', display: 'Office' },
  home: { code: '12', display: 'Home' },
  outpatientHospital: { code: '22', display: 'On Campus-Outpatient Hospital' },
} as const satisfies Record<string, Code>;

/** NCPDP dispense as written (DAW) / product selection codes. */
export const DAW = {
  none: { code: '0', display: 'No Product Selection Indicated' },
  prescriber: { code: '1', display: 'Substitution Not Allowed by Prescriber' },
} as const satisfies Record<string, Code>;
