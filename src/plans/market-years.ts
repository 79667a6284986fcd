import type { DatasetInfo } from '../storage/datasets.js';
import { PLAN_KINDS } from './tables/plan-kinds.js';

/**
 * Supported market years (ascending) and the current one. Real data outranks the generated sample, as it
 * does for the price lookup (src/prices/scope.ts): once real plans are loaded for any year, the years that have
 * only sample plans are no longer market years (`sampleOnly` lists them, so an answer can say why), and the
 * current year is the latest with real plans. With only the sample loaded, its years are the market years.
 */
export function marketYears(datasets: DatasetInfo[]): MarketYears {
  // The sample tracker hands out one list until it re-reads: worked out once per list.
  let years = known.get(datasets);
  if (!years) {
    years = readMarketYears(datasets);
    known.set(datasets, years);
  }
  return years;
}

export interface MarketYears {
  readonly current: number | undefined;
  readonly supported: readonly number[];
  /** Years with only sample plans, not served because real plans are loaded (for other years). */
  readonly sampleOnly: readonly number[];
}

const known = new WeakMap<DatasetInfo[], MarketYears>();

function readMarketYears(datasets: DatasetInfo[]): MarketYears {
  const plans = datasets.filter((d) => (PLAN_KINDS as readonly string[]).includes(d.kind));
  const sorted = (list: DatasetInfo[]) => [...new Set(list.map((d) => d.year))].sort((a, b) => a - b);
  const years = sorted(plans);
  const real = sorted(plans.filter((d) => !d.sample));
  if (real.length === 0) return { current: years.at(-1), supported: years, sampleOnly: [] };
  return { current: real.at(-1), supported: real, sampleOnly: years.filter((y) => !real.includes(y)) };
}

/**
 * The years bulk data is served for, the current and the previous market year
 * (docs/decisions.md#bulk-data-years): the current market year, else the calendar year of `now`, and the year
 * before it.
 */
export function bulkDataYears(datasets: DatasetInfo[], now: number): readonly [number, number] {
  const current = marketYears(datasets).current ?? new Date(now).getUTCFullYear();
  return [current - 1, current];
}
