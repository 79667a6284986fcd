import { FEDERAL_AGE_CURVE } from './age-curve.js';
import { SAMPLE_ISSUERS, issuerName, type IssuerSpec, type Metal, type PlanSpec } from './catalogue.js';
import { cost, variantsOf, type Variant } from './cost-sharing.js';
import { SAMPLE_COUNTIES, SAMPLE_STATE } from './geography.js';
import { Random } from '../../shared/random.js';

/** The random seed a zero-setup start uses, so every fresh sandbox serves the same sample market. */
export const SAMPLE_MARKET_SEED = 2026;

export interface SampleServiceArea {
  id: string;
  name: string;
  counties: readonly { fips: string; zips?: readonly string[] }[];
}

export interface SampleIssuer {
  spec: IssuerSpec;
  name: string;
  serviceAreas: SampleServiceArea[];
  /** Tobacco load (1.2 to 1.5), or null when the issuer does not rate tobacco use. */
  tobaccoFactor: number | null;
}

export interface SamplePlan {
  /** Standard component id, e.g. `99991TX0010001`. */
  id: string;
  issuer: SampleIssuer;
  spec: PlanSpec;
  name: string;
  serviceAreaId: string;
  networkId: string;
  isNew: boolean;
  /** `EHBPercentTotalPremium`: the share of the premium for essential health benefits. */
  ehbPercent: number;
  wellness: boolean;
  variants: Variant[];
  /** Monthly premium of a 21-year-old non-smoker, in cents, per rating area the plan is sold in. */
  rate21: Map<number, number>;
}

export interface SampleMarket {
  year: number;
  seed: number;
  issuers: SampleIssuer[];
  plans: SamplePlan[];
}

// Monthly premium of a 21-year-old in rating area 3, in dollars, before the issuer's price level.
const BASE_RATE: Record<Metal, [number, number]> = {
  Catastrophic: [235, 270],
  'Expanded Bronze': [295, 340],
  Bronze: [285, 330],
  Silver: [385, 440],
  Gold: [420, 485],
  Platinum: [515, 580],
};

const PRODUCT_BY_TYPE = { HMO: '001', PPO: '002', EPO: '003' } as const;

function planName(issuer: IssuerSpec, spec: PlanSpec, deductible: number, taken: Set<string>): string {
  const base =
    spec.design === 'Not Applicable'
      ? `Sample ${issuer.letter} ${spec.metal} ${deductible} ${spec.type}${spec.hsa ? ' HSA' : ''}`
      : `Sample ${issuer.letter} Standard ${spec.metal} ${spec.type}`;
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base} ${n}`;
  taken.add(name);
  return name;
}

function ratingAreasOf(area: SampleServiceArea): number[] {
  const areas = area.counties.map((c) => SAMPLE_COUNTIES.find((k) => k.fips === c.fips)!.ratingArea);
  return [...new Set(areas)].sort((a, b) => a - b);
}

function buildIssuer(spec: IssuerSpec, seed: number, year: number): SampleIssuer {
  const random = new Random(seed, `issuer:${year}:${spec.id}`);
  return {
    spec,
    name: issuerName(spec),
    serviceAreas: spec.serviceAreas.map((area, i) => ({
      id: `${SAMPLE_STATE}S${String(i + 1).padStart(3, '0')}`,
      name: `Sample ${spec.letter} ${area.name}`,
      counties: area.counties,
    })),
    tobaccoFactor: spec.ratesTobacco ? Math.round(random.between(1.2, 1.5) * 100) / 100 : null,
  };
}

/**
 * The whole sample market of one plan year: deterministic for a given (year, seed), and it never reads
 * anything outside the project.
 */
export function buildSampleMarket(year: number, seed = SAMPLE_MARKET_SEED): SampleMarket {
  const issuers = SAMPLE_ISSUERS.map((spec) => buildIssuer(spec, seed, year));
  const plans: SamplePlan[] = [];
  for (const issuer of issuers) {
    const names = new Set<string>();
    const areaFactor = new Random(seed, `areas:${year}:${issuer.spec.id}`);
    // Each issuer prices its rating areas apart: area 3 (Austin) is the reference.
    const factorOf = new Map([
      [3, 1],
      [18, Math.round(areaFactor.between(0.9, 1.03) * 1000) / 1000],
    ]);
    issuer.spec.plans.forEach((spec, index) => {
      const id = `${issuer.spec.id}${SAMPLE_STATE}${PRODUCT_BY_TYPE[spec.type]}${String(index + 1).padStart(4, '0')}`;
      const random = new Random(seed, `plan:${year}:${id}`);
      const standard = cost(spec, random);
      const area = issuer.serviceAreas[spec.serviceArea ?? 0]!;
      const [low, high] = BASE_RATE[spec.metal];
      const base = random.between(low, high) * issuer.spec.priceLevel;
      plans.push({
        id,
        issuer,
        spec,
        name: planName(issuer.spec, spec, standard.deductible, names),
        serviceAreaId: area.id,
        networkId: `${SAMPLE_STATE}N${String((spec.network ?? 0) + 1).padStart(3, '0')}`,
        isNew: random.next() < 0.25,
        ehbPercent: random.next() < 0.3 ? Math.round(random.between(0.985, 0.999) * 10000) / 10000 : 1,
        wellness: random.next() < 0.5,
        variants: variantsOf(spec, standard, random),
        rate21: new Map(ratingAreasOf(area).map((ra) => [ra, Math.round(base * factorOf.get(ra)! * 100)])),
      });
    });
  }
  return { year, seed, issuers, plans };
}

/** A plan's monthly premium at each Rate PUF age band, in cents: the age-21 rate × the age factor. */
export function ratesByAge(rate21Cents: number): { label: string; cents: number }[] {
  return FEDERAL_AGE_CURVE.map(({ label, factor }) => ({ label, cents: Math.round(rate21Cents * factor) }));
}
