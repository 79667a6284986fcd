import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  applyShare,
  centsToDollars,
  divRound,
  dollarsToCents,
  mulRatio,
  parseDollars,
  roundHalfAwayFromZero,
} from './money.js';

test('the one rounding rule: halves go away from zero', () => {
  assert.equal(roundHalfAwayFromZero(2.5), 3);
  assert.equal(roundHalfAwayFromZero(-2.5), -3);
  assert.equal(roundHalfAwayFromZero(2.4999), 2);
  assert.equal(roundHalfAwayFromZero(0), 0);
});

test('divRound is exact on integers, including a true half', () => {
  // $22,980 × 6.300 % / 12 = $120.645: a true half cent (eligibility/aptc.test.ts), rounded up.
  assert.equal(divRound(2_298_000 * 6300, 100_000 * 12), 12065);
  assert.equal(divRound(-5, 2), -3);
  assert.equal(divRound(5, -2), -3);
  assert.equal(divRound(7, 2), 4);
  assert.equal(divRound(6, 4), 2);
  assert.equal(divRound(5, 4), 1);
  assert.throws(() => divRound(1, 0), RangeError);
});

test('past 2^53 divRound switches to BigInt and stays exact', () => {
  const big = 2n ** 60n + 1n;
  assert.equal(divRound(big, 2n), Number(2n ** 59n + 1n));
  assert.equal(mulRatio(900_000_000_000, 1_000_003, 1_000_000), 900_002_700_000);
});

test('mulRatio and applyShare round once', () => {
  assert.equal(mulRatio(21222, 635, 1000), 13476); // 212.22 × 0.635 = 134.7597
  assert.equal(applyShare(34143, 0.974), 33255); // 341.43 × 97.4 % = 332.55282
  assert.equal(applyShare(10000, 1), 10000);
  assert.equal(applyShare(10001, 0.5), 5001); // 50.005 → 50.01
  assert.throws(() => applyShare(100, -0.1), RangeError);
});

test('dollars in and out: the decimal the caller wrote, two decimals back', () => {
  assert.equal(dollarsToCents(50000), 5_000_000);
  assert.equal(dollarsToCents(120.645), 12065);
  assert.equal(dollarsToCents(1.005), 101); // 1.005 is 1.00499… as a double; the text is a half
  assert.equal(dollarsToCents(-3.5), -350);
  assert.equal(parseDollars('$1,151.94'), 115194);
  assert.equal(parseDollars('157'), 15700);
  assert.equal(parseDollars('172.72'), 17272);
  assert.throws(() => parseDollars('NA'), RangeError);
  assert.equal(centsToDollars(12065), 120.65);
  assert.equal(JSON.stringify({ premium: centsToDollars(82872) }), '{"premium":828.72}');
  assert.throws(() => centsToDollars(1.5), RangeError);
});
