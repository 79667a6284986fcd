import { centsToDollars } from '../pricing/money.js';
import type { IneligibleReason } from '../household/enrollment-rules.js';
import type { PricedPlan } from './credit-pricer.js';
import type { OopcRangeField } from './yearly-cost.js';

/**
 * How a quote is written in an answer: the household's premium fields of a priced plan, as an object
 * (POST /plans, POST /plans/{plan_id}) or as JSON text spliced after a search answer's cached plan
 * (search/render.ts). A figure added to the quote (the yearly out-of-pocket estimate, `oopc`) is written
 * here, in both forms.
 */

export interface PremiumFields {
  premium: number | null;
  premium_w_credit: number | null;
  ehb_premium: number | null;
  pediatric_ehb_premium: number | null;
  aptc_eligible_premium: number | null;
  /** Present only when the plan has no premium for the household: why (never an invented rate). */
  premium_unavailable?: string;
  /** The estimated yearly out-of-pocket cost, $ to the cent; -1 when not computed (docs/decisions.md#oopc-method). */
  oopc: number;
  /** Our addition, present when the request asks (`oopc_range`): the range around it (docs/decisions.md#oopc-range). */
  oopc_range?: OopcRangeField | null;
  /** True when the issuer's business rules refuse someone of the household (docs/decisions.md#enrollment-rules). */
  is_ineligible: boolean;
  /** Our addition, present only when `is_ineligible`: who is refused, by which rule, and why. */
  ineligible_reasons?: IneligibleReason[];
  rate_source: string;
}

/** The household's premium fields of a priced plan, dollars with two decimals. */
export function premiumFields(priced: PricedPlan): PremiumFields {
  const { premium, plan } = priced;
  if (!premium.available) {
    return {
      premium: null,
      premium_w_credit: null,
      ehb_premium: null,
      pediatric_ehb_premium: null,
      aptc_eligible_premium: null,
      premium_unavailable: priced.unavailable ?? 'no premium for this household',
      ...yearlyCost(priced),
      ...eligibility(priced.ineligible),
      rate_source: plan.rateSource,
    };
  }
  return {
    premium: centsToDollars(premium.premium),
    premium_w_credit: centsToDollars(priced.premiumWithCredit),
    ehb_premium: centsToDollars(premium.ehbPremium),
    pediatric_ehb_premium:
      premium.pediatricEhbPremium === null ? null : centsToDollars(premium.pediatricEhbPremium),
    aptc_eligible_premium: centsToDollars(premium.aptcEligiblePremium),
    ...yearlyCost(priced),
    ...eligibility(priced.ineligible),
    rate_source: plan.rateSource,
  };
}

/** `oopc`, and `oopc_range` when the request asked for it. */
function yearlyCost(priced: PricedPlan): { oopc: number; oopc_range?: OopcRangeField | null } {
  return priced.oopcRange === undefined
    ? { oopc: priced.oopc.oopc }
    : { oopc: priced.oopc.oopc, oopc_range: priced.oopcRange };
}

/** `is_ineligible`, and `ineligible_reasons` when it is true. */
function eligibility(reasons: readonly IneligibleReason[]) {
  return reasons.length === 0
    ? { is_ineligible: false }
    : { is_ineligible: true, ineligible_reasons: [...reasons] };
}

const money = (value: number | null) => (value === null ? 'null' : String(value));

/** `premiumFields` as JSON text after a comma, closing the plan's object (the same fields, in order). */
export function premiumFieldsJson(priced: PricedPlan): string {
  const f = premiumFields(priced);
  const unavailable =
    f.premium_unavailable === undefined
      ? ''
      : `,"premium_unavailable":${JSON.stringify(f.premium_unavailable)}`;
  return (
    `,"premium":${money(f.premium)},"premium_w_credit":${money(f.premium_w_credit)}` +
    `,"ehb_premium":${money(f.ehb_premium)},"pediatric_ehb_premium":${money(f.pediatric_ehb_premium)}` +
    `,"aptc_eligible_premium":${money(f.aptc_eligible_premium)}${unavailable}` +
    `,"oopc":${f.oopc}` +
    (f.oopc_range !== undefined ? `,"oopc_range":${JSON.stringify(f.oopc_range)}` : '') +
    `,"is_ineligible":${f.is_ineligible}` +
    (f.ineligible_reasons ? `,"ineligible_reasons":${JSON.stringify(f.ineligible_reasons)}` : '') +
    `,"rate_source":${JSON.stringify(f.rate_source)}}`
  );
}

/** A priced plan as POST /plans and POST /plans/{plan_id} show it: its details and premium fields. */
export function pricedPlanObject(priced: PricedPlan) {
  return { ...priced.plan.details, ...premiumFields(priced) };
}
