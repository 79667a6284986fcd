import { AGE_CURVES } from '../tables/age-curves.js';
import { divRound, mulRatio, type Cents } from './money.js';

/**
 * Premiums at every age for the years we hold only the CMS QHP Landscape files (2014–2017: ID, NM, NV,
 * OR, HI). Those files publish a plan's premium at ages 21, 27, 30, 40, 50, 60 and for a child, not a
 * Rate PUF row per age. In those states and years rates followed the federal default age curve (45 CFR
 * 147.102(e); CMS "Guidance Regarding Age Curves and Geographical Rating Areas", 2013: 0–20 at 0.635,
 * 64+ at 3.000 of the age-21 rate), so the premium at age a is DERIVED: age-21 premium × factor(a),
 * rounded once to the cent. It is not a published figure; `checkPublishedPremium` compares the
 * derivation with the columns the files do publish.
 *
 * Measured over every row of the ten files we hold (landscape-derivation.test.ts): from the published
 * age-21 premium, 94 % of rows are within the rounding bound at every age; in the other 6 % (eight
 * issuer-years, listed in landscape-exceptions.ts) the published age-21 premium is itself one rounding
 * step off the base rate the row's other six columns share. Deriving from the age-21 premium
 * reconstructed from all seven columns (`reconstructedAge21`) reproduces every column of every row
 * within the rounding bound, so prefer it whenever the other columns are at hand.
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

/** A published landscape column: the age it prices (0 for `Premium Child`) and its premium. */
export type PublishedPremium = readonly [age: number, premium: Cents];

/**
 * The step a plan's premiums were published in: 100 (whole dollars) when every premium given is a whole
 * number of dollars — some issuers filed whole-dollar rates (2014–2017 ID and OR files) — else 1 (cents).
 * Pass all of one plan's premiums in one file, so a cent plan is not mistaken for a whole-dollar one on
 * the strength of a single row. No premium at all: cents.
 */
export function publishedPrecision(premiums: Iterable<Cents>): number {
  let any = false;
  for (const cents of premiums) {
    if (cents % 100 !== 0) return 1;
    any = true;
  }
  return any ? 100 : 1;
}

/**
 * The age-21 premium reconstructed from every published column of a row: the base rate B that keeps the
 * largest gap |published(a) − B × factor(a)| smallest (a minimax fit over one unknown), rounded by the one
 * rule to the file's `precision`. The optimum is fixed by one pair of columns i, j — the pair with the
 * widest gap (Pᵢfⱼ − Pⱼfᵢ) / (fᵢ + fⱼ) — at B = (Pᵢ + Pⱼ) / (fᵢ + fⱼ); all of it in exact integers.
 * Where the published age-21 premium is the base, this returns it; where an issuer's age-21 column is a
 * rounding step off the base of its other columns, this returns the base.
 */
export function reconstructedAge21(
  published: readonly PublishedPremium[],
  curve: readonly number[],
  precision = 1,
): Cents {
  if (published.length === 0) throw new RangeError('no published premium to reconstruct from');
  const columns = published.map(([age, cents]) => ({ cents, factor: factorAt(curve, age) }));
  let best = { num: 0, den: 1, sum: columns[0]!.cents * 2, factors: columns[0]!.factor * 2 };
  for (const i of columns) {
    for (const j of columns) {
      const num = i.cents * j.factor - j.cents * i.factor;
      const den = i.factor + j.factor;
      // num/den > best.num/best.den, denominators positive.
      if (num * best.den > best.num * den) {
        best = { num, den, sum: i.cents + j.cents, factors: den };
      }
    }
  }
  return divRound(best.sum * 1000, best.factors * precision) * precision;
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
