import type { Static } from 'typebox';
import type { MedicaidLimit, MedicaidLimits } from '../store/medicaid.js';
import type { StateFacts } from '../tables/states.js';
import type { StateMedicaid } from './shapes.js';

type Fractions = Partial<Record<`pc_fpl_${string}`, number>>;

/** Our category keys (medicaid/medicaid_chip_income_limits_pct_fpl.csv) → the CMS `StateMedicaid` fields. */
const MEDICAID_FIELDS: Record<string, keyof Static<typeof StateMedicaid>> = {
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

function band(limit: MedicaidLimit | undefined, minAge: number, maxAge: number) {
  return limit && limit.pct !== null
    ? [{ min_age: minAge, max_age: maxAge, pc_fpl: fraction(limit.pct) }]
    : [];
}

/**
 * A state's limits in the API's form. A category with no row is unknown and its field is left out (not
 * 0: that would say "not covered"). Medicaid for young adults 19–20 (the optional group of individuals
 * under 21) is `low_income_child`; a separate CHIP for children 0–18 is `chip`.
 */
export function toStateMedicaid(state: StateFacts, found: MedicaidLimits): Static<typeof StateMedicaid> {
  const find = (program: string, category: string) =>
    found.limits.find((l) => l.program === program && l.category === category);
  const fractions: Fractions = {};
  for (const [category, field] of Object.entries(MEDICAID_FIELDS)) {
    const limit = find('medicaid', category);
    if (limit) fractions[field as `pc_fpl_${string}`] = fraction(limit.pct);
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
