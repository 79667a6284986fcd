import type { Metal, PlanSpec } from './catalogue.js';
import type { Random } from '../../shared/random.js';

/** In-network (tier 1) cost sharing of one plan variant, in whole dollars per individual. */
export interface CostSharing {
  /** The combined medical and drug deductible, or the medical one when drugs have their own. */
  deductible: number;
  /** The separate drug deductible, or null when it is integrated with the medical one. */
  drugDeductible: number | null;
  moop: number;
  /** Coinsurance after the deductible, in percent. */
  coinsurance: number;
}

/** One Summary of Benefits and Coverage example: what the enrollee pays, in dollars. */
export interface SbcScenario {
  deductible: number;
  copayment: number;
  coinsurance: number;
  limit: number;
}

export interface Variant {
  /** `-00` off exchange, `-01` on exchange, `-02`/`-03` AI/AN, `-04`…`-06` silver CSR. */
  suffix: string;
  /** The PUF's `CSRVariationType`. */
  csrType: string;
  /** AV calculator output (0–1), or null (catastrophic plans have none). */
  av: number | null;
  sharing: CostSharing;
  sbc: { baby: SbcScenario; diabetes: SbcScenario; fracture: SbcScenario };
}

// The PY2025 federal limit on cost sharing (45 CFR 156.130(a)); later years' limits are higher, so the
// sample stays lawful for any year it is generated for. HSA-eligible plans keep to the IRS HDHP limits
// of 2025 (Rev. Proc. 2024-25: deductible at least $1,650, out-of-pocket at most $8,300).
const MOOP_LIMIT = 9200;
const HDHP_MOOP_LIMIT = 8300;

const round = (value: number, step: number) => Math.round(value / step) * step;

// Deductible, MOOP and coinsurance ranges of a standard variant, and its AV range, by metal level.
const RANGES: Record<
  Metal,
  { ded: [number, number]; moop: [number, number]; coins: number[]; av: [number, number] }
> = {
  Catastrophic: { ded: [MOOP_LIMIT, MOOP_LIMIT], moop: [MOOP_LIMIT, MOOP_LIMIT], coins: [0], av: [0, 0] },
  'Expanded Bronze': { ded: [5000, 7500], moop: [8800, MOOP_LIMIT], coins: [40, 50], av: [0.585, 0.645] },
  Bronze: { ded: [4500, 7000], moop: [8500, MOOP_LIMIT], coins: [40, 50], av: [0.58, 0.62] },
  Silver: { ded: [2500, 5500], moop: [7000, MOOP_LIMIT], coins: [20, 30, 40], av: [0.7, 0.72] },
  Gold: { ded: [250, 2000], moop: [4500, 8000], coins: [20, 30], av: [0.78, 0.82] },
  Platinum: { ded: [0, 500], moop: [1500, 4000], coins: [10, 20], av: [0.88, 0.92] },
};

/** The standard (on-exchange) variant's cost sharing of a plan. */
export function cost(spec: PlanSpec, random: Random): CostSharing & { av: number | null } {
  const range = RANGES[spec.metal];
  let deductible = round(random.between(...range.ded), 100);
  let moop = round(random.between(...range.moop), 50);
  if (spec.hsa) {
    moop = Math.min(moop, round(random.between(7000, HDHP_MOOP_LIMIT), 50));
    deductible = Math.min(Math.max(deductible, 3500), moop - 500);
  }
  return {
    deductible,
    drugDeductible: spec.separateDrugDeductible ? round(random.between(100, 500), 50) : null,
    moop,
    coinsurance: random.pick(range.coins),
    av: spec.metal === 'Catastrophic' ? null : Math.round(random.between(...range.av) * 1e4) / 1e4,
  };
}

/** The out-of-pocket example of an SBC: deductible first, then copays, then coinsurance, to the MOOP. */
function scenario(
  sharing: CostSharing,
  total: number,
  deductibleShare: number,
  copay: number,
  limit: number,
) {
  const deductible = Math.min(sharing.deductible, round(total * deductibleShare, 10));
  const copayment = Math.min(copay, sharing.moop - deductible);
  const rest = Math.max(0, total - deductible - copayment);
  const coinsurance = Math.min(
    round((rest * sharing.coinsurance) / 100, 10),
    sharing.moop - deductible - copayment,
  );
  return { deductible, copayment, coinsurance, limit };
}

function sbcOf(sharing: CostSharing, copays: [number, number, number]): Variant['sbc'] {
  // The SBC coverage examples' total costs: having a baby $12,700, managing diabetes $5,600, a simple
  // fracture $2,800.
  return {
    baby: scenario(sharing, 12700, 0.95, copays[0], 60),
    diabetes: scenario(sharing, 5600, 0.5, copays[1], 20),
    fracture: scenario(sharing, 2800, 0.8, copays[2], 0),
  };
}

/** A silver CSR variant scales the standard cost sharing down to its AV level (45 CFR 156.420). */
function reduced(
  standard: CostSharing,
  deductible: number,
  moopShare: number,
  moopCap: number,
  less: number,
) {
  return {
    deductible: round(standard.deductible * deductible, 50),
    drugDeductible: standard.drugDeductible === null ? null : round(standard.drugDeductible * deductible, 50),
    moop: Math.min(round(standard.moop * moopShare, 50), moopCap),
    coinsurance: Math.max(0, standard.coinsurance - less),
  };
}

const ZERO: CostSharing = { deductible: 0, drugDeductible: 0, moop: 0, coinsurance: 0 };

/** Every variant of a plan as the Plan Attributes PUF lists them (one row each). */
export function variantsOf(
  spec: PlanSpec,
  standard: CostSharing & { av: number | null },
  random: Random,
): Variant[] {
  const copays: [number, number, number] = [
    round(random.between(10, 60), 10),
    round(random.between(200, 700), 10),
    round(random.between(100, 400), 10),
  ];
  const { av, ...sharing } = standard;
  const zero = { ...ZERO, drugDeductible: sharing.drugDeductible === null ? null : 0 };
  const make = (suffix: string, csrType: string, variantAv: number | null, s: CostSharing): Variant => ({
    suffix,
    csrType,
    av: variantAv,
    sharing: s,
    sbc: sbcOf(s, s.moop === 0 ? [0, 0, 0] : copays),
  });
  // Expanded bronze plans are bronze plans for CSR purposes.
  const level = spec.metal === 'Expanded Bronze' ? 'Bronze' : spec.metal;
  const variants = [
    make('00', `Standard ${level} Off Exchange Plan`, av, sharing),
    make('01', `Standard ${level} On Exchange Plan`, av, sharing),
  ];
  if (spec.metal === 'Catastrophic') return variants;
  variants.push(
    make('02', 'Zero Cost Sharing Plan Variation', 1, zero),
    make('03', 'Limited Cost Sharing Plan Variation', av, sharing),
  );
  if (spec.metal !== 'Silver') return variants;
  const csrAv = (floor: number) => Math.round(random.between(floor, floor + 0.01) * 1e4) / 1e4;
  variants.push(
    make('04', '73% AV Level Silver Plan', csrAv(0.73), reduced(sharing, 0.6, 0.8, 7350, 0)),
    make('05', '87% AV Level Silver Plan', csrAv(0.87), reduced(sharing, 0.15, 0.35, 3050, 10)),
    make('06', '94% AV Level Silver Plan', csrAv(0.94), reduced(sharing, 0.02, 0.2, 3050, 20)),
  );
  return variants;
}
