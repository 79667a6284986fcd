import type { CsrVariant } from '../store/plan-detail.js';

/** `csr_override` of a plan search request (short codes; CMS Marketplace API). */
export const CSR_OVERRIDES = ['CSR73', 'CSR87', 'CSR94', 'LimitedCSR', 'ZeroCSR'] as const;
export type CsrOverride = (typeof CSR_OVERRIDES)[number];

/** The CSR a household is eligible for (`CSREligibilityEnum` and the AI/AN variations), or none. */
export type CsrLevel = Extract<
  CsrVariant,
  | '73% AV Level Silver Plan CSR'
  | '87% AV Level Silver Plan CSR'
  | '94% AV Level Silver Plan CSR'
  | 'Zero Cost Sharing Plan Variation'
  | 'Limited Cost Sharing Plan Variation'
>;

const OVERRIDES: Readonly<Record<CsrOverride, CsrLevel>> = {
  CSR73: '73% AV Level Silver Plan CSR',
  CSR87: '87% AV Level Silver Plan CSR',
  CSR94: '94% AV Level Silver Plan CSR',
  ZeroCSR: 'Zero Cost Sharing Plan Variation',
  LimitedCSR: 'Limited Cost Sharing Plan Variation',
};

/** The level a `csr_override` code stands for. */
export function csrOverrideLevel(code: CsrOverride): CsrLevel {
  return OVERRIDES[code];
}

export interface CsrInput {
  /** Household income as % FPL for the credit (fpl.ts, purpose `aptc`; 2021 unemployment rule applied). */
  fplPercent: number;
  /** Eligible for APTC (settled by the caller, including the below-100 % exceptions). */
  aptcEligible: boolean;
  /** American Indian or Alaska Native (an "Indian" of 45 CFR 155.300(a)). */
  aian?: boolean;
}

/**
 * The CSR level of a household. 45 CFR 155.305(g): eligible for APTC and income ≤ 250 % FPL; (g)(2)(i)
 * 100–150 % (or below 100 % where APTC is allowed there) → 94 % AV, (ii) over 150–200 % → 87 %, (iii)
 * over 200–250 % → 73 %. Indians, 45 CFR 155.350: (a) eligible for APTC with income ≤ 300 % → zero cost
 * sharing; (b) at any income → limited cost sharing. Null = no CSR.
 */
export function csrLevel(input: CsrInput): CsrLevel | null {
  const { fplPercent, aptcEligible, aian } = input;
  if (aian) {
    return aptcEligible && fplPercent <= 300
      ? 'Zero Cost Sharing Plan Variation'
      : 'Limited Cost Sharing Plan Variation';
  }
  if (!aptcEligible) return null;
  if (fplPercent <= 150) return '94% AV Level Silver Plan CSR';
  if (fplPercent <= 200) return '87% AV Level Silver Plan CSR';
  if (fplPercent <= 250) return '73% AV Level Silver Plan CSR';
  return null;
}

const SILVER_ONLY = new Set<CsrLevel>([
  '73% AV Level Silver Plan CSR',
  '87% AV Level Silver Plan CSR',
  '94% AV Level Silver Plan CSR',
]);

/**
 * The variant of one plan a household sees. 45 CFR 156.420(a): the 73/87/94 % variations exist only for
 * silver plans; (b): the zero and limited cost-sharing variations for Indians exist at every metal level.
 * `csr_override` replaces the household's own level. Otherwise the standard exchange variant.
 */
export function csrVariantForPlan(
  level: CsrLevel | null,
  metalLevel: string,
  override?: CsrOverride | null,
): CsrVariant {
  const chosen = override ? OVERRIDES[override] : level;
  if (!chosen) return 'Exchange variant (no CSR)';
  if (SILVER_ONLY.has(chosen) && metalLevel !== 'Silver') return 'Exchange variant (no CSR)';
  return chosen;
}
