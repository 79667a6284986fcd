import type { CostSharingRule } from './cost-sharing-rules.js';
import type { BenefitService } from './services.js';

/**
 * What the out-of-pocket model reads of one plan variant: the in-network cost sharing of each service, the
 * deductibles and maximums out of pocket, and the plan-level exceptions of the Plan Attributes PUF. Built
 * from stored plans by `plan-oopc-terms.ts`; tests build it by hand.
 */

export interface ServiceTerms {
  /** false: the plan does not cover it; the member pays it all, outside the deductible and the MOOP. */
  covered: boolean;
  /** How the phrases read (`moop` replaced by the benefit's own in-network MOOP exclusion). */
  rule: CostSharingRule;
  /** The stated copay in dollars (0 when none is stated). */
  copay: number;
  /** The stated coinsurance as a fraction (0 when none is stated). */
  coinsurance: number;
  /** What the copay is charged per: a unit of service, or (inpatient) a day or a stay. */
  copayPer: 'unit' | 'day' | 'stay';
}

export type LimitKind = 'medical' | 'drug' | 'combined';
export type LimitAmounts = Partial<Record<LimitKind, number>>;

/** One kind of limit (deductible or MOOP) by who it applies to; a missing amount means no such limit. */
export interface Limits {
  /** A household of one. */
  individual: LimitAmounts;
  /** Each member of a larger household (the embedded limit). */
  familyPerPerson: LimitAmounts;
  /** A larger household as a whole. */
  family: LimitAmounts;
}

export interface OopcPlanTerms {
  services: Readonly<Record<BenefitService, ServiceTerms>>;
  deductibles: Limits;
  moops: Limits;
  /** `SpecialtyDrugMaximumCoinsurance`: the most coinsurance per specialty prescription, $; null = no cap. */
  specialtyDrugMaxCoinsurance: number | null;
  /** `InpatientCopaymentMaximumDays`: days a per-day inpatient copay is charged; null = every day. */
  inpatientCopayMaxDays: number | null;
  /** `BeginPrimaryCareCostSharingAfterNumberOfVisits`: primary care visits at no cost. */
  primaryCareFreeVisits: number;
  /**
   * `BeginPrimaryCareDeductibleCoinsuranceAfterNumberOfCopays`: primary care visits charged the copay
   * alone, before the deductible applies to the rest.
   */
  primaryCareCopaysBeforeDeductible: number;
}
