import { centsToDollars, roundHalfAwayFromZero } from '../pricing/money.js';
import { pricedPlanOf, type SearchRow } from './search.js';

/**
 * POST /plans/search/stats: per metal level of the matching rows, how many, the premium after credit
 * (min, max, mean over the plans with a premium for the household; null with the reason when none) and
 * the quality ratings. `oopc`: min, max and mean of the yearly out-of-pocket estimates of the plans that have
 * one (-1 each when none has); `simple_choice` is 0 (no loaded file marks such plans).
 * `unavailable`: why no plan of the answer has a premium, when the data says (quote/data-notes.ts).
 */
export function metalStats(rows: readonly SearchRow[], unavailable: string | undefined) {
  const byMetal = new Map<string, SearchRow[]>();
  for (const row of rows) {
    const metal = row.plan.metalLevel;
    byMetal.set(metal, [...(byMetal.get(metal) ?? []), row]);
  }
  const stars = (list: SearchRow[], n: number) => list.filter((r) => r.plan.qualityRating === n).length;
  return [...byMetal].map(([metal, list]) => {
    const premiums = list.flatMap((r) =>
      r.premiumWithCredit === null ? [] : [pricedPlanOf(r).premiumWithCredit],
    );
    const sum = premiums.reduce((a, b) => a + b, 0);
    return {
      metal_level: metal,
      total: list.length,
      simple_choice: 0,
      premiums:
        premiums.length === 0
          ? { min: null, max: null, mean: null }
          : {
              min: centsToDollars(Math.min(...premiums)),
              max: centsToDollars(Math.max(...premiums)),
              mean: centsToDollars(Math.round(sum / premiums.length)),
            },
      ...(premiums.length === 0
        ? {
            premium_unavailable: unavailable ?? 'no plan of this metal level has a premium for the household',
          }
        : {}),
      oopc: oopcStats(list),
      quality_ratings: {
        five_star_rating: stars(list, 5),
        four_star_rating: stars(list, 4),
        three_star_rating: stars(list, 3),
        two_star_rating: stars(list, 2),
        one_star_rating: stars(list, 1),
      },
    };
  });
}

/** min, max and mean of the estimates, $ to the cent; -1 each when no plan of the list has one. */
function oopcStats(list: readonly SearchRow[]): { min: number; max: number; mean: number } {
  const cents = list.flatMap((r) => (r.oopc.computed ? [roundHalfAwayFromZero(r.oopc.oopc * 100)] : []));
  if (cents.length === 0) return { min: -1, max: -1, mean: -1 };
  const sum = cents.reduce((a, b) => a + b, 0);
  return {
    min: centsToDollars(Math.min(...cents)),
    max: centsToDollars(Math.max(...cents)),
    mean: centsToDollars(roundHalfAwayFromZero(sum / cents.length)),
  };
}
