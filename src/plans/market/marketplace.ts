import type { PlansDeps } from '../deps.js';
import { planError } from '../errors.js';
import { marketplaceModel, type Marketplaces } from '../store/marketplace.js';

/** How we know which states use HealthCare.gov, for the route descriptions. */
export const MARKETPLACE_RULE =
  'Which states use HealthCare.gov in a year: our cited table for 2025 and 2026 (the 31 states of the ' +
  'PY2025 Plan Attributes PUF; 2026 without Illinois, now on its own exchange); for other years, the ' +
  'states with Individual plans in a real Plan Attributes PUF of the year, when one is loaded. A QHP ' +
  'Landscape of the year makes its state a HealthCare.gov state but says nothing of the others. The ' +
  'generated sample market counts for its own state only, and only when nothing else is known of the ' +
  'year. When the year is unknown no model is claimed and no state is refused.';

/** What we know of `year`'s marketplaces (see `MARKETPLACE_RULE`). */
export async function marketplacesOf(deps: PlansDeps, year: number): Promise<Marketplaces> {
  return deps.marketplace.findMarketplaces(year, await deps.samples.datasets());
}

/**
 * 1003 "state is not a valid marketplace state" for a state known to run its own exchange in `year` (the
 * live service's answer for CA, GA, NY, IL 2026 — docs/decisions.md#own-exchange-states); nothing when it
 * uses HealthCare.gov or when we cannot tell.
 */
export async function refuseOwnExchange(deps: PlansDeps, state: string, year: number): Promise<void> {
  if (marketplaceModel(await marketplacesOf(deps, year), state) !== 'SBM') return;
  throw planError(
    1003,
    `${state} does not use HealthCare.gov in ${year}: it runs its own exchange`,
    'state is not a valid marketplace state',
  );
}
