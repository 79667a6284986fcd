import type { PlanDetail } from '../../plans/store/plan-detail.js';
import { Reject } from '../engine/tabular-format.js';
import { yesNo } from './values.js';
import { cell, dateCell, optionalCell } from './puf-cells.js';

/**
 * MetalLevel of the Plan Attributes PUF → `plans.metal_level`. "Expanded Bronze" (PY2018 on: bronze
 * plans above the de minimis AV range, 45 CFR 156.140(c)) is a bronze plan in the API's MetalLevelEnum;
 * dental plans keep the PUF's "High"/"Low".
 */
const METAL_LEVELS: Record<string, string> = {
  Catastrophic: 'Catastrophic',
  Bronze: 'Bronze',
  'Expanded Bronze': 'Bronze',
  Silver: 'Silver',
  Gold: 'Gold',
  Platinum: 'Platinum',
  High: 'High',
  Low: 'Low',
};

/** PlanType values: the API's PlanTypeEnum, which is the PUF's list. */
const PLAN_TYPES = new Set(['Indemnity', 'PPO', 'HMO', 'EPO', 'POS']);

/**
 * DesignType → the API's DesignTypeEnum: "Design 1".."Design 5" (the standardized plan options of the
 * yearly Notice of Benefit and Payment Parameters) → DESIGN1..DESIGN5; "Not Applicable", empty (dental
 * plans) or an older file without the column → NOT_APPLICABLE.
 */
export function designTypeOf(value: string): string | Reject {
  if (value === '' || /^not applicable$/i.test(value)) return 'NOT_APPLICABLE';
  const design = /^Design\s*([1-9])$/i.exec(value);
  return design
    ? `DESIGN${design[1]!}`
    : new Reject(`DesignType "${value}" is not "Design N" or Not Applicable`);
}

/**
 * EHBPercentTotalPremium as a fraction of 1: the PUF writes "1.0" or "0.9940000000000001" (rounded to six
 * places, the precision the float noise hides); a "99.4%" form is accepted too.
 */
export function ehbFraction(value: string): number | null | Reject {
  if (value === '') return null;
  const percent = value.endsWith('%');
  const number = Number(percent ? value.slice(0, -1) : value);
  const fraction = percent ? number / 100 : number;
  if (!Number.isFinite(fraction) || fraction <= 0 || fraction > 1) {
    return new Reject(`EHBPercentTotalPremium "${value}" is not a fraction of the premium`);
  }
  return Math.round(fraction * 1e6) / 1e6;
}

/**
 * EHBPediatricDentalApportionmentQuantity of a stand-alone dental plan: the PY2025 file gives a fraction
 * ("1.0", "0.993", "0.9437197165685649"), kept to six places; medical plans leave it empty. Anything that
 * is not a fraction of 1 is not kept (null).
 */
export function pediatricDentalShare(value: string): number | null {
  const number = Number(value);
  if (value === '' || !Number.isFinite(number) || number <= 0 || number > 1) return null;
  return Math.round(number * 1e6) / 1e6;
}

export function metalLevelOf(value: string): string | Reject {
  return METAL_LEVELS[value] ?? new Reject(`MetalLevel "${value}" is not a metal or dental level`);
}

export function planTypeOf(value: string): string | Reject {
  return PLAN_TYPES.has(value)
    ? value
    : new Reject(`PlanType "${value}" is not one of ${[...PLAN_TYPES].join(', ')}`);
}

/**
 * DiseaseManagementProgramsOffered, a comma list, in the API's DiseaseMgmtProgramsEnum spelling (the
 * PUF writes "High Blood Pressure & High Cholesterol").
 */
function programs(value: string): string[] {
  return value
    .split(',')
    .map((p) => p.trim().replace(/\s*&\s*/g, ' and '))
    .filter((p) => p !== '');
}

/** `plans.detail` from a row (the plan-level columns; variant-level ones from the row given). */
export function planDetailOf(cells: Record<string, string>): PlanDetail | Reject {
  const referral = yesNo(cells, 'IsReferralRequiredForSpecialist');
  const national = yesNo(cells, 'NationalNetwork');
  const wellness = yesNo(cells, 'WellnessProgramOffered');
  const effective = dateCell(cells, 'PlanEffectiveDate');
  const expiration = dateCell(cells, 'PlanExpirationDate');
  for (const value of [referral, national, wellness, effective, expiration]) {
    if (value instanceof Reject) return value;
  }
  const isNew = cell(cells, 'IsNewPlan');
  return {
    issuer_name: cell(cells, 'IssuerMarketPlaceMarketingName'),
    is_new_plan: isNew === 'New' ? true : isNew === 'Existing' ? false : null,
    child_only_offering: optionalCell(cells, 'ChildOnlyOffering'),
    disease_mgmt_programs: programs(cell(cells, 'DiseaseManagementProgramsOffered')),
    specialist_referral_required: referral === 1,
    has_national_network: national === 1,
    // Dental plans state "Guaranteed Rate" or "Estimated Rate"; medical plans leave it empty.
    guaranteed_rate: /^guaranteed/i.test(cell(cells, 'IsGuaranteedRate')),
    wellness_program: wellness === 1,
    formulary_url: optionalCell(cells, 'FormularyURL'),
    brochure_url: optionalCell(cells, 'PlanBrochure'),
    benefits_url: optionalCell(cells, 'URLForSummaryofBenefitsCoverage'),
    // The Network PUF has the network's URL; this file has only its id.
    network_url: null,
    enrollment_payment_url: optionalCell(cells, 'URLForEnrollmentPayment'),
    effective_date: effective as string | null,
    expiration_date: expiration as string | null,
    pediatric_dental_ehb_share: pediatricDentalShare(cell(cells, 'EHBPediatricDentalApportionmentQuantity')),
  };
}
