import { perObject } from '../../shared/memo.js';
import { planError } from '../errors.js';
import type { SampleTracker } from '../gateway/sample-data.js';
import type { GeographyStore } from '../store/geography.js';
import type { MedicaidLimits, MedicaidStore } from '../store/medicaid.js';
import type { RatingAreaStore } from '../store/rating-areas.js';
import { findState } from '../tables/states.js';
import type { CountyMarket, CountyMarketReader, Place } from './county-market.js';
import type { MarketKind } from './market-kind.js';

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

/**
 * County markets kept per process. A county of 180 plans with their details is a few megabytes (Dallas
 * PY2025: about 3.6 MB), so at most some 200 MB; the least recently used goes first.
 */
const MAX_MARKETS = 48;
/** Small answers (rating areas, a ZIP's counties) kept per process. */
const MAX_SMALL = 4096;
/** ZIP-filtered views kept per county market (a county has at most a few hundred ZIPs). */
const MAX_ZIP_VIEWS = 512;

/**
 * County markets and Medicaid limits, read from the database and kept in this process while the datasets
 * they were read from stay as they are. The key includes each dataset's load time (the sample tracker's
 * list, re-read every few seconds), so a load by any process replaces what every instance serves within
 * that interval; nothing a request writes is kept here. Concurrent misses share one read.
 */
export function createMarketService(deps: {
  reader: CountyMarketReader;
  geography: GeographyStore;
  ratingAreas: RatingAreaStore;
  medicaid: MedicaidStore;
  samples: SampleTracker;
}) {
  const markets = new Map<string, Promise<CountyMarket>>();
  const medicaid = new Map<string, Promise<MedicaidLimits | undefined>>();
  const areas = new Map<string, Promise<number | undefined>>();
  const zipCounties = new Map<string, Promise<Set<string>>>();
  const zipViews = perObject<CountyMarket, string, CountyMarket>(MAX_ZIP_VIEWS);

  // Per list of datasets (the tracker keeps one list until it re-reads): kinds|year → signature. A
  // signature is the text of the load times it covers, interned as a short token (`s1`, `s2`, …) so the
  // cache keys built on it stay short: a key is hashed on every lookup.
  const signatures = new WeakMap<object, Map<string, string>>();
  const tokens = new Map<string, string>();
  let issued = 0;
  async function signature(kinds: readonly string[], year: number): Promise<string> {
    const datasets = await deps.samples.datasets();
    let known = signatures.get(datasets);
    if (!known) {
      known = new Map();
      signatures.set(datasets, known);
    }
    const key = `${kinds.join(',')}|${year}`;
    let token = known.get(key);
    if (token === undefined) {
      const text = datasets
        // Rating areas are read from the latest table at or before the year (rating-areas.ts).
        .filter(
          (d) =>
            kinds.includes(d.kind) &&
            (d.year === year || d.year === 0 || (d.kind === 'rating-areas' && d.year <= year)),
        )
        .map((d) => `${d.kind}:${d.year}:${d.loadedAt}`)
        .sort()
        .join(',');
      token = tokens.get(text);
      if (token === undefined) {
        if (tokens.size >= MAX_SMALL) tokens.clear();
        token = `s${++issued}`;
        tokens.set(text, token);
      }
      known.set(key, token);
    }
    return token;
  }

  function remember<T>(
    cache: Map<string, Promise<T>>,
    key: string,
    read: () => Promise<T>,
    max = MAX_MARKETS,
  ): Promise<T> {
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
    while (cache.size > max) cache.delete(cache.keys().next().value!);
    return promise;
  }

  /** The county market as one ZIP sees it: plans limited to other ZIPs of a partial county left out. */
  function zipView(county: CountyMarket, place: Place): CountyMarket {
    // One view object per ZIP, also when every plan covers the whole county: per-market caches (search
    // facets, rate matrices) are keyed by the view.
    return zipViews(county, place.zipcode, () => {
      const whole = county.plans.every((p) => p.zips === null);
      return {
        ...county,
        place,
        plans: whole
          ? county.plans
          : county.plans.filter((p) => p.zips === null || p.zips.has(place.zipcode)),
      };
    });
  }

  /**
   * 1003 when the HUD ZIP–county crosswalk knows the ZIP and places it in other counties only; a ZIP it
   * does not know (or no crosswalk loaded) is taken as given.
   */
  async function refuseZipOutsideCounty(place: Place): Promise<void> {
    const sig = await signature(['zip-county'], 0);
    const counties = await remember(
      zipCounties,
      `${sig}|${place.zipcode}`,
      async () => new Set((await deps.geography.findCountiesByZip(place.zipcode, 50)).map((c) => c.fips)),
      MAX_SMALL,
    );
    if (counties.size > 0 && !counties.has(place.countyfips)) {
      throw planError(
        1003,
        `place.zipcode: ${place.zipcode} is not in county ${place.countyfips} (HUD ZIP–county crosswalk: ${[...counties].join(', ')})`,
        'invalid place',
      );
    }
  }

  const resolved = new WeakMap<object, Map<string, CountyMarket>>();

  /** `countyMarket` on a miss: the checks, the rating area and the county's market, each cached. */
  async function resolveMarket(year: number, place: Place, market: MarketKind): Promise<CountyMarket> {
    const state = findState(place.state);
    if (!state) throw planError(1003, `place.state: ${place.state} is not a state`, 'invalid place');
    if (place.countyfips.slice(0, 2) !== state.fips) {
      throw planError(
        1003,
        `place.countyfips: ${place.countyfips} is not a county of ${place.state}`,
        'invalid place',
      );
    }
    await refuseZipOutsideCounty(place);
    const sig = await signature(MARKET_KINDS, year);
    const areaKey = `${sig}|${year}|${place.state}|${place.countyfips}|${place.zipcode.slice(0, 3)}`;
    const area = await remember(
      areas,
      areaKey,
      async () =>
        (
          await deps.ratingAreas.findRatingArea({
            year,
            state: place.state,
            fips: place.countyfips,
            zipcode: place.zipcode,
          })
        )?.area,
      MAX_SMALL,
    );
    if (area === undefined) {
      throw planError(
        1017,
        `No rate area could be determined for county ${place.countyfips}, ZIP ${place.zipcode} in ${year}`,
      );
    }
    // One market per county and rating area, every ZIP's plans in it; a ZIP sees its view of it.
    const key = `${sig}|${year}|${place.state}|${place.countyfips}|${area}|${market}`;
    const county = await remember(markets, key, () => deps.reader.read(year, place, area, market));
    return zipView(county, place);
  }

  return {
    /**
     * The market at a place: 1003 when the county is not in the state, 1017 when no rating area can be
     * determined (rating-areas.ts), else the plans sold there (possibly none).
     */
    async countyMarket(year: number, place: Place, market: MarketKind): Promise<CountyMarket> {
      // A place already answered under the current list of datasets is one lookup.
      const datasets = await deps.samples.datasets();
      let answered = resolved.get(datasets);
      if (!answered) {
        answered = new Map();
        resolved.set(datasets, answered);
      }
      const placeKey = `${year}|${place.state}|${place.countyfips}|${place.zipcode}|${market}`;
      const known = answered.get(placeKey);
      if (known) return known;
      const view = await resolveMarket(year, place, market);
      // Bounded like the markets themselves, so it never keeps alive more than the LRU would.
      if (answered.size >= MAX_MARKETS) answered.clear();
      answered.set(placeKey, view);
      return view;
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
