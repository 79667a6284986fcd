import type { MarketPlan } from '../market/county-market.js';
import { rateAgeKey } from '../pricing/age.js';
import { scaledShare } from '../pricing/money.js';
import { perObject } from '../../shared/memo.js';
import { creditable, LAST_BAND_AGE, rulesOf, tierStateOf } from './rating-rules.js';

/**
 * What pricing needs of a list of plans (a county market's) on one effective date, worked out once per
 * list and date and shared by every household priced against it. The rates form a matrix by age band,
 * then plan — `individual[age × plans + i]`, cents, -1 where plan `i` has no row — so a member's rates
 * for all the plans lie side by side; `tobacco` holds a user's rate (the tobacco rate, or the individual
 * rate on a `No Preference` row). `ratedPremium` stays the reference and takes over for any plan the
 * matrix does not price.
 */
export interface ListTerms {
  plans: readonly MarketPlan[];
  individual: Int32Array;
  tobacco: Int32Array;
  /** `EHBPercentTotalPremium` in billionths; landscape files of 2014–2015 publish none: the whole premium counts (see README). */
  ehbShare: Float64Array;
  /** 1 where the credit can pay for the plan (`creditable`). */
  creditable: Uint8Array;
  /** `rulesOf(plan)`: who is rated how. */
  rules: Int32Array;
  /**
   * 1 where only the reference path prices the plan: NY/VT family tiers, no rates in force that day, or a
   * pediatric dental EHB share to take.
   */
  reference: Uint8Array;
  /** 1 where the issuer has a cohabitation rule (Business Rules PUF). */
  cohabitationRule: Uint8Array;
  /** Indexes of the silver medical plans of the individual market: the plans a benchmark is chosen from. */
  silver: number[];
}

/** Ages 0–64: the Rate PUF bands a person is rated in (`rateAgeKey`); older ages share the last. */
const AGES = LAST_BAND_AGE + 1;

function readTerms(plans: readonly MarketPlan[], date: string, year: number): ListTerms {
  const n = plans.length;
  const terms: ListTerms = {
    plans,
    individual: new Int32Array(AGES * n).fill(-1),
    tobacco: new Int32Array(AGES * n).fill(-1),
    ehbShare: new Float64Array(n),
    creditable: new Uint8Array(n),
    rules: new Int32Array(n),
    reference: new Uint8Array(n),
    cohabitationRule: new Uint8Array(n),
    silver: [],
  };
  const keys = Array.from({ length: AGES }, (_, age) => rateAgeKey(age, year));
  plans.forEach((plan, i) => {
    const lookup = tierStateOf(plan) === null ? plan.ratesOn(date) : undefined;
    if (lookup) {
      for (let age = 0; age < AGES; age += 1) {
        const plain = lookup(keys[age]!, false);
        const user = lookup(keys[age]!, true);
        if (plain) terms.individual[age * n + i] = plain.individualRate;
        if (user) terms.tobacco[age * n + i] = user.tobaccoRate ?? user.individualRate;
      }
    }
    // A dental plan's pediatric EHB share is taken of its children's premiums: priced member by member.
    terms.reference[i] = lookup && plan.pediatricDentalShare === null ? 0 : 1;
    terms.ehbShare[i] = scaledShare(plan.ehbShare ?? 1);
    terms.creditable[i] = creditable(plan) ? 1 : 0;
    terms.rules[i] = rulesOf(plan);
    terms.cohabitationRule[i] = plan.cohabitationRequired ? 1 : 0;
    if (plan.metalLevel === 'Silver' && !plan.dental && plan.market === 'Individual') terms.silver.push(i);
  });
  return terms;
}

/** Effective dates whose terms are kept per list (a year has at most a few rate periods). */
const MAX_TERM_DATES = 8;
const termsByList = perObject<readonly MarketPlan[], string, ListTerms>(MAX_TERM_DATES);

/** The terms of a list of plans on a date, cached per list (lists live in cached county markets). */
export function termsOfAll(plans: readonly MarketPlan[], date: string, year: number): ListTerms {
  return termsByList(plans, `${year}|${date}`, () => readTerms(plans, date, year));
}
