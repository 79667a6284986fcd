/**
 * Money in the plan API: integer cents, and one rounding rule — half away from zero, to the cent.
 *
 * Why this rule and not banker's rounding: every amount we publish is rounded once, at the end of its
 * own computation (a premium, a credit, a contribution), never summed from rounded halves, so the bias
 * that half-to-even removes from long sums does not arise. Half away from zero is the rule the IRS gives
 * for amounts on a return ("drop amounts under 50 cents and increase amounts from 50 to 99 cents to the
 * next dollar", Form 1040 instructions, "Rounding Off to Whole Dollars"), and it is what a reader checking
 * a premium by hand expects. For the positive amounts of this API it is plain "half up". (The CMS QHP
 * Landscape files cannot decide between the two: their age columns come from an unrounded base rate we
 * do not have, so an apparent half in age-21 premium × factor is not a true half.)
 */

/** An amount of money in whole cents (a safe integer). */
export type Cents = number;

/**
 * The one rounding rule: to the nearest integer, halves away from zero (2.5 → 3, −2.5 → −3).
 * Use it only where the operands are already inexact floats; exact ratios go through {@link divRound}.
 */
export function roundHalfAwayFromZero(value: number): number {
  const rounded = Math.round(Math.abs(value));
  return value < 0 ? -rounded : rounded;
}

/**
 * `numerator / denominator` rounded by the one rule, computed exactly on integers (BigInt past 2^53), so a
 * true half is recognised as one: 1 × 1 / 2 → 1, 2 × 635 / 1000 → 1.27 → 1.
 */
export function divRound(numerator: number | bigint, denominator: number | bigint): number {
  if (typeof numerator === 'number' && typeof denominator === 'number') {
    if (!Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator)) {
      return divRound(BigInt(checkedInteger(numerator)), BigInt(checkedInteger(denominator)));
    }
    if (denominator === 0) throw new RangeError('division by zero');
    const sign = numerator < 0 !== denominator < 0 ? -1 : 1;
    const n = Math.abs(numerator);
    const d = Math.abs(denominator);
    const quotient = Math.floor(n / d);
    const remainder = n - quotient * d;
    return sign * (remainder * 2 >= d ? quotient + 1 : quotient);
  }
  const n = BigInt(numerator);
  const d = BigInt(denominator);
  if (d === 0n) throw new RangeError('division by zero');
  const negative = n < 0n !== d < 0n;
  const an = n < 0n ? -n : n;
  const ad = d < 0n ? -d : d;
  let quotient = an / ad;
  if ((an % ad) * 2n >= ad) quotient += 1n;
  return Number(negative ? -quotient : quotient);
}

function checkedInteger(value: number): number {
  if (!Number.isInteger(value)) throw new RangeError(`not an integer: ${value}`);
  return value;
}

/** `cents × numerator / denominator`, rounded once by the rule (a factor in thousandths: `mulRatio(c, 635, 1000)`). */
export function mulRatio(cents: Cents, numerator: number, denominator: number): Cents {
  const product = cents * numerator;
  return Number.isSafeInteger(product)
    ? divRound(product, denominator)
    : divRound(BigInt(cents) * BigInt(numerator), BigInt(denominator));
}

/** Decimal places kept of a share given as a decimal fraction (the PUFs publish at most 6). */
const SHARE_SCALE = 1_000_000_000;

/**
 * `cents × share` for a share published as a decimal fraction (EHBPercentTotalPremium `0.9964`), rounded
 * once by the rule. The share is taken to nine decimals so the product is exact.
 */
export function applyShare(cents: Cents, share: number): Cents {
  return applyScaledShare(cents, scaledShare(share));
}

/** A share in billionths (`0.9964` → 996,400,000): work it out once when it is applied many times. */
export function scaledShare(share: number): number {
  if (!(share >= 0)) throw new RangeError(`share must be a non-negative number: ${share}`);
  return Math.round(share * SHARE_SCALE);
}

/** `applyShare` with the share already in billionths (`scaledShare`). */
export function applyScaledShare(cents: Cents, billionths: number): Cents {
  return mulRatio(cents, billionths, SHARE_SCALE);
}

/** A dollar amount of the API (a JSON number such as `120.645` or `50000`) in cents, by the rule. */
export function dollarsToCents(dollars: number): Cents {
  if (!Number.isFinite(dollars)) throw new RangeError(`not a finite amount: ${dollars}`);
  // Through the decimal text, so 1.005 (stored as 1.00499…) is the half the caller wrote.
  return parseDecimalCents(String(dollars));
}

/** A published amount such as `$1,151.94`, `212.22` or `-3.5` in cents (rounded by the rule past the cent). */
export function parseDollars(text: string): Cents {
  const cleaned = text.trim().replace(/^\$/, '').replace(/,/g, '');
  const match = /^-?\$?\d+(\.\d+)?$/.exec(cleaned);
  if (!match) throw new RangeError(`not a dollar amount: ${JSON.stringify(text)}`);
  return parseDecimalCents(cleaned.replace('$', ''));
}

/** Digits that always fit a double exactly (below 2^53). */
const EXACT_DIGITS = 15;

function parseDecimalCents(decimal: string): Cents {
  if (/e/i.test(decimal)) return roundHalfAwayFromZero(Number(decimal) * 100);
  const negative = decimal.startsWith('-');
  const [whole = '0', fraction = ''] = decimal.replace(/^-/, '').split('.');
  const digits = `${whole}${fraction.padEnd(2, '0')}`;
  const places = Math.max(fraction.length, 2) - 2;
  // The digits as an integer over 10^places, rounded once; exact in doubles when short enough.
  const cents =
    digits.length <= EXACT_DIGITS && places <= EXACT_DIGITS
      ? divRound(Number(digits), 10 ** places)
      : divRound(BigInt(digits), 10n ** BigInt(places));
  return negative ? -cents : cents;
}

/** Cents as the API's JSON number of dollars with (at most) two decimals: 12065 → 120.65. */
export function centsToDollars(cents: Cents): number {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not a whole number of cents: ${cents}`);
  return cents / 100;
}
