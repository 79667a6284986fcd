import type { CsrOverride } from '../eligibility/csr.js';
import { householdEligibility, type HouseholdEligibility } from '../household/household-eligibility.js';
import type { HouseholdInput } from '../household/household-input.js';
import { settleHousehold, type SettledHousehold } from '../household/household.js';
import type { CountyMarket, Place } from '../market/county-market.js';
import type { MarketKind } from '../market/market-kind.js';
import { refuseOwnExchange } from '../market/marketplace.js';
import type { PlansDeps } from '../deps.js';
import { planError } from '../errors.js';
import { marketYears } from '../market-years.js';
import { creditBenchmark } from './pediatric-dental.js';
import { YearlyCost } from './yearly-cost.js';

/** What every priced request gives (its body, validated at the edge); the year is settled before. */
export interface PricedRequest {
  household?: HouseholdInput;
  place: Place;
  market?: MarketKind;
  aptc_override?: number;
  csr_override?: CsrOverride;
}

export interface PricedContext extends MarketContext {
  eligibility: HouseholdEligibility;
  /** Why the credit's benchmark may leave out a pediatric dental portion it should have (data_notes). */
  benchmarkNote?: string;
  /** The household's yearly out-of-pocket estimator, made once for the request's pricing and notes. */
  yearly: YearlyCost;
}

export interface MarketContext {
  year: number;
  market: CountyMarket;
  household: SettledHousehold;
}

/**
 * Where every priced endpoint starts, once the year is known (the request's, else the current market
 * year): the state's exchange (1003 for a state that runs its own), the county market (1003 / 1017) and
 * the household (1003).
 */
export async function marketContext(
  deps: PlansDeps,
  year: number,
  body: Pick<PricedRequest, 'place' | 'market' | 'household'>,
): Promise<MarketContext> {
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
  year: number,
  body: PricedRequest,
): Promise<PricedContext> {
  const { market, household } = await marketContext(deps, year, body);
  // With an income the members are screened for Medicaid/CHIP, also under `aptc_override` (a CHIP child
  // stays out of the credit's premium share); without limits only the override lets the request through.
  const medicaid =
    household.income !== null ? await deps.markets.medicaidLimits(body.place.state, year) : undefined;
  let benchmarkNote: string | undefined;
  const eligibility = householdEligibility({
    year,
    state: body.place.state,
    household,
    medicaid,
    benchmark: (members) => {
      const benchmark = creditBenchmark(market.plans, year, household, members);
      benchmarkNote = benchmark?.note;
      return benchmark?.amount;
    },
    aptcOverride: body.aptc_override,
    csrOverride: body.csr_override,
  });
  const yearly = new YearlyCost(household, year);
  return { year, market, household, eligibility, yearly, ...(benchmarkNote ? { benchmarkNote } : {}) };
}

/** The answer's `rate_area`: the place's state and rating area. */
export function rateArea(context: MarketContext): { state: string; area: number } {
  return { state: context.market.place.state, area: context.market.ratingArea };
}
