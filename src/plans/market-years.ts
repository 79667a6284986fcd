import type { DatasetInfo } from './store/datasets.js';

/** Ingest kinds that load plans: a year with one of them loaded is a market year we serve. */
export const PLAN_KINDS = ['plan-attributes', 'landscape'] as const;

/** Supported market years (ascending) and the current one (the latest loaded). */
export function marketYears(datasets: DatasetInfo[]): { current: number | undefined; supported: number[] } {
  const years = [
    ...new Set(datasets.filter((d) => (PLAN_KINDS as readonly string[]).includes(d.kind)).map((d) => d.year)),
  ].sort((a, b) => a - b);
  return { current: years.at(-1), supported: years };
}
