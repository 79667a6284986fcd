import type { DatasetInfo } from '../storage/datasets.js';

/**
 * What a loaded kind needs from other kinds before the service can answer from it, per year. Rates price
 * plans in the rating area of the household's county, read from the latest rating-area table at or before
 * the year (plans/store/rating-areas.ts): without one every priced request of the year fails with 1017.
 * Rates also price only the plans of a Plan Attributes PUF of the same year.
 */
const NEEDS: Readonly<Record<string, readonly Need[]>> = {
  rates: [
    {
      kind: 'rating-areas',
      orEarlier: true,
      effect: 'every priced request (plan search, eligibility estimates, SLCSP) fails with 1017',
      command: (year) => `openenroll ingest rating-areas --year ${year} <county table>`,
    },
    {
      kind: 'plan-attributes',
      orEarlier: false,
      effect: 'the rates price no plan',
      command: () => 'openenroll ingest plan-attributes <Plan Attributes PUF>',
    },
  ],
};

interface Need {
  kind: string;
  /** A dataset of an earlier year serves too (rating-area tables are read at their latest year ≤ Y). */
  orEarlier: boolean;
  effect: string;
  command: (year: number) => string;
}

/**
 * Warnings for the years a load of `kind` wrote that lack a kind it needs (`datasets`: what is loaded now,
 * this load included). A real load is not satisfied by the generated sample's tables, which cover three
 * counties.
 */
export function missingCompanions(
  kind: string,
  years: readonly number[],
  datasets: readonly DatasetInfo[],
  sample: boolean,
): string[] {
  const warnings: string[] = [];
  for (const need of NEEDS[kind] ?? []) {
    for (const year of years) {
      if (year === 0) continue;
      const found = datasets.some(
        (d) =>
          d.kind === need.kind &&
          (sample || !d.sample) &&
          (d.year === year || (need.orEarlier && d.year < year && d.year !== 0)),
      );
      if (found) continue;
      const which = need.orEarlier ? `for ${year} or an earlier year` : `for ${year}`;
      warnings.push(
        `no ${need.kind} data is loaded ${which}: until it is, ${need.effect} (${need.command(year)})`,
      );
    }
  }
  return warnings;
}
