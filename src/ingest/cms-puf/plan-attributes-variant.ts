import type {
  CostLimit,
  CsrVariant,
  FamilyCost,
  NetworkTier,
  SbcScenario,
  VariantDetail,
} from '../../plans/store/plan-detail.js';
import { Reject } from '../engine/tabular-format.js';
import { cell, leadingDollars } from './puf-cells.js';

/**
 * CSRVariationType of the Plan Attributes PUF → the API's `CostSharingReductionEnum` (response form).
 * PUF values: "Standard {Metal} On|Off Exchange Plan", "Zero Cost Sharing Plan Variation", "Limited Cost
 * Sharing Plan Variation", "73%|87%|94% AV Level Silver Plan". When the text is not one of these, the
 * PlanId suffix decides (45 CFR 156.420 variants as HIOS numbers them: -00 off exchange, -01 on
 * exchange, -02 zero, -03 limited, -04/-05/-06 the 73/87/94% silver variants).
 */
const CSR_BY_SUFFIX: Record<string, CsrVariant> = {
  '00': 'Non-Exchange variant',
  '01': 'Exchange variant (no CSR)',
  '02': 'Zero Cost Sharing Plan Variation',
  '03': 'Limited Cost Sharing Plan Variation',
  '04': '73% AV Level Silver Plan CSR',
  '05': '87% AV Level Silver Plan CSR',
  '06': '94% AV Level Silver Plan CSR',
};

export function csrOf(type: string, suffix: string): CsrVariant | Reject {
  if (/\bOff Exchange\b/i.test(type)) return 'Non-Exchange variant';
  if (/\bOn Exchange\b/i.test(type)) return 'Exchange variant (no CSR)';
  if (/^Zero Cost Sharing/i.test(type)) return 'Zero Cost Sharing Plan Variation';
  if (/^Limited Cost Sharing/i.test(type)) return 'Limited Cost Sharing Plan Variation';
  const silver = /^(73|87|94)% AV Level Silver Plan/i.exec(type);
  if (silver) return `${silver[1] as '73' | '87' | '94'}% AV Level Silver Plan CSR`;
  return CSR_BY_SUFFIX[suffix] ?? new Reject(`CSRVariationType "${type}" is not a cost-sharing variant`);
}

// The deductible/MOOP grid: {M,D,T}EHB[Ded]{tier}{family}[MOOP] (Plan Attributes PUF data dictionary).
const KINDS = [
  ['M', 'Medical EHB Deductible', 'Maximum Out of Pocket for Medical EHB Benefits'],
  ['D', 'Drug EHB Deductible', 'Maximum Out of Pocket for Drug EHB Benefits'],
  [
    'T',
    'Combined Medical and Drug EHB Deductible',
    'Maximum Out of Pocket for Medical and Drug EHB Benefits (Total)',
  ],
] as const;
const TIERS: readonly (readonly [string, NetworkTier])[] = [
  ['InnTier1', 'In-Network'],
  ['InnTier2', 'In-Network Tier 2'],
  ['OutOfNet', 'Out-of-Network'],
  ['CombInnOon', 'Combined In-Out of Network'],
];
// PY2014–2015 files have one family column (`…Family`, `…FamilyMOOP`) where later ones split it per
// person and per group.
const FAMILIES: readonly (readonly [string, FamilyCost])[] = [
  ['Individual', 'Individual'],
  ['FamilyPerPerson', 'Family Per Person'],
  ['FamilyPerGroup', 'Family'],
  ['Family', 'Family'],
];

/** Cells that state no amount: "Not Applicable", and the family forms "per person|group not applicable". */
const NOT_APPLICABLE = /^(?:per (?:person|group) )?not applicable$/i;

interface GridCell {
  column: string;
  type: string;
  tier: NetworkTier;
  family: FamilyCost;
}

// Column names built once: looking cells up by freshly built strings cost a second per PUF load.
function gridCells(column: (kind: string, tier: string, family: string) => string, deductible: boolean) {
  const list: GridCell[] = [];
  for (const kind of KINDS) {
    for (const [tierKey, tier] of TIERS) {
      for (const [familyKey, family] of FAMILIES) {
        list.push({
          column: column(kind[0], tierKey, familyKey),
          type: deductible ? kind[1] : kind[2],
          tier,
          family,
        });
      }
    }
  }
  return list;
}
const DEDUCTIBLE_CELLS = gridCells((k, t, f) => `${k}EHBDed${t}${f}`, true);
const MOOP_CELLS = gridCells((k, t, f) => `${k}EHB${t}${f}MOOP`, false);

