import { centsToDollars } from '../pricing/money.js';
import type { PricedPlan } from './credit-pricer.js';

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
  /** The yearly out-of-pocket estimate: not computed (the CMS model is not public), always -1. */
  oopc: number;
  is_ineligible: boolean;
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
      oopc: -1,
      is_ineligible: false,
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
    oopc: -1,
    is_ineligible: false,
    rate_source: plan.rateSource,
  };
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
    `,"oopc":${f.oopc},"is_ineligible":${f.is_ineligible},"rate_source":${JSON.stringify(f.rate_source)}}`
  );
}

/** A priced plan as POST /plans and POST /plans/{plan_id} show it: its details and premium fields. */
export function pricedPlanObject(priced: PricedPlan) {
  return { ...priced.plan.details, ...premiumFields(priced) };
}
