import assert from 'node:assert/strict';
import { test } from 'node:test';
import { divRound, type Cents } from '../pricing/money.js';
import { applicablePercentage, expectedContribution } from './applicable-percentage.js';
import { applyCredit, monthlyAptc, secondLowestCost } from './aptc.js';
import { fplPercent } from './fpl.js';

// Worked examples published by the IRS and Treasury, reproduced with our functions. Each test cites its
// source; the numbers are the source's, the code is ours. Sources as read (stored copies, via the search
// tool): 26 CFR 1.36B-3 and 1.36B-4 (eCFR text in GitHub MichalOpoka/ecfr, cfr/title-26-…/section-1.36B-3.md
// and section-1.36B-4.md); Instructions for Form 8962 (2017), pages 7–8 (formsbank.com copy). The text of
// Publication 974 could not be read past its table of contents through the search tool, so no example
// here is taken from it.
//
// The applicable percentage is "rounded to the nearest one-hundredth of one percent" (26 CFR
// 1.36B-3(g)(1)), as ours is. One rounding rule still differs: Form 8962 lines 8a and 8b, and the
// regulation's examples, round the contribution to whole dollars, where we keep cents; comparisons here
// round ours the same way.

const WHOLE_PERCENT = 10;

/** Our applicable percentage (thousandths of a percent) at the IRS precision, hundredths of a percent. */
function irsHundredths(year: number, fpl: number): number {
  const result = applicablePercentage(year, fpl);
  assert.ok(result.eligible, `${year} ${fpl} %`);
  return divRound(result.thousandths, WHOLE_PERCENT);
}

/** An annual contribution in whole dollars, the way Form 8962 line 8a rounds it. */
function wholeDollars(cents: Cents): number {
  return divRound(cents, 100);
}

/** Our annual contribution in whole dollars, the way the examples round theirs. */
function contribution(year: number, incomeDollars: number, fpl: number): number {
  const ours = applicablePercentage(year, fpl);
  assert.ok(ours.eligible);
  return wholeDollars(expectedContribution(incomeDollars * 100, ours.thousandths).annual);
}

// 26 CFR 1.36B-3(g)(3), Example 1 (2014 table): 275 % of the poverty line is halfway through the
// 250–300 % band, "rounded to the nearest one-hundredth of one percent … 8.78".
test('1.36B-3(g)(3) Example 1: 275 % → 8.78 %', () => {
  const result = applicablePercentage(2014, 275);
  assert.ok(result.eligible);
  assert.equal(result.thousandths, 8780); // 8.05 + 1.45 × 25/50 = 8.775 → 8.78
  assert.equal(irsHundredths(2014, 275), 878);
});

// 26 CFR 1.36B-3(g)(3), Example 2 (2014 table): taxpayer B at 210 % → 6.3 + (10/50) × 1.75 = 6.65.
test('1.36B-3(g)(3) Example 2: 210 % → 6.65 %, exactly', () => {
  const result = applicablePercentage(2014, 210);
  assert.ok(result.eligible);
  assert.equal(result.thousandths, 6650);
});

// 26 CFR 1.36B-4(a)(4), Example 1 (2014, taxpayer A, single): projected $27,925 at 250 % (8.05 %),
// benchmark $5,200 a year, contribution $2,248, advance credit $2,952; actual $33,622 at 301 % (9.5 %),
// contribution $3,194, credit $2,006.
test('1.36B-4(a)(4) Example 1: contributions $2,248 and $3,194, credits $2,952 and $2,006', () => {
  assert.equal(irsHundredths(2014, 250), 805);
  assert.equal(irsHundredths(2014, 301), 950);
  const projected = expectedContribution(2_792_500, 8050).annual; // $2,247.96
  assert.equal(wholeDollars(projected), 2248);
  assert.equal(5200 - wholeDollars(projected), 2952);
  const actual = expectedContribution(3_362_200, 9500).annual; // $3,194.09
  assert.equal(wholeDollars(actual), 3194);
  assert.equal(5200 - wholeDollars(actual), 2006);
});

// 26 CFR 1.36B-4(a)(4), Examples 2 and 3 (2014, same facts): $43,560 at 390 % → contribution $4,138,
// credit $1,062; $22,340 at 200 % (6.3 %) → contribution $1,407, credit $3,793.
test('1.36B-4(a)(4) Examples 2 and 3: 390 % and 200 % of the line', () => {
  assert.equal(irsHundredths(2014, 390), 950);
  assert.equal(wholeDollars(expectedContribution(4_356_000, 9500).annual), 4138);
  assert.equal(5200 - wholeDollars(expectedContribution(4_356_000, 9500).annual), 1062);
  assert.equal(irsHundredths(2014, 200), 630);
  assert.equal(wholeDollars(expectedContribution(2_234_000, 6300).annual), 1407);
  assert.equal(5200 - wholeDollars(expectedContribution(2_234_000, 6300).annual), 3793);
});

