import { perObject } from '../../../shared/memo.js';
import { Random } from '../../../shared/random.js';
import { roundHalfAwayFromZero } from '../../pricing/money.js';
import type { EstimateOptions } from './estimate.js';
import { personCosts } from './person-costs.js';
import type { OopcPlanTerms } from './plan-terms.js';
import { spendLevels } from './spend-levels.js';
import { tableUse, type AgeGroup, type ServiceUse, type Sex, type UtilizationLevel } from './utilization.js';

/**
 * Beyond CMS (docs/decisions.md#oopc-range): CMS prices one representative person per level, a decile
 * point (Medium is decile 5.5, a median person). Costs are skewed, so a point understates what a plan
 * costs on average, most for high-deductible plans. Here each person's level is a band of deciles instead,
 * every decile in it as likely (deciles are equal tenths of people), and the household's yearly cost is
 * worked out for every combination of its members' deciles: its expected value and its 10th and 90th
 * percentiles.
 *
 * The bands split the ten deciles: Low 1–3, Medium 4–7, High 8–10. Medium's band is centred on CMS's 5.5;
 * Low holds CMS's decile 3 (and the pooled row males 18–25 are priced at), High holds CMS's 10.
 */
export const UTILIZATION_BANDS: Readonly<Record<UtilizationLevel, readonly number[]>> = {
  Low: [1, 2, 3],
  Medium: [4, 5, 6, 7],
  High: [8, 9, 10],
};

/**
 * Above this many combinations of deciles (a household of six at Medium has 4^6 = 4,096), a fixed-size
 * deterministic sample of them is priced: a request for 100 plans then runs the model at most about
 * 100,000 times, a fraction of a second, however large the household.
 */
export const MAX_COMBINATIONS = 1024;

export interface BandPerson {
  ageGroup: AgeGroup;
  sex: Sex;
  level: UtilizationLevel;
}

export interface OopcRange {
  /** The household's expected yearly out-of-pocket cost over its members' bands, $ (to the cent). */
  expected: number;
  /** 10th and 90th percentiles of that cost over the combinations, $ (to the cent). */
  p10: number;
  p90: number;
  /** Combinations priced (distinct table rows per member, multiplied). */
  combinations: number;
  /** True when there were more than `MAX_COMBINATIONS` and a sample of them was priced. */
  sampled: boolean;
}

/** A member's band as distinct table rows with their share (pooled low deciles are one row). */
function choices(person: BandPerson): { use: ServiceUse; weight: number }[] {
  const deciles = UTILIZATION_BANDS[person.level];
  const byUse = new Map<ServiceUse, number>();
  for (const decile of deciles) {
    const use = tableUse(person.ageGroup, person.sex, decile);
    byUse.set(use, (byUse.get(use) ?? 0) + 1 / deciles.length);
  }
  return [...byUse].map(([use, weight]) => ({ use, weight }));
}

/** The lower quantile of a weighted sample: the least value whose cumulative weight reaches `q`. */
function quantile(sorted: readonly { value: number; weight: number }[], q: number): number {
  let cumulative = 0;
  for (const item of sorted) {
    cumulative += item.weight;
    if (cumulative >= q - 1e-12) return item.value;
  }
  return sorted[sorted.length - 1]!.value;
}

const cents = (dollars: number) => roundHalfAwayFromZero(dollars * 100) / 100;

function compute(
  terms: OopcPlanTerms,
  people: readonly BandPerson[],
  options: EstimateOptions,
): OopcRange | null {
  const cost = { allowedCostMultiplier: options.allowedCostMultiplier ?? 1 };
  const members = people.map(choices);
  const total = members.reduce((n, m) => n * m.length, 1);
  const sampled = total > MAX_COMBINATIONS;
  const outcomes: { value: number; weight: number }[] = [];
  const price = (picks: readonly number[], weight: number): boolean => {
    const persons = picks.map((pick, p) => personCosts(terms, members[p]![pick]!.use, cost));
    const result = spendLevels(terms, persons, options.accrual);
    if (!result) return false;
    outcomes.push({ value: result.oopc, weight });
    return true;
  };
  if (!sampled) {
    // Every combination, as an odometer over the members' choices.
    const picks = members.map(() => 0);
    for (let n = 0; n < total; n++) {
      const weight = picks.reduce((w, pick, p) => w * members[p]![pick]!.weight, 1);
      if (!price(picks, weight)) return null;
      for (let p = 0; p < picks.length; p++) {
        if (++picks[p]! < members[p]!.length) break;
        picks[p] = 0;
      }
    }
  } else {
    // Each member's decile drawn with its share; the same household draws the same sample every time.
    const random = new Random(
      MAX_COMBINATIONS,
      people.map((p) => `${p.ageGroup}${p.sex}${p.level}`).join('|'),
    );
    for (let n = 0; n < MAX_COMBINATIONS; n++) {
      const picks = members.map((choicesOf) => {
        let r = random.next();
        for (let i = 0; i < choicesOf.length; i++) {
          r -= choicesOf[i]!.weight;
          if (r < 0) return i;
        }
        return choicesOf.length - 1;
      });
      if (!price(picks, 1 / MAX_COMBINATIONS)) return null;
    }
  }
  outcomes.sort((a, b) => a.value - b.value);
  const expected = outcomes.reduce((sum, o) => sum + o.value * o.weight, 0);
  return {
    expected: cents(expected),
    p10: cents(quantile(outcomes, 0.1)),
    p90: cents(quantile(outcomes, 0.9)),
    combinations: sampled ? MAX_COMBINATIONS : total,
    sampled,
  };
}

const kept = perObject<OopcPlanTerms, string, OopcRange | null>(64);

/** The household's cost range under a plan variant; undefined when some combination does not settle. */
export function bandRange(
  terms: OopcPlanTerms,
  people: readonly BandPerson[],
  options: EstimateOptions = {},
): OopcRange | undefined {
  if (options.allowedCostMultiplier !== undefined && options.allowedCostMultiplier !== 1) {
    return compute(terms, people, options) ?? undefined;
  }
  // The cost does not depend on the members' order: one order, one cache entry, one sample.
  const name = (p: BandPerson) => `${p.ageGroup}${p.sex}${p.level}`;
  const ordered = [...people].sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
  const key = `${options.accrual ?? ''}|${ordered.map(name).join(',')}`;
  return kept(terms, key, () => compute(terms, ordered, options)) ?? undefined;
}
