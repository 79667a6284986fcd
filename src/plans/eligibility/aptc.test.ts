import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyCredit, isAptcEligibleMember, monthlyAptc, secondLowestCost } from './aptc.js';
import { csrLevel } from './csr.js';
import { fplPercent } from './fpl.js';
import { creditFpl } from './unemployment-2021.js';
import { Random } from '../../shared/random.js';

// Worked examples DERIVED BY HAND from 26 U.S.C. 36B and the tables (not copied from Form 8962 or
// Publication 974, which were not at hand); each comment carries the arithmetic.

test('benchmark: the second-lowest distinct silver premium; the only one; none', () => {
  assert.equal(secondLowestCost([30000, 25000, 25000, 40000]), 30000);
  assert.equal(secondLowestCost([25000]), 25000);
  assert.equal(secondLowestCost([]), undefined);
  assert.equal(secondLowestCost([25000, 25000]), 25000);
});

test('benchmark: the one-pass choice equals "sort the distinct amounts, take the second" on random lists', () => {
  const random = new Random(20261123, 'second lowest');
  for (let round = 0; round < 500; round++) {
    const amounts = Array.from({ length: random.int(0, 12) }, () => random.int(1, 6) * 1_000);
    const distinct = [...new Set(amounts)].sort((a, b) => a - b);
    assert.equal(secondLowestCost(amounts), distinct[1] ?? distinct[0], JSON.stringify(amounts));
  }
});

test('members with other coverage, Medicaid/CHIP or aptc_eligible false are out of the credit', () => {
  assert.equal(isAptcEligibleMember({ isMedicaidChip: false }), true);
  assert.equal(isAptcEligibleMember({ isMedicaidChip: true }), false);
  assert.equal(isAptcEligibleMember({ has_mec: true, isMedicaidChip: false }), false);
  assert.equal(isAptcEligibleMember({ aptc_eligible: false, isMedicaidChip: false }), false);
});

test('PY2014, one person, $22,980 (200 % of the 2013 guideline $11,490), benchmark $300', () => {
  const fpl = fplPercent(2_298_000, [{}], 'ID', 2014, 'aptc');
  assert.equal(fpl?.percent, 200);
  const result = monthlyAptc({ year: 2014, income: 2_298_000, fplPercent: 200, benchmark: 30000 });
  assert.ok(result.eligible);
  assert.equal(result.applicable?.percent, 6.3); // 36B(b)(3)(A)(i): 6.3 % at 200 %
  assert.equal(result.contribution?.monthly, 12065); // 22,980 × 6.3 % / 12 = 120.645 → 120.65
  assert.equal(result.aptc, 17935); // 300.00 − 120.65 = 179.35
  assert.equal(result.aptcExact, 17935.5); // the unrounded figure an estimate returns
  assert.deepEqual(
    applyCredit(result.aptc, { premium: 25000, aptcEligiblePremium: 25000, catastrophic: false }),
    {
      credit: 17935,
      premiumWithCredit: 7065,
    },
  );
  assert.deepEqual(
    applyCredit(result.aptc, { premium: 15000, aptcEligiblePremium: 15000, catastrophic: false }),
    {
      credit: 15000,
      premiumWithCredit: 0,
    },
  );
  // Only the EHB portion can be paid: $170 of a $250 premium.
  assert.deepEqual(
    applyCredit(result.aptc, { premium: 25000, aptcEligiblePremium: 17000, catastrophic: false }),
    {
      credit: 17000,
      premiumWithCredit: 8000,
    },
  );
  assert.deepEqual(applyCredit(result.aptc, { premium: 20000, aptcEligiblePremium: 0, catastrophic: true }), {
    credit: 0,
    premiumWithCredit: 20000,
  });
});

test('no credit: below 100 %, above 400 % in a cliff year, no benchmark; a contribution above the benchmark → 0', () => {
  assert.equal(
    monthlyAptc({ year: 2026, income: 1_000_000, fplPercent: 64, benchmark: 50000 }).eligible,
    false,
  );
  const cliff = monthlyAptc({ year: 2026, income: 13_000_000, fplPercent: 404.35, benchmark: 200000 });
  assert.deepEqual(cliff, { eligible: false, aptc: 0, aptcExact: 0, reason: 'above-400-percent' });
  assert.equal(
    monthlyAptc({ year: 2026, income: 3_000_000, fplPercent: 190, benchmark: undefined }).eligible,
    false,
  );
  // 2026, 300 %: 9.96 % of $46,950 / 12 = $389.69 > a $300 benchmark.
  const over = monthlyAptc({ year: 2026, income: 4_695_000, fplPercent: 300, benchmark: 30000 });
  assert.ok(over.eligible);
  assert.equal(over.aptc, 0);
});

test('2021–2025: no cliff; 8.5 % above 400 %', () => {
  // 2025, $100,000 at 8.5 %: $8,500 a year, $708.33 a month; benchmark $1,200 → $491.67.
  const result = monthlyAptc({ year: 2025, income: 10_000_000, fplPercent: 497.5, benchmark: 120000 });
  assert.equal(result.aptc, 49167);
});

test('aptc_override replaces the computation', () => {
  assert.equal(
    monthlyAptc({ year: 2026, income: 0, fplPercent: 0, benchmark: undefined, override: 10000 }).aptc,
    10000,
  );
  assert.equal(
    monthlyAptc({ year: 2026, income: 0, fplPercent: 0, benchmark: undefined, override: -5 }).aptc,
    0,
  );
});

test('2021 unemployment rule (36B(g)): Adult → credit and CSR at ≤ 133 %, Dependent → CSR only', () => {
  // One person, PY2021 (2020 guideline $12,760), $38,280 = 300 %; benchmark $400.
  const base = { year: 2021, income: 3_828_000, benchmark: 40000 };
  const none = monthlyAptc({ ...base, fplPercent: creditFpl(2021, 300, 'None', 'aptc').fplPercent });
  assert.equal(none.aptc, 20860); // 6.0 % × 38,280 / 12 = 191.40; 400 − 191.40
  const adult = creditFpl(2021, 300, 'Adult', 'aptc');
  assert.deepEqual(adult, { fplPercent: 133, treatedAsApplicable: true });
  assert.equal(monthlyAptc({ ...base, fplPercent: adult.fplPercent }).aptc, 40000); // 0 % at 133
  assert.equal(creditFpl(2021, 300, 'Dependent', 'aptc').fplPercent, 300);
  const csrFpl = creditFpl(2021, 300, 'Dependent', 'csr').fplPercent;
  assert.equal(csrLevel({ fplPercent: csrFpl, aptcEligible: true }), '94% AV Level Silver Plan CSR');
  assert.equal(creditFpl(2022, 300, 'Adult', 'aptc').fplPercent, 300);
  // Below 100 % the rule makes the taxpayer applicable: the first band (0 % in 2021).
  const low = creditFpl(2021, 60, 'Adult', 'aptc');
  const lowAptc = monthlyAptc({
    ...base,
    income: 765_600,
    fplPercent: low.fplPercent,
    belowPovertyEligible: low.treatedAsApplicable,
  });
  assert.equal(lowAptc.aptc, 40000);
});