// 26 CFR 1.36B-4(a)(4), Example 4 (2014, B and C, family of four): projected $63,388 at 275 %
// (8.78 %), benchmark $14,100 a year, contribution $5,565, advance credit $8,535; as a family of three,
// 332 % (9.5 %), benchmark $12,000, contribution $6,022, credit $5,978.
test('1.36B-4(a)(4) Example 4: 275 % → 8.78 %, contribution $5,565, advance credit $8,535', () => {
  assert.equal(contribution(2014, 63_388, 275), 5565);
  assert.equal(14_100 - contribution(2014, 63_388, 275), 8535);
  // Monthly, as an advance payment: $1,175 benchmark − $463.79 (8.78 % of $63,388 / 12) = $711.21; the
  // IRS's $8,535 a year is $711.25 a month, the difference being its whole-dollar annual contribution.
  const advance = monthlyAptc({ year: 2014, income: 6_338_800, fplPercent: 275, benchmark: 117_500 });
  assert.ok(advance.eligible);
  assert.equal(advance.aptc, 71121);
  assert.ok(Math.abs(advance.aptc * 12 - 853_500) <= 100);
  // Family of three at 332 %: 9.5 % on both sides, so the figures agree to the dollar.
  const three = monthlyAptc({ year: 2014, income: 6_338_800, fplPercent: 332, benchmark: 100_000 });
  assert.ok(three.eligible);
  assert.equal(wholeDollars(three.contribution!.annual), 6022);
  assert.equal(wholeDollars(three.aptc * 12), 5978); // $498.18 × 12 = $5,978.16
});

// 26 CFR 1.36B-4(a)(4), Example 5 (2014, taxpayer D): $39,095 at 350 % (9.5 %) → contribution $3,714,
// advance credit $1,486; actual $44,903 is 402 % of the line: "not an applicable taxpayer".
test('1.36B-4(a)(4) Example 5: 350 % → $3,714; 402 % → no credit at all', () => {
  const projected = wholeDollars(expectedContribution(3_909_500, 9500).annual);
  assert.equal(projected, 3714);
  assert.equal(5200 - projected, 1486);
  const over = applicablePercentage(2014, 402);
  assert.deepEqual(over, { eligible: false, reason: 'above-400-percent' });
  const benchmark = divRound(520_000, 12); // $5,200 a year, monthly
  const none = monthlyAptc({ year: 2014, income: 4_490_300, fplPercent: 402, benchmark });
  assert.equal(none.aptc, 0);
});

// 26 CFR 1.36B-4(a)(4), Example 6 (2014, taxpayer F): monthly advance credit $2,952 / 12 = $246;
// actual $28,707 at 257 % (8.25 %), contribution $2,368, twelve-month credit $2,832.
test('1.36B-4(a)(4) Example 6: 257 % → 8.25 %, contribution $2,368, credit $2,832', () => {
  assert.equal(divRound(2952, 12), 246);
  assert.equal(irsHundredths(2014, 257), 825);
  assert.equal(contribution(2014, 28_707, 257), 2368); // 8.25 % of $28,707 = $2,368.33
  assert.equal(5200 - contribution(2014, 28_707, 257), 2832);
});

// 26 CFR 1.36B-3(d)(2), Examples 1–3: Q pays $400, benchmark $500, contribution $80 → $400 (the lesser
// of $400 and $420); R pays $450 with a $420 difference → $420 a month; in the month of R's death the
// issuer refunds $150 → $300.
test('1.36B-3(d)(2) Examples 1–3: the credit is the lesser of the premium and benchmark − contribution', () => {
  const plan = (premium: Cents) => ({ premium, aptcEligiblePremium: premium, catastrophic: false });
  assert.equal(applyCredit(50_000 - 8_000, plan(40_000)).credit, 40_000);
  assert.equal(applyCredit(42_000, plan(45_000)).credit, 42_000);
  assert.equal(applyCredit(42_000, plan(45_000 - 15_000)).credit, 30_000);
});

