import type { PlansDeps } from '../deps.js';
import { marketYears } from '../market-years.js';

/**
 * The year a request is about: the one it names, else the current market year (the latest with plans
 * loaded), else the calendar year — the CMS document's "defaults to the current year when not specified".
 */
export async function yearOrCurrent(deps: PlansDeps, year: number | undefined): Promise<number> {
  if (year !== undefined) return year;
  return marketYears(await deps.samples.datasets()).current ?? new Date(deps.now()).getUTCFullYear();
}
