import { AGE_CURVES } from '../tables/age-curves.js';
import { mulRatio, type Cents } from './money.js';

/**
 * Premiums at every age for the years we hold only the CMS QHP Landscape files (2014–2017: ID, NM, NV,
 * OR, HI). Those files publish a plan's premium at ages 21, 27, 30, 40, 50, 60 and for a child, not a
 * Rate PUF row per age. In those states and years rates followed the federal default age curve (45 CFR
 * 147.102(e); CMS "Guidance Regarding Age Curves and Geographical Rating Areas", 2013: 0–20 at 0.635,
 * 64+ at 3.000 of the age-21 rate), so the premium at age a is DERIVED: age-21 premium × factor(a),
 * rounded once to the cent. It is not a published figure; `checkPublishedPremium` compares the
 * derivation with the columns the files do publish.
 */

const FIRST_LANDSCAPE_YEAR = 2014;
const LAST_LANDSCAPE_YEAR = 2017;

/** The age curve of a landscape year (factors in thousandths, index = age, 64 = 64 and over). */
export function landscapeCurve(year: number): readonly number[] | undefined {
  if (year < FIRST_LANDSCAPE_YEAR || year > LAST_LANDSCAPE_YEAR) return undefined;
  return AGE_CURVES.FEDERAL_DEFAULT_2014_2017;
}

function factorAt(curve: readonly number[], age: number): number {
  if (!Number.isInteger(age) || age < 0) throw new RangeError(`bad age: ${age}`);
  return curve[Math.min(age, curve.length - 1)]!;
}

/**
 * The derived premium at `age`: `age21 × factor(age)`, rounded half away from zero to the cent
 * (45 CFR 147.102(e): a rate varies by age only through the state's age curve). A landscape `Premium
 * Child` is the 0–20 band: pass age 0.
 */
export function derivedAgePremium(age21: Cents, age: number, curve: readonly number[]): Cents {
  return mulRatio(age21, factorAt(curve, age), 1000);
}

/**
 * The widest gap rounding alone can open between a derived and a published premium, when both the
 * age-21 premium and the age-a premium were rounded from one unrounded base rate at `precision` cents
 * (1 for cent files; 100 where an issuer published whole dollars): half a step carried through the
 * factor plus half a step on the published figure.
 */
export function roundingToleranceCents(age: number, curve: readonly number[], precision = 1): number {
  return Math.ceil((precision * (factorAt(curve, age) + 1000)) / 2000);
}

export interface PremiumCheck {
  age: number;
  published: Cents;
  derived: Cents;
  /** published − derived. */
  difference: Cents;
  ok: boolean;
}

/**
 * Checks one published landscape column against the derivation: ok when they are within `tolerance`
 * cents (one cent unless the caller allows for the file's rounding, see `roundingToleranceCents`).
 */
export function checkPublishedPremium(
  age21: Cents,
  age: number,
  published: Cents,
  curve: readonly number[],
  tolerance = 1,
): PremiumCheck {
  const derived = derivedAgePremium(age21, age, curve);
  const difference = published - derived;
  return { age, published, derived, difference, ok: Math.abs(difference) <= tolerance };
}