// 26 CFR 1.36B-3(j)(3), Examples 1 and 2: B's plan costs $370, $35 of it for benefits beyond the EHB;
// benchmark $440 less $40 of such benefits, contribution $60 → $335 (the EHB premium, not $340); with
// no extra benefits in B's own plan, $340.
test('1.36B-3(j)(3) Examples 1 and 2: only the essential-health-benefit premium can be paid', () => {
  const aptc = 44_000 - 4_000 - 6_000;
  assert.equal(
    applyCredit(aptc, { premium: 37_000, aptcEligiblePremium: 33_500, catastrophic: false }).credit,
    33_500,
  );
  assert.equal(
    applyCredit(aptc, { premium: 37_000, aptcEligiblePremium: 37_000, catastrophic: false }).credit,
    34_000,
  );
});

// 26 CFR 1.36B-3(f)(9), Examples 3, 4 and 10: the benchmark is the second-lowest option. Ex. 3: S1 $650
// (with pediatric dental), S2 $620 + $20 and S3 $590 + $20 for dental → $640. Ex. 4 (no child, $0 of
// dental): $630, $590, $580 → $590. Ex. 10: Issuer A's self-only policies $1,450 together, Issuer B's
// $1,000, Issuer C's family policy $1,200 → $1,200.
test('1.36B-3(f)(9) Examples 3, 4 and 10: second-lowest-cost silver', () => {
  assert.equal(secondLowestCost([65_000, 62_000 + 2_000, 59_000 + 2_000]), 64_000);
  assert.equal(secondLowestCost([63_000, 59_000, 58_000]), 59_000);
  assert.equal(secondLowestCost([40_000 + 45_000 + 60_000, 25_000 + 30_000 + 45_000, 120_000]), 120_000);
});

// Instructions for Form 8962 (2017), Line 5, Worksheet 2: divide household income by the poverty line,
// "Do not round", multiply by 100 and drop the decimals — 0.9984 → 99, 1.8565 → 185, 3.997 → 399 — and
// above 4 × the line enter 401. (The stored 2017 copy breaks off after "for 0.9984,"; the three results
// are as the same worksheet is quoted in an ATX Community thread.) Our fplPercent keeps the unrounded
// percent; truncating it gives line 5. The incomes are ours, chosen so that income / line is exactly the
// instructions' ratio.
test('Form 8962 (2017) Worksheet 2: line 5 is our unrounded FPL percent with the decimals dropped', () => {
  const line5 = (income: Cents, state: string, year: number) => {
    const fpl = fplPercent(income, [{}], state, year, 'aptc');
    assert.ok(fpl);
    return fpl.percent > 400 ? 401 : Math.trunc(fpl.percent);
  };
  assert.equal(line5(1_562_496, 'TX', 2026), 99); // $15,624.96 / $15,650 = 0.9984
  assert.equal(line5(2_205_522, 'TX', 2017), 185); // $22,055.22 / $11,880 = 1.8565
  assert.equal(line5(4_748_436, 'TX', 2017), 399); // $47,484.36 / $11,880 = 3.997
  assert.equal(line5(4_752_001, 'TX', 2017), 401); // a cent over 4 × $11,880
  assert.equal(applicablePercentage(2017, 399.7).eligible, true); // 399.7 % is not rounded up to 400+
});

// Instructions for Form 8962 (2017), Tables 1-2 and 1-3: the poverty lines for 2017 coverage (the 2016
// guidelines) in Alaska and Hawaii for 1–8 people, and the worked "family size is 11" example: add
// 3 × $5,200 to $51,120 = $66,720 (Alaska); 3 × $4,780 to $47,010 = $61,350 (Hawaii).
test('Form 8962 (2017) Tables 1-2 and 1-3: Alaska and Hawaii lines, and the family of 11', () => {
  const line = (state: string, size: number) =>
    fplPercent(
      100,
      Array.from({ length: size }, () => ({})),
      state,
      2017,
      'aptc',
    )?.guideline;
  const sizes = [1, 2, 3, 4, 5, 6, 7, 8, 11];
  assert.deepEqual(
    sizes.map((n) => line('AK', n)),
    [14840, 20020, 25200, 30380, 35560, 40740, 45920, 51120, 66720],
  );
  assert.deepEqual(
    sizes.map((n) => line('HI', n)),
    [13670, 18430, 23190, 27950, 32710, 37470, 42230, 47010, 61350],
  );
});

// Secondary: TheTaxBook, "Tax Industry News" 2017-06-26 (Rev. Proc. 2017-36 comparison), quoting the
// Form 8962 instructions: for tax year 2016, line 5 of 230 % gives a line 7 applicable figure of 7.47 %.
test('Form 8962 (2016) Table 2 as quoted: 230 % → 0.0747 (ours 7.472 %)', () => {
  assert.equal(irsHundredths(2016, 230), 747);
});
