import type { MedicaidLimit, MedicaidLimits } from '../store/medicaid.js';
import type { StateFacts } from '../tables/states.js';

/** An age band's income limit: `pc_fpl` as a fraction of FPL (1.38 = 138 %). */
export interface AgeBandLimit {
  min_age: number;
  max_age: number;
  pc_fpl: number;
}

type FractionField =
  | 'pc_fpl_parent'
  | 'pc_fpl_pregnant'
  | 'pc_fpl_adult'
  | 'pc_fpl_child_newborn'
  | 'pc_fpl_child_1_5'
  | 'pc_fpl_child_6_18';

/** A state's Medicaid and CHIP limits in the CMS `StateMedicaid` shape. */
export interface StateMedicaidLimits extends Partial<Record<FractionField, number>> {
  name: string;
  abbrev: string;
  fiscal_year: number;
  fiscal_quarter: number;
  low_income_child: AgeBandLimit[];
  chip: AgeBandLimit[];
}

/** Our category keys (medicaid/medicaid_chip_income_limits_pct_fpl.csv) → the CMS `StateMedicaid` fields. */
const MEDICAID_FIELDS: Record<string, FractionField> = {
  parent_caretaker: 'pc_fpl_parent',
  pregnant: 'pc_fpl_pregnant',
  adult_19_64_expansion: 'pc_fpl_adult',
  infant_0_1: 'pc_fpl_child_newborn',
  child_1_5: 'pc_fpl_child_1_5',
  child_6_18: 'pc_fpl_child_6_18',
};

/** Percent of FPL as published (138) → the API's fraction (1.38); not covered → 0 (the CMS example's adult 0). */
function fraction(pct: number | null): number {
  return pct === null ? 0 : Math.round(pct * 100) / 10000;
}

function band(limit: MedicaidLimit | undefined, minAge: number, maxAge: number): AgeBandLimit[] {
  return limit && limit.pct !== null
    ? [{ min_age: minAge, max_age: maxAge, pc_fpl: fraction(limit.pct) }]
    : [];
}

/**
 * A state's limits in the API's form. A category with no row is unknown and its field is left out (not
 * 0: that would say "not covered"). Medicaid for young adults 19–20 (the optional group of individuals
 * under 21) is `low_income_child`; a separate CHIP for children 0–18 is `chip`.
 */
export function toStateMedicaid(state: StateFacts, found: MedicaidLimits): StateMedicaidLimits {
  const find = (program: string, category: string) =>
    found.limits.find((l) => l.program === program && l.category === category);
  const fractions: Partial<Record<FractionField, number>> = {};
  for (const [category, field] of Object.entries(MEDICAID_FIELDS)) {
    const limit = find('medicaid', category);
    if (limit) fractions[field] = fraction(limit.pct);
  }
  return {
    name: state.name.toUpperCase(),
    abbrev: state.abbrev,
    fiscal_year: found.year,
    fiscal_quarter: found.quarter,
    ...fractions,
    low_income_child: band(find('medicaid', 'young_adult_19_20'), 19, 20),
    chip: band(find('chip_separate', 'child'), 0, 18),
  };
}
