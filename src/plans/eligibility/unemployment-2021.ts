/** `household.unemployment_received` (CMS Marketplace API, PY2021). */
export const UNEMPLOYMENT_RECEIVED = ['Adult', 'Dependent', 'None'] as const;
export type UnemploymentReceived = (typeof UNEMPLOYMENT_RECEIVED)[number];

/** What the FPL % is used for here: the credit itself, or the CSR level. */
export type CreditUse = 'aptc' | 'csr';

/** ARPA §9663's cap: household income above 133 % FPL is not taken into account. */
const UNEMPLOYMENT_CAP_PERCENT = 133;
const UNEMPLOYMENT_YEAR = 2021;

export interface CreditFpl {
  fplPercent: number;
  /** Treated as an applicable taxpayer (eligible for the credit even below 100 % FPL). */
  treatedAsApplicable: boolean;
}

/**
 * 26 U.S.C. 36B(g), added by ARPA §9663: a taxpayer who received unemployment compensation for any week
 * beginning in 2021 is treated as an applicable taxpayer and household income above 133 % FPL is not
 * taken into account. The CMS API scopes it by `unemployment_received` (docs/decisions.md#unemployment-2021):
 * `Adult` → the credit and CSR, `Dependent` → CSR only. Other years and `None` leave the FPL % as it is.
 */
export function creditFpl(
  year: number,
  fplPercent: number,
  unemployment: UnemploymentReceived | null | undefined,
  use: CreditUse,
): CreditFpl {
  const applies =
    year === UNEMPLOYMENT_YEAR &&
    (unemployment === 'Adult' || (unemployment === 'Dependent' && use === 'csr'));
  if (!applies) return { fplPercent, treatedAsApplicable: false };
  return { fplPercent: Math.min(fplPercent, UNEMPLOYMENT_CAP_PERCENT), treatedAsApplicable: true };
}
