import { planError } from '../errors.js';
import type { SampleTracker } from '../gateway/sample-data.js';
import type { MedicaidLimits, MedicaidStore } from '../store/medicaid.js';
import type { RatingAreaStore } from '../store/rating-areas.js';
import { findState } from '../tables/states.js';
import type { CountyMarket, CountyMarketReader, MarketKind, Place } from './county-market.js';

/** Datasets a county market is read from: a new load of any of them makes a new market. */
export const MARKET_KINDS = [
  'plan-attributes',
  'landscape',
  'service-areas',
  'rates',
  'rating-areas',
  'benefits',
  'quality',
  'networks',
  'business-rules',
];

/** Entries kept per process (a county market of a hundred plans is a few hundred kilobytes). */
const MAX_MARKETS = 256;

/**
 * County markets and Medicaid limits, read from the database and kept in this process while the datasets
 * they were read from stay as they are. The key includes each dataset's load time (the sample tracker's
 * list, re-read every few seconds), so a load by any process replaces what every instance serves within
 * that interval; nothing a request writes is kept here. Concurrent misses share one read.
 */
export function createMarketService(deps: {
  reader: CountyMarketReader;
  ratingAreas: RatingAreaStore;
  medicaid: MedicaidStore;
  samples: SampleTracker;
}) {
  const markets = new Map<string, Promise<CountyMarket>>();
  const medicaid = new Map<string, Promise<MedicaidLimits | undefined>>();

  // Per list of datasets (the tracker keeps one list until it re-reads): kinds|year → signature.
  const signatures = new WeakMap<object, Map<string, string>>();
  async function signature(kinds: readonly string[], year: number): Promise<string> {
    const datasets = await deps.samples.datasets();
    let known = signatures.get(datasets);
    if (!known) {
      known = new Map();
      signatures.set(datasets, known);
    }
    const key = `${kinds.join(',')}|${year}`;
    let text = known.get(key);
    if (text === undefined) {
      text = datasets
        .filter((d) => kinds.includes(d.kind) && (d.year === year || d.year === 0))
        .map((d) => `${d.kind}:${d.year}:${d.loadedAt}`)
        .sort()
        .join(',');
      known.set(key, text);
    }
    return text;
  }

  function remember<T>(cache: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> {
    const known = cache.get(key);
    if (known) {
      // Most recently used last: the oldest entry is the first to go.
      cache.delete(key);
      cache.set(key, known);
      return known;
    }
    const promise = read();
    cache.set(key, promise);
    promise.catch(() => {
      if (cache.get(key) === promise) cache.delete(key);
    });
    while (cache.size > MAX_MARKETS) cache.delete(cache.keys().next().value!);
    return promise;
  }

  return {
    /**
     * The market at a place: 1003 when the county is not in the state, 1017 when no rating area can be
     * determined (rating-areas.ts), else the plans sold there (possibly none).
     */
    async countyMarket(year: number, place: Place, market: MarketKind): Promise<CountyMarket> {
      const state = findState(place.state);
      if (!state) throw planError(1003, `place.state: ${place.state} is not a state`, 'invalid place');
      if (place.countyfips.slice(0, 2) !== state.fips) {
        throw planError(
          1003,
          `place.countyfips: ${place.countyfips} is not a county of ${place.state}`,
          'invalid place',
        );
      }
      const sig = await signature(MARKET_KINDS, year);
      const key = `${sig}|${year}|${place.state}|${place.countyfips}|${place.zipcode}|${market}`;
      return remember(markets, key, async () => {
        const area = await deps.ratingAreas.findRatingArea({
          year,
          state: place.state,
          fips: place.countyfips,
          zipcode: place.zipcode,
        });
        if (!area) {
          throw planError(
            1017,
            `No rate area could be determined for county ${place.countyfips}, ZIP ${place.zipcode} in ${year}`,
          );
        }
        return deps.reader.read(year, place, area.area, market);
      });
    },

    /** The state's Medicaid/CHIP limits of the year (latest quarter), or undefined when none are loaded. */
    async medicaidLimits(state: string, year: number): Promise<MedicaidLimits | undefined> {
      const sig = await signature(['medicaid'], year);
      return remember(medicaid, `${sig}|${state}|${year}`, () =>
        deps.medicaid.findMedicaidLimits(state, year),
      );
    },
  };
}

export type MarketService = ReturnType<typeof createMarketService>;
