import { centsToDollars } from '../pricing/money.js';
import type { CostLimit, CsrVariant } from '../store/plan-detail.js';
import type { PlanDetails } from '../store/plan-details.js';
import type { PricedPlan } from './pricing.js';
import type { MarketPlan } from '../market/county-market.js';
import { perObject } from '../../shared/memo.js';

/**
 * How a priced plan is written. Search answers carry the CMS document's reduced plan: the "top" benefits
 * (ER visit, generic drugs, specialist, primary care, dental) and the In-Network and Combined tiers of
 * deductibles and MOOPs, of the one CSR variant the household sees. The unchanging part of each (plan,
 * variant) is serialised once per county market and spliced into the answer with the household's premium
 * fields, so a search costs its pricing, not a re-serialisation of a hundred plans.
 */

const TOP_BENEFITS = new Set([
  'EMERGENCY_ROOM_SERVICES',
  'GENERIC_DRUGS',
  'SPECIALIST_VISIT',
  'PRIMARY_CARE_VISIT_TO_TREAT_AN_INJURY_OR_ILLNESS',
  'ROUTINE_DENTAL_SERVICES_ADULT',
  'DENTAL_CHECK_UP_FOR_CHILDREN',
]);
const SEARCH_TIERS = new Set(['In-Network', 'Combined In-Out of Network']);
const STANDARD: CsrVariant = 'Exchange variant (no CSR)';

function showable(details: PlanDetails, csr: CsrVariant): CsrVariant {
  if (csr === STANDARD) return csr;
  const has = (rows: CostLimit[]) => rows.some((r) => r.csr === csr);
  return has(details.deductibles) || has(details.moops) ? csr : STANDARD;
}

/** What a search needs of a plan's variant, worked out once per county market (details are cached). */
interface VariantFacts {
  shown: CsrVariant;
  deductible: number | null;
}
const facts = perObject<PlanDetails, CsrVariant, VariantFacts>();

function variantFacts(details: PlanDetails, csr: CsrVariant): VariantFacts {
  return facts(details, csr, () => {
    const shown = showable(details, csr);
    return { shown, deductible: individualDeductible(details, shown) };
  });
}

/** The variant the plan shows: the household's, when the plan publishes cost sharing for it. */
function shownVariant(details: PlanDetails, csr: CsrVariant): CsrVariant {
  return variantFacts(details, csr).shown;
}

/** The individual in-network deductible of the variant the plan shows for `csr`, $. */
export function shownDeductible(details: PlanDetails, csr: CsrVariant): number | null {
  return variantFacts(details, csr).deductible;
}

const deductiblesByList = perObject<readonly MarketPlan[], CsrVariant, readonly (number | null)[]>();

/** `shownDeductible` of every plan of a list for `csr`, in its order (kept per list: lists live in cached markets). */
export function shownDeductibles(plans: readonly MarketPlan[], csr: CsrVariant): readonly (number | null)[] {
  return deductiblesByList(plans, csr, () => plans.map((plan) => shownDeductible(plan.details, csr)));
}

/** The plan of a search answer without premiums: the reduced details of one variant. */
function searchPlanBase(details: PlanDetails, csr: CsrVariant): Record<string, unknown> {
  const { benefits, deductibles, moops, ...rest } = details;
  delete rest.sbcs;
  const limits = (rows: CostLimit[]) => rows.filter((r) => r.csr === csr && SEARCH_TIERS.has(r.network_tier));
  return {
    ...rest,
    deductibles: limits(deductibles),
    moops: limits(moops),
    benefits: benefits
      .filter((b) => TOP_BENEFITS.has(b.type))
      .map((b) => ({ ...b, cost_sharings: b.cost_sharings.filter((c) => c.csr === csr) })),
  };
}

/** The individual in-network deductible of the variant (combined medical and drug when published), $. */
function individualDeductible(details: PlanDetails, csr: CsrVariant): number | null {
  const rows = details.deductibles.filter(
    (d) =>
      d.csr === csr && d.network_tier === 'In-Network' && d.family_cost === 'Individual' && d.amount !== null,
  );
  const combined = rows.find((d) => /combined/i.test(d.type));
  return (combined ?? rows[0])?.amount ?? null;
}

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

/** Per (plan, variant): the reduced plan as UTF-8 JSON without its closing brace, encoded once. */
const fragments = perObject<PlanDetails, CsrVariant, Buffer>();

function baseFragment(details: PlanDetails, csr: CsrVariant): Buffer {
  return fragments(details, csr, () =>
    Buffer.from(JSON.stringify(searchPlanBase(details, csr)).slice(0, -1), 'utf8'),
  );
}

/**
 * A search answer's plan as JSON in two parts: the cached reduced plan (UTF-8, without its closing brace),
 * then `,` and the household's premium fields with the closing brace. The answer is the concatenation of
 * such parts: a hundred plans' unchanging text is copied, never serialised or re-encoded per request.
 */
export function searchPlanJson(priced: PricedPlan): SearchPlanJson {
  const csr = shownVariant(priced.plan.details, priced.csr);
  return { base: baseFragment(priced.plan.details, csr), premiums: premiumFieldsJson(priced) };
}

export interface SearchPlanJson {
  base: Buffer;
  premiums: string;
}

const money = (value: number | null) => (value === null ? 'null' : String(value));

/** `premiumFields` as JSON text after a comma, closing the plan's object (the same fields, in order). */
function premiumFieldsJson(priced: PricedPlan): string {
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

const OPEN = '{"plans":[';

/**
 * The search answer: `{"plans":[…],` then the rest of the envelope (`rest` is a JSON object's text), as
 * UTF-8 in one buffer of the exact size, the parts written into it in place.
 */
export function searchAnswer(plans: readonly SearchPlanJson[], rest: string): Buffer {
  const tail = `],${rest.slice(1)}`;
  let size = OPEN.length + Buffer.byteLength(tail) + Math.max(0, plans.length - 1);
  for (const plan of plans) size += plan.base.length + Buffer.byteLength(plan.premiums);
  const answer = answerBytes(size);
  let at = answer.write(OPEN, 0, 'latin1');
  plans.forEach((plan, i) => {
    if (i > 0) answer[at++] = COMMA;
    at += plan.base.copy(answer, at);
    at += answer.write(plan.premiums, at, 'utf8');
  });
  at += answer.write(tail, at, 'utf8');
  if (at !== size) throw new Error(`search answer: wrote ${at} bytes of ${size}`);
  return answer;
}
const COMMA = 0x2c;

/**
 * Answers are cut from 256 KiB slabs, as Node's own Buffer pool does for small buffers: one allocation per
 * some eight answers of 31 kB instead of one each. A slab is never written twice — when it is used up a new
 * one is taken and the old is freed by the collector once no answer cut from it is still being sent (a
 * client that stops reading keeps one slab, 256 KiB, alive until its connection ends). Answers over a
 * quarter of a slab get a buffer of their own.
 */
const SLAB_BYTES = 256 * 1024;
let slab = Buffer.allocUnsafeSlow(0);
let slabUsed = 0;

function answerBytes(size: number): Buffer {
  if (size > SLAB_BYTES / 4) return Buffer.allocUnsafe(size);
  if (slabUsed + size > slab.length) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    slabUsed = 0;
  }
  const bytes = slab.subarray(slabUsed, slabUsed + size);
  // The next answer starts on an 8-byte boundary.
  slabUsed += (size + 7) & ~7;
  return bytes;
}
