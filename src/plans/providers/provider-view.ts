import type { DirectoryProvider, NetworkListing } from '../store/providers.js';

/** The CMS document's accepting values (definitions/Provider.accepting). */
export type Accepting = 'accepting' | 'not accepting' | 'accepting in some locations' | 'unknown';

/** The CMS document's Provider, as we answer it. */
export interface Provider {
  name: string;
  gender?: string;
  specialties: string[];
  type: 'Individual' | 'Facility';
  accepting: Accepting;
  npi: string;
  languages: string[];
  facility_types: string[];
  taxonomy?: string;
}

/**
 * Whether the provider takes new patients, across what the issuers' files say: one answer when they
 * agree, "accepting in some locations" when some say accepting and others not, "unknown" when no file
 * says anything.
 */
export function acceptingOf(listings: NetworkListing[]): Accepting {
  const said = new Set(listings.map((l) => l.accepting).filter((a) => a !== 'unknown'));
  if (said.size === 0) return 'unknown';
  if (said.size === 1) return [...said][0] as Accepting;
  return said.has('accepting') || said.has('accepting in some locations')
    ? 'accepting in some locations'
    : 'not accepting';
}

const union = (lists: string[][]) => [...new Set(lists.flat())];

/**
 * One provider from the NPPES directory entry (name, gender, taxonomies — named by the NUCC list when it
 * is loaded, else given as codes) and what the issuers' files add (specialties, languages, facility
 * types, accepting). Either may be missing, not both.
 */
export function providerOf(
  npi: string,
  entry: DirectoryProvider | undefined,
  listings: NetworkListing[],
  taxonomyNames: Map<string, string>,
): Provider {
  const first = listings[0];
  const codes = entry?.taxonomies ?? [];
  const named = codes.map((c) => taxonomyNames.get(c)).filter((n): n is string => n !== undefined);
  const provider: Provider = {
    name: entry?.name ?? first?.name ?? '',
    specialties: union([named, ...listings.map((l) => l.specialties)]),
    type: (entry?.type ?? first?.type) === 'Facility' ? 'Facility' : 'Individual',
    accepting: acceptingOf(listings),
    npi,
    languages: union(listings.map((l) => l.languages)),
    facility_types: union(listings.map((l) => l.facilityTypes)),
  };
  const gender = entry?.gender ?? first?.gender;
  if (gender) provider.gender = gender;
  const primary = codes[0];
  if (primary !== undefined) provider.taxonomy = taxonomyNames.get(primary) ?? primary;
  return provider;
}
