import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AGE_CURVES } from '../tables/age-curves.js';
import {
  checkPublishedPremium,
  derivedAgePremium,
  landscapeCurve,
  roundingToleranceCents,
} from './landscape-derivation.js';
import { parseDollars } from './money.js';

const curve = AGE_CURVES.FEDERAL_DEFAULT_2014_2017;
/** Landscape columns: Premium Child (the 0–20 band, age 0 here), then adult ages 21, 27, 30, 40, 50, 60. */
const AGES = [0, 21, 27, 30, 40, 50, 60];

function columns(published: string[]): [number, number][] {
  return published.map((text, i) => [AGES[i]!, parseDollars(text)]);
}

test('2014–2017 use the federal default curve; other years have no landscape derivation', () => {
  assert.equal(landscapeCurve(2014), curve);
  assert.equal(landscapeCurve(2017), curve);
  assert.equal(landscapeCurve(2018), undefined);
  assert.equal(landscapeCurve(2013), undefined);
});

test('2014 ID 26002ID0010001 (ADA): 212.22 × factor reproduces every published age to the cent', () => {
  // 2014_QHP_Landscape_ID_Individual_Market_Medical.csv, Gold, Rating Area 6.
  const published = columns(['$134.76', '$212.22', '$222.41', '$240.87', '$271.22', '$379.02', '$575.97']);
  for (const [age, cents] of published) {
    assert.equal(derivedAgePremium(21222, age, curve), cents, `age ${age}`);
    assert.equal(checkPublishedPremium(21222, age, cents, curve).difference, 0);
  }
  assert.equal(derivedAgePremium(21222, 64, curve), 63666); // 212.22 × 3.000
  assert.equal(derivedAgePremium(21222, 70, curve), 63666); // 64 and over
  assert.equal(derivedAgePremium(21222, 45, curve), 30645); // 212.22 × 1.444 = 306.44568
});

test('2016 HI 18350HI0880001: within one cent at every published age', () => {
  // 2016_QHP_Landscape_HI_Individual_Market_Medical.csv, Platinum, Rating Area 1.
  const published = columns(['$216.81', '$341.43', '$357.82', '$387.52', '$436.35', '$609.80', '$926.65']);
  const checks = published.map(([age, cents]) => checkPublishedPremium(34143, age, cents, curve));
  assert.deepEqual(
    checks.map((c) => c.difference),
    [0, 0, 0, 0, 0, 1, 1],
  );
  assert.ok(checks.every((c) => c.ok));
});

test('whole-dollar files (2015 OR, Baker, Silver): within the rounding bound of $1 steps, not one cent', () => {
  // 2015_QHP_Landscape_OR_Individual_Market_Medical.csv: this issuer published whole dollars.
  const published = columns(['$156.00', '$245.00', '$257.00', '$278.00', '$313.00', '$438.00', '$666.00']);
  const checks = published.map(([age, cents]) =>
    checkPublishedPremium(24500, age, cents, curve, roundingToleranceCents(age, curve, 100)),
  );
  assert.ok(
    checks.every((c) => c.ok),
    JSON.stringify(checks),
  );
  assert.equal(checkPublishedPremium(24500, 60, 66600, curve).ok, false); // 664.93 derived
});

test('not every published column is within a cent: 2015 NM 19722NM0010002 (Catron) is 4 cents off at 60', () => {
  // 2015_QHP_Landscape_NM_Individual_Market_Medical.csv, Silver: $202.82 at 21, $550.41 at 60;
  // 202.82 × 2.714 = 550.45. The issuer's base rate was not its published age-21 premium.
  const check = checkPublishedPremium(20282, 60, 55041, curve);
  assert.deepEqual(check, { age: 60, published: 55041, derived: 55045, difference: -4, ok: false });
  assert.equal(roundingToleranceCents(60, curve), 2);
});
