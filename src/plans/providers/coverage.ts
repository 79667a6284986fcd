import type { Coverage } from '../drugs/coverage.js';
import type { NetworkListing, ProviderAddress } from '../store/providers.js';
import { acceptingOf, type Accepting } from './provider-view.js';

/** The CMS document's ProviderCoverage. */
export interface ProviderCoverage {
  npi: string;
  plan_id: string;
  coverage: Coverage;
  /** Where the plan's issuer lists the provider (empty unless covered). */
  addresses: (ProviderAddress & { countyfips?: string })[];
  accepting: Accepting;
}

export interface NetworkFacts {
  /** Plans whose issuer published a provider network for the year. */
  published: Set<string>;
  /** For each provider, the plans whose networks list it. */
  members: Map<string, Set<string>>;
  listings: NetworkListing[];
  /** County of each listed address's ZIP. */
  counties: Map<string, string>;
}

/**
 * Whether each plan's network has each provider: Covered (with the addresses and accepting status the
 * plan's issuer lists), NotCovered, or DataNotProvided when the issuer published no network for the plan.
 */
export function providerCoverage(npis: string[], planIds: string[], facts: NetworkFacts): ProviderCoverage[] {
  const answers: ProviderCoverage[] = [];
  for (const npi of npis) {
    for (const plan_id of planIds) {
      const issuer = plan_id.slice(0, 5);
      const listing = facts.listings.filter((l) => l.npi === npi && l.issuerId === issuer);
      const accepting = acceptingOf(listing);
      if (!facts.published.has(plan_id)) {
        answers.push({ npi, plan_id, coverage: 'DataNotProvided', addresses: [], accepting });
      } else if (!facts.members.get(npi)?.has(plan_id)) {
        answers.push({ npi, plan_id, coverage: 'NotCovered', addresses: [], accepting });
      } else {
        const addresses = listing.flatMap((l) =>
          l.addresses.map(({ street_1, street_2, city, state, zipcode }) => {
            const fips = facts.counties.get(zipcode);
            return { street_1, street_2, city, state, zipcode, ...(fips ? { countyfips: fips } : {}) };
          }),
        );
        answers.push({ npi, plan_id, coverage: 'Covered', addresses, accepting });
      }
    }
  }
  return answers;
}