function grid(cells: Record<string, string>, csr: CsrVariant, list: GridCell[]): CostLimit[] | Reject {
  const limits: CostLimit[] = [];
  for (const { column, type, tier, family } of list) {
    const text = cell(cells, column);
    if (text === '' || NOT_APPLICABLE.test(text)) continue;
    const amount = leadingDollars(text);
    if (amount === undefined) return new Reject(`${column} "${text}" is not an amount`);
    limits.push({
      type,
      amount,
      csr,
      network_tier: tier,
      family_cost: family,
      individual: family === 'Individual',
      family: family !== 'Individual',
      display_string: text,
    });
  }
  return limits;
}

/** The variant's deductibles and maximums out of pocket, one per stated cell of the grid. */
export function costLimits(
  cells: Record<string, string>,
  csr: CsrVariant,
): { deductibles: CostLimit[]; moops: CostLimit[] } | Reject {
  const deductibles = grid(cells, csr, DEDUCTIBLE_CELLS);
  if (deductibles instanceof Reject) return deductibles;
  const moops = grid(cells, csr, MOOP_CELLS);
  if (moops instanceof Reject) return moops;
  return { deductibles, moops };
}

const SCENARIOS = [
  ['baby', 'SBCHavingaBaby'],
  ['diabetes', 'SBCHavingDiabetes'],
  ['fracture', 'SBCHavingSimplefracture'],
] as const;
const SBC_PARTS = [
  ['deductible', 'Deductible'],
  ['copay', 'Copayment'],
  ['coinsurance', 'Coinsurance'],
  ['limit', 'Limit'],
] as const;
const SBC_CELLS = SCENARIOS.map(
  ([key, prefix]) => [key, SBC_PARTS.map(([part, suffix]) => [part, `${prefix}${suffix}`] as const)] as const,
);

/** The three Summary of Benefits and Coverage examples (`sbcs`), in dollars; null when none is stated. */
export function sbcsOf(cells: Record<string, string>): VariantDetail['sbcs'] | Reject {
  let stated = false;
  const result = {} as Record<(typeof SCENARIOS)[number][0], SbcScenario>;
  for (const [key, parts] of SBC_CELLS) {
    const scenario = {} as Record<(typeof SBC_PARTS)[number][0], number | null>;
    for (const [part, column] of parts) {
      const text = cell(cells, column);
      if (text === '' || NOT_APPLICABLE.test(text)) {
        scenario[part] = null;
        continue;
      }
      const amount = leadingDollars(text);
      if (amount === undefined) return new Reject(`${column} "${text}" is not an amount`);
      scenario[part] = amount;
      stated = true;
    }
    result[key] = scenario;
  }
  return stated ? result : null;
}

type OopcCells = Pick<
  VariantDetail,
  | 'specialty_drug_max_coinsurance'
  | 'inpatient_copay_max_days'
  | 'primary_care_cost_sharing_after_visits'
  | 'primary_care_deductible_after_copays'
>;

/** A whole number of days, visits or copays ("3", "3.0"); null when the cell is empty or not applicable. */
function countCell(cells: Record<string, string>, column: string): number | null | Reject {
  const text = cell(cells, column);
  if (text === '' || NOT_APPLICABLE.test(text)) return null;
  if (!/^\d+(?:\.0+)?$/.test(text)) return new Reject(`${column} "${text}" is not a whole number`);
  return Number(text);
}

/**
 * The variant's cells the out-of-pocket estimate reads, as published: the specialty drug coinsurance
 * maximum in dollars per prescription, the inpatient copay maximum days, and the two primary care visit
 * counts (PUF data dictionary). What they mean to the estimate is decided there (docs/decisions.md#oopc-method).
 */
export function oopcCells(cells: Record<string, string>): OopcCells | Reject {
  const specialty = cell(cells, 'SpecialtyDrugMaximumCoinsurance');
  let maxCoinsurance: number | null = null;
  if (specialty !== '' && !NOT_APPLICABLE.test(specialty)) {
    const dollars = leadingDollars(specialty);
    if (dollars === undefined) {
      return new Reject(`SpecialtyDrugMaximumCoinsurance "${specialty}" is not an amount`);
    }
    maxCoinsurance = dollars;
  }
  const days = countCell(cells, 'InpatientCopaymentMaximumDays');
  if (days instanceof Reject) return days;
  const visits = countCell(cells, 'BeginPrimaryCareCostSharingAfterNumberOfVisits');
  if (visits instanceof Reject) return visits;
  const copays = countCell(cells, 'BeginPrimaryCareDeductibleCoinsuranceAfterNumberOfCopays');
  if (copays instanceof Reject) return copays;
  return {
    specialty_drug_max_coinsurance: maxCoinsurance,
    inpatient_copay_max_days: days,
    primary_care_cost_sharing_after_visits: visits,
    primary_care_deductible_after_copays: copays,
  };
}
