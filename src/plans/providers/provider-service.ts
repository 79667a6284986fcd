import { wordsOf } from '../drugs/words.js';
import type { ProviderAddress, ProviderStore } from '../store/providers.js';
import { boxAround, milesBetween, type Point } from './distance.js';
import { providerOf, type Provider } from './provider-view.js';
import { providerCoverage, type ProviderCoverage } from './coverage.js';

export interface Address extends ProviderAddress {
  countyfips?: string;
}

export interface NearbyProvider {
  provider: Provider;
  address?: Address;
  distance: number;
}

/** Where distances are measured from: the ZIP's own point, or (said so) its county's ZIPs' centre. */
export interface Origin {
  point: Point;
  /** Set when the ZIP has no point of its own. */
  fallback?: string;
}

export interface NearbyQuery {
  q: string;
  zip: string;
  types: string[];
  specialty?: string;
  year: number;
  limit: number;
  offset: number;
}

/** Candidates are named and filtered by specialty this many at a time, nearest first. */
const CHUNK = 200;

export function createProviderService(store: ProviderStore, options: { radiusMiles: number }) {
  async function origin(zip: string): Promise<Origin | undefined> {
    const own = await store.findZipPoint(zip);
    if (own) return { point: own };
    const county = await store.countyZipPoints(zip);
    if (!county || county.points.length === 0) return undefined;
    const mean = (pick: (p: Point) => number) =>
      county.points.reduce((sum, p) => sum + pick(p), 0) / county.points.length;
    return {
      point: { lat: mean((p) => p.lat), lon: mean((p) => p.lon) },
      fallback: `ZIP ${zip} has no ZCTA point: distances are from the centre of county ${county.fips}'s ZIPs`,
    };
  }

  /** NPIs of `types` within the radius whose name has a word starting with each word, with their distance. */
  async function candidates(from: Point, words: string[], types: string[]) {
    const distances = new Map<string, number>();
    for (const p of await store.zipPointsIn(boxAround(from, options.radiusMiles))) {
      const miles = milesBetween(from, p);
      if (miles <= options.radiusMiles) distances.set(p.zip, miles);
    }
    const zips = [...distances.keys()];
    // The longest word first: it matches fewest names; each other word narrows the set.
    const [lead, ...others] = [...new Set(words)].sort((a, b) => b.length - a.length);
    const nearest = new Map<string, { zip: string; miles: number }>();
    for (const hit of await store.findByNamePrefix(zips, lead!, types)) {
      const miles = distances.get(hit.zip)!;
      const seen = nearest.get(hit.npi);
      if (!seen || miles < seen.miles) nearest.set(hit.npi, { zip: hit.zip, miles });
    }
    for (const word of others) {
      const also = new Set((await store.findByNamePrefix(zips, word, types)).map((h) => h.npi));
      for (const npi of nearest.keys()) if (!also.has(npi)) nearest.delete(npi);
    }
    return [...nearest]
      .map(([npi, at]) => ({ npi, ...at }))
      .sort((a, b) => a.miles - b.miles || (a.npi < b.npi ? -1 : 1));
  }

  async function describe(npis: string[], year: number) {
    const [entries, listings] = await Promise.all([
      store.findProviders(npis),
      store.findListings(year, npis),
    ]);
    const names = await store.taxonomyNames([...new Set(entries.flatMap((e) => e.taxonomies))]);
    return new Map(
      npis.map((npi) => {
        const entry = entries.find((e) => e.npi === npi);
        const own = listings.filter((l) => l.npi === npi);
        return [npi, { provider: providerOf(npi, entry, own, names), addresses: entry?.addresses ?? [] }];
      }),
    );
  }

  /** Candidates as the API answers them: the provider, its address at the candidate's ZIP, the distance. */
  async function present(chunk: { npi: string; zip: string; miles: number }[], year: number) {
    if (chunk.length === 0) return [];
    const [described, counties] = await Promise.all([
      describe(
        chunk.map((c) => c.npi),
        year,
      ),
      store.countiesOfZips([...new Set(chunk.map((c) => c.zip))]),
    ]);
    return chunk.map(({ npi, zip, miles }): NearbyProvider => {
      const { provider, addresses } = described.get(npi)!;
      const address = addresses.find((a) => a.zipcode === zip) ?? addresses[0];
      const fips = counties.get(zip);
      return {
        provider,
        ...(address ? { address: { ...address, ...(fips ? { countyfips: fips } : {}) } } : {}),
        distance: miles,
      };
    });
  }

  return {
    origin,
    stats: (year: number) => store.coverageStats(year),

    /**
     * Providers near a ZIP (within the radius), nearest first, whose name has a word starting with each
     * word of `q`, of the given types and, when asked, with a specialty containing `specialty`.
     */
    async nearby(query: NearbyQuery, from: Origin): Promise<{ providers: NearbyProvider[]; more: boolean }> {
      const words = wordsOf(query.q);
      if (words.length === 0) return { providers: [], more: false };
      const found = await candidates(from.point, words, query.types);
      const end = query.offset + query.limit;
      const wanted = query.specialty?.toLowerCase();
      // Without a specialty every candidate matches: only the page's providers are read.
      if (!wanted) {
        return {
          providers: await present(found.slice(query.offset, end), query.year),
          more: found.length > end,
        };
      }
      const page: NearbyProvider[] = [];
      let matched = 0;
      for (let start = 0; start < found.length && matched <= end; start += CHUNK) {
        for (const hit of await present(found.slice(start, start + CHUNK), query.year)) {
          if (!hit.provider.specialties.some((s) => s.toLowerCase().includes(wanted))) continue;
          matched += 1;
          if (matched > query.offset && matched <= end) page.push(hit);
        }
      }
      return { providers: page, more: matched > end };
    },

    /**
     * Whether each plan's network has each provider, with the addresses the issuer lists it at. Returns
     * the NPIs known neither to the directory nor to any issuer's file of the year instead, if any.
     */
    async covered(
      year: number,
      npis: string[],
      planIds: string[],
    ): Promise<{ coverage: ProviderCoverage[] } | { unknown: string[] }> {
      const [entries, listings] = await Promise.all([
        store.findProviders(npis),
        store.findListings(year, npis),
      ]);
      const known = new Set([...entries.map((e) => e.npi), ...listings.map((l) => l.npi)]);
      const unknown = npis.filter((n) => !known.has(n));
      if (unknown.length > 0) return { unknown };
      const published = await store.plansWithNetworks(year, planIds);
      const members = new Map<string, Set<string>>();
      for (const listing of listings) {
        const plans = members.get(listing.npi) ?? new Set<string>();
        for (const planId of listing.planIds) plans.add(planId);
        members.set(listing.npi, plans);
      }
      const zips = [...new Set(listings.flatMap((l) => l.addresses.map((a) => a.zipcode)))];
      const counties = await store.countiesOfZips(zips);
      return { coverage: providerCoverage(npis, planIds, { published, members, listings, counties }) };
    },
  };
}

export type ProviderService = ReturnType<typeof createProviderService>;
