/**
 * Texas's Medicaid and separate-CHIP income limits (% FPL, 5-point MAGI disregard included) as published
 * for January 2025 and January 2026 — KFF State Health Facts, "Medicaid and CHIP Income Eligibility
 * Limits" indicators, and Medicaid.gov "Medicaid, CHIP & BHP Eligibility Levels" — so the sample market can
 * screen Medicaid/CHIP for its Texas counties. These are published facts, not generated figures; an empty
 * limit means Texas does not cover the category (no adult expansion, no CHIP for pregnant women, no
 * 19–20 option). The sample load carries them only where no Medicaid data of the year is loaded.
 */
const TEXAS_LIMITS: readonly (readonly [program: string, category: string, pct: number | null])[] = [
  ['chip_separate', 'child', 206],
  ['chip_separate', 'pregnant', null],
  ['medicaid', 'adult_19_64_expansion', null],
  ['medicaid', 'infant_0_1', 203],
  ['medicaid', 'child_1_5', 149],
  ['medicaid', 'child_6_18', 138],
  ['medicaid', 'parent_caretaker', 19],
  ['medicaid', 'pregnant', 203],
  ['medicaid', 'young_adult_19_20', null],
];

/** The same limits were in force in January 2025 and 2026, the latest we cite. */
const FIRST_PUBLISHED_YEAR = 2025;

export const MEDICAID_COLUMNS = [
  'as_of_year_jan1',
  'state',
  'program',
  'category',
  'income_limit_pct_fpl',
] as const;

/**
 * Rows of `medicaid/medicaid_chip_income_limits_pct_fpl.csv` layout for Texas in `year`: the cited limits
 * for 2025 and 2026, and for a later sample year the latest of them (the sample market is labelled as
 * such in every answer); none before 2025.
 */
export function texasMedicaidRows(year: number): (string | number)[][] {
  if (year < FIRST_PUBLISHED_YEAR) return [];
  return TEXAS_LIMITS.map(([program, category, pct]) => [year, 'TX', program, category, pct ?? '']);
}
