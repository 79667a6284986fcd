import { applyCredit, creditOn, premiumAfterCredit } from '../eligibility/aptc.js';
import { csrVariantForPlan, type CsrOverride } from '../eligibility/csr.js';
import type { HouseholdEligibility } from '../household/household-eligibility.js';
import type { Member, SettledHousehold } from '../household/household.js';
import type { MarketPlan } from '../market/county-market.js';
import type { Cents } from '../pricing/money.js';
import type { HouseholdPremium } from '../pricing/premium.js';
import type { CsrVariant } from '../store/plan-detail.js';
import type { IneligibleReason } from '../household/enrollment-rules.js';
import { HouseholdPricer, type PlanSums } from './household-pricer.js';
import type { ListTerms } from './rate-matrix.js';
import type { PlanOopc } from './oopc/plan-oopc.js';
import { creditable } from './rating-rules.js';
import { YearlyCost, type OopcRangeField } from './yearly-cost.js';

/** `premium_unavailable` when the request names nobody: a sum over no one is no premium of $0. */
const NO_HOUSEHOLD = 'no household: give household.people (an age or dob each) to price the plan';
const NO_ENROLLEE =
  'nobody enrols: every person of household.people has other minimum essential coverage (has_mec)';

/** Why a plan has no premium for the household, in words (the answer's `premium_unavailable`). */
function unavailableReason(
  plan: MarketPlan,
  premium: HouseholdPremium & { available: false },
  effectiveDate: string,
): string {
  if (plan.rateSource === 'none') return 'no rates are loaded for this plan in the rating area';
  const first = premium.missing[0];
  // No member's row is missing: the plan has no rates in force that day (`ratesOn`).
  if (!first) return `no rate of this plan is in force on the effective date ${effectiveDate}`;
  const who = `household.people[${first.index}]`;
  if (plan.rateSource === 'landscape' && first.tobacco) {
    return `${who} is rated as a tobacco user and the QHP Landscape file publishes non-tobacco premiums only`;
  }
  return first.reason === 'no-tier-factor'
    ? `no family tier fits the covered members (${who})`
    : `no rate for age band "${first.ageKey}"${first.tobacco ? ' (tobacco user)' : ''} in the rating area (${who})`;
}

/**
 * A plan priced for the household, with the credit applied: the quote of one plan, in the variant the
 * household sees, for one household.
 */
export interface PricedPlan {
  plan: MarketPlan;
  /** The cost-sharing variant the household sees (csr.ts). */
  csr: CsrVariant;
  premium: HouseholdPremium;
  credit: Cents;
  premiumWithCredit: Cents;
  /** Why there is no premium (`premium_unavailable`); set exactly when `premium` is unavailable. */
  unavailable?: string;
  /** Who of the household the issuer's business rules refuse (`is_ineligible`); empty when none. */
  ineligible: readonly IneligibleReason[];
  /** The household's estimated yearly out-of-pocket cost in the variant `csr` (`oopc`; -1 with a reason). */
  oopc: PlanOopc;
  /** Our range around it, when the request asks for it (`oopc_range`); null when there is no estimate. */
  oopcRange?: OopcRangeField | null;
}

/** A plan's sums with the credit applied (`CreditPricer.quick`), cents. */
export interface CreditedSums extends PlanSums {
  credit: Cents;
  premiumWithCredit: Cents;
}

/**
 * A household's plans priced and credited one at a time: the variant each shows, its premium (`price`, or
 * the allocation-free `quick` that searches use for most plans), and the credit of its eligibility.
 */
export class CreditPricer {
  readonly pricer: HouseholdPricer;
  private readonly aptc: Cents;
  /** Why nobody is priced: no people, or everyone has other coverage (`has_mec`) and so does not enrol. */
  private readonly nobody: string | undefined;
  private readonly silverCsr: CsrVariant;
  private readonly otherCsr: CsrVariant;

  constructor(
    year: number,
    private readonly household: SettledHousehold,
    eligibility: HouseholdEligibility,
    csrOverride: CsrOverride | undefined,
    /** The household's yearly-cost estimator, when the caller has one already (priced-context.ts). */
    readonly yearly: YearlyCost = new YearlyCost(household, year),
  ) {
    const eligibleOf = (m: Member) => eligibility.people[m.index]?.aptcEligible ?? false;
    this.pricer = new HouseholdPricer(year, household, household.members, eligibleOf);
    this.aptc = eligibility.aptc.aptc;
    this.nobody =
      household.members.length === 0
        ? NO_HOUSEHOLD
        : household.members.every((m) => m.input.has_mec)
          ? NO_ENROLLEE
          : undefined;
    // The variant depends on the metal level only as silver or not (csr.ts).
    this.silverCsr = csrVariantForPlan(eligibility.csr, 'Silver', csrOverride);
    this.otherCsr = csrVariantForPlan(eligibility.csr, 'Gold', csrOverride);
  }

  /** The cost-sharing variant of `plan` the household sees. */
  csrFor(plan: MarketPlan): CsrVariant {
    return plan.metalLevel === 'Silver' ? this.silverCsr : this.otherCsr;
  }

  /** The plan priced in full, with the reason when it has no premium. */
  full(plan: MarketPlan): PricedPlan {
    const csr = this.csrFor(plan);
    const ineligible = this.pricer.ineligible(plan);
    const oopc = this.yearly.of(plan, csr);
    if (this.nobody) {
      const premium: HouseholdPremium = { available: false, missing: [] };
      return {
        plan,
        csr,
        premium,
        credit: 0,
        premiumWithCredit: 0,
        unavailable: this.nobody,
        ineligible,
        oopc,
      };
    }
    const premium = this.pricer.price(plan);
    if (!premium.available) {
      const unavailable = unavailableReason(plan, premium, this.household.effectiveDate);
      return { plan, csr, premium, credit: 0, premiumWithCredit: 0, unavailable, ineligible, oopc };
    }
    const { credit, premiumWithCredit } = applyCredit(this.aptc, {
      premium: premium.premium,
      aptcEligiblePremium: premium.aptcEligiblePremium,
      catastrophic: !creditable(plan),
    });
    return { plan, csr, premium, credit, premiumWithCredit, ineligible, oopc };
  }

  /** `full`'s figures into `out` without allocating; false when the plan needs `full` (HouseholdPricer.quick). */
  quick(terms: ListTerms, i: number, out: CreditedSums): boolean {
    if (this.nobody || !this.pricer.quick(terms, i, out)) return false;
    out.credit = creditOn(this.aptc, out.aptcEligiblePremium, terms.creditable[i] !== 1);
    out.premiumWithCredit = premiumAfterCredit(out.premium, out.credit);
    return true;
  }
}

/** Prices every plan of the list for the household and applies the credit of its eligibility. */
export function priceAll(
  plans: readonly MarketPlan[],
  year: number,
  household: SettledHousehold,
  eligibility: HouseholdEligibility,
  csrOverride: CsrOverride | undefined,
  yearly?: YearlyCost,
): PricedPlan[] {
  const pricer = new CreditPricer(year, household, eligibility, csrOverride, yearly);
  return plans.map((plan) => pricer.full(plan));
}

/** A priced plan with our out-of-pocket range (`oopc_range: true` in the request). */
export function withOopcRange(priced: PricedPlan, yearly: YearlyCost): PricedPlan {
  return { ...priced, oopcRange: yearly.range(priced.plan, priced.csr) };
}
