import type { FastifyRequest } from 'fastify';
import type { CsrOverride } from '../eligibility/csr.js';
import { usesData } from '../gateway/sample-data.js';
import {
  householdEligibility,
  settleHousehold,
  type HouseholdEligibility,
  type SettledHousehold,
} from '../household/household.js';
import type { CountyMarket } from '../market/county-market.js';
import { MARKET_KINDS } from '../market/market-service.js';
import type { PlansDeps } from '../deps.js';
import { benchmarkPlan } from '../search/pricing.js';
import { planError } from '../errors.js';
import { marketYears } from '../market-years.js';
import { refuseOwnExchange } from './marketplace.js';
import { yearOrCurrent } from './market-year.js';
import type { PricedRequest } from './household-input.js';

/** Datasets a priced answer is built from (for the sample label). */
export const PRICED_KINDS = [...MARKET_KINDS, 'medicaid'];

export interface PricedContext extends MarketContext {
  eligibility: HouseholdEligibility;
}

export interface MarketContext {
  year: number;
  market: CountyMarket;
  household: SettledHousehold;
}

/**
 * Where every priced endpoint starts: the year (body, else `?year=`, else the current market year), the
 * state's exchange (1003 for a state that runs its own), the county market (1003 / 1017) and the household
 * (1003).
 */
export async function marketContext(
  deps: PlansDeps,
  request: FastifyRequest,
  body: Pick<PricedRequest, 'year' | 'place' | 'market' | 'household'>,
): Promise<MarketContext> {
  const queryYear = (request.query as { year?: number } | undefined)?.year;
  const year = await yearOrCurrent(deps, body.year ?? queryYear);
  usesData(request, PRICED_KINDS, year);
  const { supported, sampleOnly } = marketYears(await deps.samples.datasets());
  if (!supported.includes(year)) {
    const years = supported.join(', ') || 'none';
    throw planError(
      1003,
      sampleOnly.includes(year)
        ? `year: ${year} has only the generated sample market, which is not served once real plans are ` +
            `loaded (years with real plans: ${years}; GET /market-years)`
        : `year: no plans are loaded for ${year} (market years: ${years})`,
      'invalid year',
    );
  }
  await refuseOwnExchange(deps, body.place.state, year);
  const market = await deps.markets.countyMarket(year, body.place, body.market ?? 'Individual');
  return { year, market, household: settleHousehold(body.household, year) };
}

/**
 * `marketContext` and the household's eligibility (1010 / 1015 when the income is known, the state's
 * Medicaid/CHIP limits are not loaded and no `aptc_override` is given).
 */
export async function pricedContext(
  deps: PlansDeps,
  request: FastifyRequest,
  body: PricedRequest,
): Promise<PricedContext> {
  const { year, market, household } = await marketContext(deps, request, body);
  // With an income the members are screened for Medicaid/CHIP, also under `aptc_override` (a CHIP child
  // stays out of the credit's premium share); without limits only the override lets the request through.
  const medicaid =
    household.income !== null ? await deps.markets.medicaidLimits(body.place.state, year) : undefined;
  const eligibility = householdEligibility({
    year,
    state: body.place.state,
    household,
    medicaid,
    benchmark: (members) => benchmarkPlan(market.plans, year, household, members)?.amount,
    aptcOverride: body.aptc_override,
    csrOverride: body.csr_override as CsrOverride | undefined,
  });
  return { year, market, household, eligibility };
}
