import { Random } from '../../shared/random.js';
import { RXNORM_CONCEPTS } from '../tables/rxnorm-concepts.js';
import { SAMPLE_TAXONOMY_CODES } from '../tables/taxonomy-codes.js';
import type { SampleMarket } from './market.js';

/**
 * The sample market's formularies and provider networks: invented providers (every name carries
 * "Sample", every NPI starts with 9 — NPPES issues only NPIs that start with 1 or 2) at real ZIP codes of
 * the sample counties, and each issuer's formulary over real RxNorm drugs. Issuer B publishes no network
 * and issuer C no formulary, so the sample also answers `DataNotProvided` as real markets do.
 */

export interface SampleProvider {
  npi: string;
  individual: boolean;
  first: string;
  last: string;
  organization: string;
  gender: 'M' | 'F' | '';
  credential: string;
  taxonomy: string;
  street: string;
  city: string;
  zip: string;
  phone: string;
}

export interface SampleListing {
  rxcui: string;
  tier: string;
  priorAuthorization: boolean;
  stepTherapy: boolean;
  quantityLimit: boolean;
}

export interface SampleCoverage {
  providers: SampleProvider[];
  /** Per issuer id: its drug listings (absent: it publishes no formulary). */
  formularies: Map<string, SampleListing[]>;
  /** Per issuer id: the NPIs of its network and whether each accepts new patients (absent: none published). */
  networks: Map<string, { npi: string; accepting: string }[]>;
}

const PLACES: [zip: string, city: string][] = [
  ['78130', 'NEW BRAUNFELS'],
  ['78666', 'SAN MARCOS'],
  ['78155', 'SEGUIN'],
  ['78640', 'KYLE'],
  ['78070', 'SPRING BRANCH'],
  ['78108', 'CIBOLO'],
  ['78620', 'DRIPPING SPRINGS'],
  ['78676', 'WIMBERLEY'],
];
const FIRST = [
  ['Ana', 'F'],
  ['Luis', 'M'],
  ['Grace', 'F'],
  ['Omar', 'M'],
  ['Priya', 'F'],
  ['Daniel', 'M'],
  ['Mei', 'F'],
  ['Samuel', 'M'],
] as const;
const LAST = ['Garza', 'Nguyen', 'Okafor', 'Schmidt', 'Patel', 'Hernandez', 'Kowalski', 'Brooks'];
const STREETS = ['Main St', 'Oak Ave', 'River Rd', 'Hill Country Blvd', 'Mission Dr', 'Cypress Ln'];
const CLINICS = ['Family Clinic', 'Health Center', 'Medical Group', 'Dental Center'];
const TIERS = ['GENERIC', 'PREFERRED-BRAND', 'NON-PREFERRED-BRAND', 'SPECIALTY'];
const PUBLISHES = { formulary: new Set(['99991', '99992']), network: new Set(['99991', '99993']) };
/** This issuer lists a brand's generic instead of the brand (so the sample answers GenericCovered). */
const GENERICS_ONLY = '99991';

/** The check digit of an NPI: Luhn over the 9 digits with the prefix 80840 (CMS NPI check-digit rule). */
function npiOf(first9: string): string {
  const digits = `80840${first9}`;
  let sum = 0;
  for (let i = digits.length - 1, double = true; i >= 0; i--, double = !double) {
    let d = Number(digits[i]);
    if (double) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return `${first9}${(10 - (sum % 10)) % 10}`;
}

function buildProviders(seed: number): SampleProvider[] {
  const random = new Random(seed, 'providers');
  const individuals = SAMPLE_TAXONOMY_CODES.filter((t) => t.individual);
  const clinic = SAMPLE_TAXONOMY_CODES.find((t) => !t.individual)!;
  const providers: SampleProvider[] = [];
  PLACES.forEach(([zip, city], p) => {
    for (let i = 0; i < 5; i++) {
      const [first, gender] = FIRST[random.int(0, FIRST.length - 1)]!;
      const taxonomy = individuals[random.int(0, individuals.length - 1)]!;
      providers.push({
        npi: npiOf(`9${String(p * 10 + i).padStart(8, '0')}`),
        individual: true,
        first,
        last: `Sample-${LAST[random.int(0, LAST.length - 1)]}`,
        organization: '',
        gender,
        credential: taxonomy.code === '103TC0700X' ? 'PhD' : 'MD',
        taxonomy: taxonomy.code,
        street: `${random.int(100, 2999)} ${STREETS[random.int(0, STREETS.length - 1)]}`,
        city,
        zip,
        phone: `512555${String(random.int(0, 9999)).padStart(4, '0')}`,
      });
    }
    providers.push({
      npi: npiOf(`9${String(p * 10 + 9).padStart(8, '0')}`),
      individual: false,
      first: '',
      last: '',
      organization: `Sample ${city.replace(/\b(\w)(\w*)/g, (_, a: string, b: string) => a + b.toLowerCase())} ${CLINICS[p % CLINICS.length]}`,
      gender: '',
      credential: '',
      taxonomy: clinic.code,
      street: `${random.int(100, 2999)} ${STREETS[random.int(0, STREETS.length - 1)]}`,
      city,
      zip,
      phone: `512555${String(random.int(0, 9999)).padStart(4, '0')}`,
    });
  });
  return providers;
}

/** The sample's formularies and networks for `market`'s year (deterministic for its seed). */
export function buildSampleCoverage(market: SampleMarket): SampleCoverage {
  const providers = buildProviders(market.seed);
  const formularies = new Map<string, SampleListing[]>();
  const networks = new Map<string, { npi: string; accepting: string }[]>();
  for (const issuer of market.issuers) {
    const id = issuer.spec.id;
    const random = new Random(market.seed, `coverage:${market.year}:${id}`);
    if (PUBLISHES.formulary.has(id)) {
      const listings: SampleListing[] = [];
      const generics = new Set(RXNORM_CONCEPTS.flatMap((d) => (d.generic ? [d.generic] : [])));
      for (const drug of RXNORM_CONCEPTS) {
        // Clinical (generic) drugs are mostly listed, brands less often: a brand left out whose
        // generic is listed is what GenericCovered answers.
        const listed =
          id === GENERICS_ONLY
            ? drug.generic === undefined &&
              (generics.has(drug.rxcui) || random.next() < (drug.tty === 'SCD' ? 0.85 : 0.45))
            : random.next() < (drug.tty === 'SCD' ? 0.85 : 0.45);
        if (!listed) continue;
        listings.push({
          rxcui: drug.rxcui,
          tier: drug.tty === 'SCD' ? TIERS[0]! : TIERS[random.int(1, 3)]!,
          priorAuthorization: random.next() < 0.1,
          stepTherapy: random.next() < 0.05,
          quantityLimit: random.next() < 0.15,
        });
      }
      formularies.set(id, listings);
    }
    if (PUBLISHES.network.has(id)) {
      const members = providers
        .filter(() => random.next() < 0.7)
        .map((p) => ({ npi: p.npi, accepting: random.next() < 0.8 ? 'accepting' : 'not accepting' }));
      networks.set(id, members);
    }
  }
  return { providers, formularies, networks };
}
