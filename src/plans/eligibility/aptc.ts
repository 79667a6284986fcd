import type { Cents } from '../pricing/money.js';
import {
  applicablePercentage,
  expectedContribution,
  type ApplicablePercentage,
  type ExpectedContribution,
} from './applicable-percentage.js';

/** The API's Person fields that bar the credit, with the Medicaid/CHIP answer for the person. */
export interface AptcPerson {
  has_mec?: boolean | null;
  aptc_eligible?: boolean | null;
  isMedicaidChip: boolean;
}

/**
 * Whether a member can be in the credit's coverage family: a month counts only if the member is not
 * eligible for other minimum essential coverage (26 U.S.C. 36B(c)(2)(B); Medicaid and CHIP are MEC,
 * 26 U.S.C. 5000A(f)(1)(A)), so `has_mec` or Medicaid/CHIP-eligible members are out, as is anyone the
 * request marks `aptc_eligible: false`.
 */
export function isAptcEligibleMember(person: AptcPerson): boolean {
  return !person.has_mec && person.aptc_eligible !== false && !person.isMedicaidChip;
}

/**
 * The benchmark: the second-lowest-cost silver plan's premium for the APTC-eligible members, EHB portion
 * (26 U.S.C. 36B(b)(3)(B); 26 CFR 1.36B-3(f)(1), (j)), given the EHB premiums of every silver plan offered
 * to them. Plans with equal premiums count once (the ranking is of premiums:
 * docs/decisions.md#slcsp-benchmark). With one silver plan, that plan (26 CFR 1.36B-3(f)(3)). Undefined with
 * none.
 */
export function secondLowestCost(silverEhbPremiums: readonly Cents[]): Cents | undefined {
  // One pass: the lowest amount, and the lowest of those above it.
  let lowest: Cents | undefined;
  let second: Cents | undefined;
  for (const amount of silverEhbPremiums) {
    if (lowest === undefined || amount < lowest) {
      second = lowest;
      lowest = amount;
    } else if (amount > lowest && (second === undefined || amount < second)) {
      second = amount;
    }
  }
  return second ?? lowest;
}

export interface AptcInput {
  year: number;
  /** Household income, annual cents. */
  income: Cents;
  /** Income as % FPL for the credit (fpl.ts purpose `aptc`, then unemployment-2021.ts `creditFpl`). */
  fplPercent: number;
  /** The benchmark for the APTC-eligible members (`secondLowestCost`), monthly cents. */
  benchmark: Cents | undefined;
  /** Allow the credit below 100 % FPL (applicable-percentage.ts `belowPovertyEligible`). */
  belowPovertyEligible?: boolean;
  /** `aptc_override`, monthly cents: used instead of the computed amount. */
  override?: Cents | null;
}

export type AptcResult =
  | {
      eligible: true;
      /** Monthly APTC, cents. */
      aptc: Cents;
      /** The same before the one rounding of the contribution, in cents (the CMS estimate is unrounded). */
      aptcExact: number;
      applicable: (ApplicablePercentage & { eligible: true }) | null;
      contribution: ExpectedContribution | null;
    }
  | {
      eligible: false;
      aptc: 0;
      aptcExact: 0;
      reason: 'below-100-percent' | 'above-400-percent' | 'unknown-year' | 'no-benchmark';
    };

/**
 * The monthly advance premium tax credit: benchmark − expected monthly contribution, never below zero
 * (26 U.S.C. 36B(b)(2); 26 CFR 1.36B-3(d)). `aptc_override` takes the place of the computation (CMS
 * Marketplace API, PlanSearchRequest).
 */
export function monthlyAptc(input: AptcInput): AptcResult {
  if (input.override !== undefined && input.override !== null) {
    const aptc = Math.max(0, input.override);
    return { eligible: true, aptc, aptcExact: aptc, applicable: null, contribution: null };
  }
  const applicable = applicablePercentage(input.year, input.fplPercent, {
    belowPovertyEligible: input.belowPovertyEligible ?? false,
  });
  if (!applicable.eligible) return { eligible: false, aptc: 0, aptcExact: 0, reason: applicable.reason };
  if (input.benchmark === undefined)
    return { eligible: false, aptc: 0, aptcExact: 0, reason: 'no-benchmark' };
  const contribution = expectedContribution(input.income, applicable.thousandths);
  return {
    eligible: true,
    aptc: Math.max(0, input.benchmark - contribution.monthly),
    aptcExact: Math.max(0, input.benchmark - contribution.monthlyExact),
    applicable,
    contribution,
  };
}

/** A plan's premiums as the credit sees them (premium.ts). */
export interface CreditablePlan {
  premium: Cents;
  aptcEligiblePremium: Cents;
  catastrophic: boolean;
}

/**
 * The credit applied to one plan: `min(APTC, aptc_eligible_premium)` — a credit is at most the premium
 * of the plan for its EHB (26 U.S.C. 36B(b)(2)(A), (b)(3)(D)) — and none for catastrophic plans (36B(c)(3)(A));
 * `premium_w_credit = max(0, premium − credit)` (docs/decisions.md#credit-on-plan).
 */
export function applyCredit(aptc: Cents, plan: CreditablePlan): { credit: Cents; premiumWithCredit: Cents } {
  const credit = creditOn(aptc, plan.aptcEligiblePremium, plan.catastrophic);
  return { credit, premiumWithCredit: premiumAfterCredit(plan.premium, credit) };
}

/** The credit part of `applyCredit`, for callers that keep the figures in place of an object. */
export function creditOn(aptc: Cents, aptcEligiblePremium: Cents, catastrophic: boolean): Cents {
  return catastrophic ? 0 : Math.max(0, Math.min(aptc, aptcEligiblePremium));
}

/** The `premium_w_credit` part of `applyCredit`. */
export function premiumAfterCredit(premium: Cents, credit: Cents): Cents {
  return Math.max(0, premium - credit);
}
