/**
 * What a Medicare beneficiary pays for a procedure, nationally, under the two addenda the price lookup
 * reads. Money is integer mills (thousandths of a dollar: OPPS payment rates carry three decimals) in, and
 * integer cents out, rounded half up once (`millsToCents`).
 */

/**
 * The Part A inpatient hospital deductible by calendar year (CMS's annual announcements of the Medicare
 * Parts A and B premiums and deductibles): the cap on one OPPS service's copayment.
 */
export const INPATIENT_DEDUCTIBLE_CENTS: Readonly<Record<number, number>> = {
  2023: 160_000,
  2024: 163_200,
  2025: 167_600,
  2026: 173_600,
};

/** Mills → cents, half up (the one rounding step). */
export function millsToCents(mills: number): number {
  return Math.floor((mills + 5) / 10);
}

/** The payment columns of one OPPS Addendum A or B row, in mills; null where the cell is empty or ".". */
export interface OppsPayment {
  paymentRate: number;
  nationalUnadjustedCopayment: number | null;
  minimumUnadjustedCopayment: number | null;
  /** The IRA coinsurance percentage in thousandths of a percent (19.787 % → 19787); null when none. */
  iraCoinsurance: number | null;
}

/**
 * The OPPS beneficiary copayment of one service, in cents:
 * - the national unadjusted copayment, or where the addendum has none (".") the minimum unadjusted
 *   copayment, 20 % of the payment rate (42 CFR 419.41);
 * - for a drug or biological whose coinsurance the Inflation Reduction Act lowered (SSA §1833(t)(8)(F)),
 *   that percentage of the payment rate;
 * - at most the year's inpatient hospital deductible (SSA §1833(t)(8)(C)(i)), when the year's deductible is
 *   known.
 * The addenda print the result of the last two steps as "Adjusted Beneficiary Copayment"; the tests check
 * this rule against every row of the CY 2025 Addendum A excerpt.
 */
export function oppsCopayCents(payment: OppsPayment, year: number): number {
  let cents =
    payment.iraCoinsurance !== null
      ? millsToCents(Math.round((payment.paymentRate * payment.iraCoinsurance) / 100_000))
      : millsToCents(
          payment.nationalUnadjustedCopayment ??
            payment.minimumUnadjustedCopayment ??
            Math.ceil(payment.paymentRate / 5),
        );
  const deductible = INPATIENT_DEDUCTIBLE_CENTS[year];
  if (deductible !== undefined) cents = Math.min(cents, deductible);
  return cents;
}

/**
 * The ASC beneficiary coinsurance, in cents: 20 % of the ASC payment rate (Addendum AA, note 3: "The
 * Medicare program payment is 80 percent of the total payment amount and beneficiary coinsurance is 20
 * percent"; SSA §1833(a)(1)(G)), and none for the preventive services the addendum marks "**", whose
 * coinsurance the Affordable Care Act (§§ 4104, 10406) waives. No deductible cap: that is OPPS's rule.
 */
export function ascCopayCents(paymentRateCents: number, preventive: boolean): number {
  return preventive ? 0 : millsToCents(paymentRateCents * 2);
}
