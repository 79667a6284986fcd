import type { PricedPlan } from '../quote/credit-pricer.js';
import { premiumFieldsJson } from '../quote/premium-fields.js';
import { shownVariant } from '../quote/shown-variant.js';
import type { CostLimit, CsrVariant } from '../store/plan-detail.js';
import type { PlanDetails } from '../store/plan-details.js';
import { perObject } from '../../shared/memo.js';

/**
 * How a search answer is written. Search answers carry the CMS document's reduced plan: the "top" benefits
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
