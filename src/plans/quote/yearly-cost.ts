import { roundHalfAwayFromZero } from '../pricing/money.js';
import type { SettledHousehold } from '../household/household.js';
import type { MarketPlan } from '../market/county-market.js';
import type { CsrVariant } from '../store/plan-detail.js';
import {
  oopcHousehold,
  planOopc,
  planOopcRange,
  type OopcHousehold,
  type PlanOopc,
} from './oopc/plan-oopc.js';

/**
 * A household's estimated yearly out-of-pocket cost on each plan of a quote (CMS's `oopc`,
 * docs/decisions.md#oopc-method), and our range around it (docs/decisions.md#oopc-range). The members who
 * enrol (not `has_mec`) are placed in the model's table once per request; each plan is then priced in the
 * variant the household is quoted in, and kept per plan variant and kind of household (oopc/plan-oopc.ts).
 */

/** `oopc_range` of a plan (our addition): expected cost over the members' decile bands, 10th and 90th percentiles. */
export interface OopcRangeField {
  expected: number;
  p10: number;
  p90: number;
  combinations: number;
  sampled: boolean;
}

export class YearlyCost {
  readonly household: OopcHousehold;
  /** Someone of the household named a utilization level: a -1 for want of the others' is worth a note. */
  readonly asked: boolean;

  constructor(household: SettledHousehold, year: number) {
    const enrolling = household.members.filter((m) => !m.input.has_mec);
    this.household = oopcHousehold(
      enrolling.map((m) => ({
        index: m.index,
        age: m.age,
        gender: m.input.gender ?? null,
        utilization: m.input.utilization_level ?? m.input.utilization ?? null,
      })),
      year,
    );
    this.asked = enrolling.some((m) => (m.input.utilization_level ?? m.input.utilization) !== undefined);
  }

  /** The estimate of `plan` in variant `csr` (dollars to the cent, or -1 with the reason). */
  of(plan: MarketPlan, csr: CsrVariant): PlanOopc {
    return planOopc(this.household, plan.details, csr);
  }

  /** Our range of `plan` in variant `csr`; null when there is no estimate. */
  range(plan: MarketPlan, csr: CsrVariant): OopcRangeField | null {
    const range = planOopcRange(this.household, plan.details, csr);
    if (!range.computed) return null;
    const { expected, p10, p90, combinations, sampled } = range;
    return { expected, p10, p90, combinations, sampled };
  }
}

/** 12 × the monthly premium after credit + the yearly out-of-pocket estimate, $; null when either is unknown. */
export function totalCosts(premiumWithCredit: number | null, oopc: PlanOopc): number | null {
  if (premiumWithCredit === null || !oopc.computed) return null;
  return roundHalfAwayFromZero((premiumWithCredit * 12 + oopc.oopc) * 100) / 100;
}

/**
 * `data_notes.oopc`: why plans of the answer have no estimate, and what estimates assumed. Said when the
 * data lacks what the estimate needs (no cost sharing loaded for a plan's variant), when estimates read
 * the plan's data in a way CMS's model does not (a phrase it does not know, a benefit the plan does not
 * list: docs/decisions.md#oopc-method), or when the household asked for estimates (someone named a
 * utilization level) but a member lacks what the model needs; a household that names no level gets -1
 * everywhere, as from CMS, without a note.
 */
export function oopcNote(estimates: readonly PlanOopc[], yearly: YearlyCost): string | undefined {
  const household = yearly.household;
  if (!household.ok) {
    if (household.unavailable.code !== 'person-incomplete' || !yearly.asked) return undefined;
    return `${household.unavailable.reason}, so every plan's oopc is -1.`;
  }
  const counts = new Map<string, { reason: string; plans: number }>();
  // What estimates assumed where a plan's data did not say (an unknown phrase, a benefit not listed…).
  const assumed = new Map<string, { example: string; plans: number }>();
  for (const estimate of estimates) {
    if (estimate.computed) {
      for (const code of new Set(estimate.notes.map((n) => n.code))) {
        const known = assumed.get(code);
        if (known) known.plans += 1;
        else assumed.set(code, { example: estimate.notes.find((n) => n.code === code)!.message, plans: 1 });
      }
      continue;
    }
    const known = counts.get(estimate.code);
    if (known) known.plans += 1;
    else counts.set(estimate.code, { reason: estimate.reason, plans: 1 });
  }
  const sentences: string[] = [];
  if (counts.size > 0) {
    const parts = [...counts.values()].map(({ reason, plans }) => `${plans} plan(s): ${reason}`);
    sentences.push(
      `No out-of-pocket estimate (oopc -1) for ${parts.join('; ')}. An estimate is never made of defaults.`,
    );
  }
  if (assumed.size > 0) {
    const parts = [...assumed.values()].map(({ example, plans }) => `${plans} plan(s), e.g. ${example}`);
    sentences.push(`Estimated with what the plan's data did not state read as follows: ${parts.join('; ')}.`);
  }
  return sentences.length > 0 ? sentences.join(' ') : undefined;
}
