/**
 * Medicaid and CHIP screening by category, age and income, against a state's published limits. The
 * limits are % FPL as published (Medicaid.gov / KFF), which already include the 5-percentage-point MAGI
 * disregard of 42 CFR 435.603(d)(4) — 138 for the adult group — so the test is FPL % ≤ limit.
 */

export type MedicaidCategory =
  | 'pregnant'
  | 'infant'
  | 'child_1_5'
  | 'child_6_18'
  | 'young_adult_19_20'
  | 'parent'
  | 'adult'
  | 'chip_child'
  | 'chip_pregnant';

/** A state's limits: % FPL; null = the state does not cover the category; absent = unknown to us. */
export type MedicaidLimitsByCategory = Partial<Record<MedicaidCategory, number | null>>;

/** Our stored (program, category) keys (medicaid ingest, `medicaid_limits`) → the categories here. */
const STORED_CATEGORIES: Readonly<Record<string, MedicaidCategory>> = {
  'medicaid/pregnant': 'pregnant',
  'medicaid/infant_0_1': 'infant',
  'medicaid/child_1_5': 'child_1_5',
  'medicaid/child_6_18': 'child_6_18',
  'medicaid/young_adult_19_20': 'young_adult_19_20',
  'medicaid/parent_caretaker': 'parent',
  'medicaid/adult_19_64_expansion': 'adult',
  'chip_separate/child': 'chip_child',
  'chip_separate/pregnant': 'chip_pregnant',
};

/** A state's stored limit rows (`MedicaidLimit` of the store) by category; unknown keys are ignored. */
export function limitsByCategory(
  rows: readonly { program: string; category: string; pct: number | null }[],
): MedicaidLimitsByCategory {
  const limits: MedicaidLimitsByCategory = {};
  for (const row of rows) {
    const category = STORED_CATEGORIES[`${row.program}/${row.category}`];
    if (category) limits[category] = row.pct;
  }
  return limits;
}

/** The API's Person fields that pick categories. */
export interface MedicaidPerson {
  age: number;
  is_pregnant?: boolean | null;
  pregnant_with?: number | null;
  is_parent?: boolean | null;
}

/**
 * The categories a person can qualify in, Medicaid before CHIP, each with its rule:
 * pregnant women 42 CFR 435.116; infants and children under 19 435.118 (the limit differs under 1,
 * 1–5, 6–18); individuals 19–20 435.222 (state option); parents and caretaker relatives 435.110; the
 * adult group 19–64, not pregnant, 435.119 (expansion states only); CHIP targeted low-income children
 * under 19, 42 CFR 457.310; CHIP coverage of pregnant women (state option, Social Security Act §2112,
 * 42 U.S.C. 1397ll).
 */
export function categoriesFor(person: MedicaidPerson): MedicaidCategory[] {
  const pregnant = Boolean(person.is_pregnant) || (person.pregnant_with ?? 0) > 0;
  const { age } = person;
  const categories: MedicaidCategory[] = [];
  if (pregnant) categories.push('pregnant');
  if (age < 1) categories.push('infant');
  else if (age <= 5) categories.push('child_1_5');
  else if (age <= 18) categories.push('child_6_18');
  else if (age <= 20) categories.push('young_adult_19_20');
  if (person.is_parent) categories.push('parent');
  if (age >= 19 && age <= 64 && !pregnant) categories.push('adult');
  if (age <= 18) categories.push('chip_child');
  if (pregnant) categories.push('chip_pregnant');
  return categories;
}

export interface MedicaidResult {
  is_medicaid_chip: boolean;
  /** The first category that qualifies. */
  category: MedicaidCategory | null;
  /** Categories that apply to the person whose limit we do not know (no row): the answer may be wrong. */
  unknown: MedicaidCategory[];
}

/**
 * `is_medicaid_chip`: some category of the person covers them at this income, FPL % ≤ its limit
 * (docs/decisions.md#medicaid-chip; 42 CFR 435.603(d)(4) disregard already in the limit). Pass the FPL % of
 * the Medicaid household (fpl.ts with purpose `medicaid`).
 */
export function medicaidChipEligibility(
  person: MedicaidPerson,
  fplPercent: number,
  limits: MedicaidLimitsByCategory,
): MedicaidResult {
  const unknown: MedicaidCategory[] = [];
  for (const category of categoriesFor(person)) {
    const limit = limits[category];
    if (limit === undefined) unknown.push(category);
    else if (limit !== null && fplPercent <= limit) return { is_medicaid_chip: true, category, unknown };
  }
  return { is_medicaid_chip: false, category: null, unknown };
}

/**
 * `in_coverage_gap`: in a state that did not expand Medicaid to the adult group (its adult limit is
 * known to be null), income below 100 % FPL, where no credit is allowed (26 U.S.C. 36B(c)(1)(A)), and
 * not Medicaid/CHIP-eligible by another category (docs/decisions.md#medicaid-chip).
 */
export function inCoverageGap(
  fplPercent: number,
  limits: MedicaidLimitsByCategory,
  isMedicaidChip: boolean,
): boolean {
  return limits.adult === null && fplPercent < 100 && !isMedicaidChip;
}
