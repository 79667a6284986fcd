import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CostLimit, CostSharing, CsrVariant } from '../../store/plan-detail.js';
import { COST_TERMS, type PlanDetails, type VariantCostTerms } from '../../store/plan-details.js';
import type { VariantBenefit } from '../../store/plan-benefits.js';
import { oopcHousehold, planOopc, planOopcRange, type OopcHousehold } from './plan-oopc.js';
import { planOopcTerms } from './plan-oopc-terms.js';
import { OOPC_BENEFIT_NAMES } from './services.js';
import { serviceUse } from './utilization.js';
import { OOPC_UTILIZATION_2014 } from '../../tables/oopc-utilization-2014.js';

/** From stored plan details to the model: the variant, the limits, the phrases and what is noted. */

const STANDARD: CsrVariant = 'Exchange variant (no CSR)';
const CSR94: CsrVariant = '94% AV Level Silver Plan CSR';

type Sharing = Pick<
  CostSharing,
  'copay_amount' | 'copay_options' | 'coinsurance_rate' | 'coinsurance_options'
>;

interface VariantSpec {
  csr: CsrVariant;
  deductible?: number;
  moop?: number;
  /** Cost sharing by benefit name; every other benefit: "No Charge" / "No Charge". */
  sharing?: Record<string, Sharing | 'not listed' | 'not covered' | 'no tier'>;
  excluded?: string[];
  cells?: Partial<Omit<VariantCostTerms, 'csr' | 'benefits'>>;
}

const limit = (
  type: string,
  csr: CsrVariant,
  amount: number,
  family: CostLimit['family_cost'],
): CostLimit => ({
  type,
  amount,
  csr,
  network_tier: 'In-Network',
  family_cost: family,
  individual: family === 'Individual',
  family: family !== 'Individual',
  display_string: `$${amount}`,
});

const FREE: Sharing = {
  copay_amount: 0,
  copay_options: 'No Charge',
  coinsurance_rate: 0,
  coinsurance_options: 'No Charge',
};

function planDetails(variants: VariantSpec[], metal = 'Gold'): PlanDetails {
  const deductibles: CostLimit[] = [];
  const moops: CostLimit[] = [];
  const benefits = new Map<string, PlanDetails['benefits'][number]>();
  const terms: VariantCostTerms[] = [];
  for (const v of variants) {
    const families = ['Individual', 'Family Per Person', 'Family'] as const;
    for (const f of families) {
      const times = f === 'Family' ? 2 : 1;
      if (v.deductible !== undefined)
        deductibles.push(limit('Combined Medical and Drug EHB Deductible', v.csr, v.deductible * times, f));
      if (v.moop !== undefined)
        moops.push(
          limit('Maximum Out of Pocket for Medical and Drug EHB Benefits (Total)', v.csr, v.moop * times, f),
        );
    }
    const own = new Map<string, VariantBenefit>();
    for (const name of OOPC_BENEFIT_NAMES) {
      const given = v.sharing?.[name] ?? FREE;
      if (given === 'not listed') continue;
      own.set(name, {
        covered: given !== 'not covered',
        excludedFromInnMoop: v.excluded?.includes(name) ?? false,
      });
      const benefit = benefits.get(name) ?? {
        name,
        type: name.toUpperCase(),
        covered: true,
        explanation: '',
        exclusions: '',
        has_limits: false,
        limit_unit: '',
        limit_quantity: null,
        cost_sharings: [],
      };
      if (typeof given === 'object')
        benefit.cost_sharings.push({ ...given, network_tier: 'In-Network', display_string: '', csr: v.csr });
      benefits.set(name, benefit);
    }
    terms.push({
      csr: v.csr,
      specialtyDrugMaxCoinsurance: null,
      inpatientCopayMaxDays: 0,
      primaryCareCostSharingAfterVisits: 0,
      primaryCareDeductibleAfterCopays: 0,
      ...v.cells,
      benefits: own,
    });
  }
  return {
    metal_level: metal,
    deductibles,
    moops,
    benefits: [...benefits.values()],
    [COST_TERMS]: terms,
  } as unknown as PlanDetails;
}

const SURGERY = 'Outpatient Surgery Physician/Surgical Services';
const coinsAfter = (rate: number): Sharing => ({
  copay_amount: 0,
  copay_options: 'No Charge',
  coinsurance_rate: rate,
  coinsurance_options: 'Coinsurance after deductible',
});

/** One member who uses only $5,000 of outpatient surgery. */
const surgeryPatient: OopcHousehold = {
  ok: true,
  uses: [serviceUse('plan-oopc-surgery', { op_surg: { unitCost: 5000, units: 1 } })],
  band: [],
  key: 'plan-oopc-surgery',
};

const silverVariants: VariantSpec[] = [
  { csr: STANDARD, deductible: 2000, moop: 8000, sharing: { [SURGERY]: coinsAfter(0.2) } },
  { csr: CSR94, deductible: 100, moop: 1000, sharing: { [SURGERY]: coinsAfter(0.1) } },
];
const silver = planDetails(silverVariants, 'Silver');

describe('the variant the household is quoted prices it', () => {
  test('silver: the 94 % variant for a 94 % household, the standard one otherwise', () => {
    // Standard: $2,000 deductible, then 20 % of $3,000 = $600: $2,600.
    const standard = planOopc(surgeryPatient, silver, STANDARD);
    assert.deepEqual([standard.oopc, standard.computed && standard.variant], [2600, STANDARD]);
    // 94 %: $100 deductible, then 10 % of $4,900 = $490: $590.
    const reduced = planOopc(surgeryPatient, silver, CSR94);
    assert.deepEqual([reduced.oopc, reduced.computed && reduced.variant], [590, CSR94]);
  });

  test('a silver CSR on a plan that is not silver, and a variant the plan does not publish, fall back', () => {
    // CMS's rule: silver CSR variants exist only for silver plans, so a gold plan prices the standard one.
    assert.equal(planOopc(surgeryPatient, planDetails(silverVariants, 'Gold'), CSR94).oopc, 2600);
    // The plan publishes no 73 % variant: the one the quote shows, the standard one.
    assert.equal(planOopc(surgeryPatient, silver, '73% AV Level Silver Plan CSR').oopc, 2600);
    // AI/AN zero cost sharing on a catastrophic plan: the standard variant (CMS's rule).
    const catastrophic = planDetails(
      [
        { csr: STANDARD, deductible: 9200, moop: 9200, sharing: { [SURGERY]: coinsAfter(0) } },
        { csr: 'Zero Cost Sharing Plan Variation', deductible: 0, moop: 0 },
      ],
      'Catastrophic',
    );
    assert.equal(planOopc(surgeryPatient, catastrophic, 'Zero Cost Sharing Plan Variation').oopc, 5000);
  });
});

describe('what the data does not say is stated, never silently guessed', () => {
  test('a benefit the variant does not list is priced as not covered, and noted', () => {
    const details = planDetails([
      { csr: STANDARD, deductible: 0, moop: 1000, sharing: { [SURGERY]: 'not listed' } },
    ]);
    const answer = planOopc(surgeryPatient, details, STANDARD);
    // Not covered: all $5,000, outside the $1,000 MOOP.
    assert.equal(answer.oopc, 5000);
    assert.ok(answer.computed);
    assert.deepEqual(
      answer.notes.map((n) => [n.code, n.benefit]),
      [['benefit-not-listed', SURGERY]],
    );
  });

  test('phrases CMS’s table lacks are read and noted; unknown ones charged after the deductible', () => {
    const details = planDetails([
      {
        csr: STANDARD,
        deductible: 1000,
        moop: 8000,
        sharing: {
          [SURGERY]: {
            copay_amount: 250,
            copay_options: 'Copay with deductible',
            coinsurance_rate: null,
            coinsurance_options: 'Not Applicable',
          },
          'Specialist Visit': {
            copay_amount: 60,
            copay_options: 'Copay per Visit',
            coinsurance_rate: null,
            coinsurance_options: null,
          },
        },
      },
    ]);
    const answer = planOopc(surgeryPatient, details, STANDARD);
    // "$250 Copay with deductible": the copay first, the other $4,750 toward the $1,000 deductible: met
    // at 1,000 / 4,750 of the spending ($1,052.63 paid), then $250 × the remaining 3,750 / 4,750 share =
    // $197.37. $1,250 (= deductible + copay).
    assert.equal(answer.oopc, 1250);
    assert.ok(answer.computed);
    assert.deepEqual(
      answer.notes.map((n) => [n.code, n.benefit]),
      [
        ['phrase-unknown', 'Specialist Visit'],
        ['phrase-read', SURGERY],
      ],
    );
  });

  test('a benefit excluded from the in-network MOOP keeps costing past it', () => {
    const sharing = { [SURGERY]: { ...coinsAfter(0.5), coinsurance_options: null } };
    const counted = planDetails([{ csr: STANDARD, deductible: 0, moop: 1000, sharing }]);
    const excluded = planDetails([
      { csr: STANDARD, deductible: 0, moop: 1000, sharing, excluded: [SURGERY] },
    ]);
    // Half of $5,000 = $2,500: capped at $1,000 when it counts, not when it is excluded.
    assert.equal(planOopc(surgeryPatient, counted, STANDARD).oopc, 1000);
    assert.equal(planOopc(surgeryPatient, excluded, STANDARD).oopc, 2500);
  });

  test('the Plan Attributes cells: 0 states no limit; cells not stored are noted', () => {
    const capped = planDetails([
      {
        csr: STANDARD,
        deductible: 0,
        moop: 5000,
        cells: { specialtyDrugMaxCoinsurance: 150, inpatientCopayMaxDays: 3 },
      },
    ]);
    const read = planOopcTerms(capped, STANDARD);
    assert.ok(read.ok);
    assert.deepEqual([read.terms.specialtyDrugMaxCoinsurance, read.terms.inpatientCopayMaxDays], [150, 3]);
    const zero = planOopcTerms(planDetails([{ csr: STANDARD, moop: 5000 }]), STANDARD);
    assert.ok(zero.ok);
    assert.deepEqual([zero.terms.inpatientCopayMaxDays, zero.terms.primaryCareFreeVisits], [null, 0]);
    assert.deepEqual(zero.notes, []);
    const old = planOopcTerms(
      planDetails([{ csr: STANDARD, moop: 5000, cells: { inpatientCopayMaxDays: undefined } }]),
      STANDARD,
    );
    assert.ok(old.ok);
    assert.deepEqual(
      old.notes.map((n) => n.code),
      ['plan-cells-not-stored'],
    );
  });
});

describe('not computable: -1 with the reason', () => {
  test('no Benefits PUF rows for the plan', () => {
    const bare = { ...planDetails([{ csr: STANDARD, deductible: 500, moop: 5000 }]), benefits: [] };
    const answer = planOopc(surgeryPatient, bare as PlanDetails, STANDARD);
    assert.deepEqual(
      [answer.oopc, answer.computed, !answer.computed && answer.code],
      [-1, false, 'no-benefits'],
    );
  });

  test('a member without a sex or a level, as CMS answers -1', () => {
    const household = oopcHousehold(
      [
        { age: 40, gender: 'Female', utilization: 'Medium' },
        { age: 9, gender: null, utilization: null },
      ],
      2026,
    );
    const answer = planOopc(household, silver, STANDARD);
    assert.equal(answer.oopc, -1);
    assert.ok(!answer.computed);
    assert.equal(answer.code, 'person-incomplete');
    assert.match(answer.reason, /household\.people\[1\] has no gender, utilization level/);
    assert.equal(planOopcRange(household, silver, STANDARD).computed, false);
    assert.equal(planOopc(oopcHousehold([], 2026), silver, STANDARD).oopc, -1);
  });

  test('a stand-alone dental plan gets no medical estimate', () => {
    const dentalPlan = { ...silver, product_division: 'Dental' } as PlanDetails;
    const answer = planOopc(surgeryPatient, dentalPlan, STANDARD);
    assert.deepEqual([answer.oopc, !answer.computed && answer.code], [-1, 'dental-plan']);
  });

  test('a complete household gets an estimate and a range around it', () => {
    const household = oopcHousehold([{ age: 40, gender: 'Female', utilization: 'Medium' }], 2026);
    const point = planOopc(household, silver, STANDARD);
    const range = planOopcRange(household, silver, STANDARD);
    assert.ok(point.computed && range.computed);
    assert.ok(range.p10 <= range.expected && range.expected <= range.p90);
    assert.equal(range.combinations, 4);
  });
});

describe('our range over the decile bands (docs/decisions.md#oopc-range)', () => {
  // A plan that covers nothing, with a MOOP no one reaches: every member pays the whole allowed cost of
  // their table row, so each combination costs the sum of its rows' totals (unit cost × units over the
  // table's 27 services) and the expected cost is the sum of each member's mean over their band.
  const nothing = Object.fromEntries(OOPC_BENEFIT_NAMES.map((name) => [name, 'not covered' as const]));
  const uncovered = () => planDetails([{ csr: STANDARD, deductible: 1000, moop: 1e9, sharing: nothing }]);
  const rowTotal = (ageGroup: string, sex: string, decile: number) => {
    const row = OOPC_UTILIZATION_2014.find((r) => r[0] === ageGroup && r[1] === sex && r[2] === decile)!;
    let total = 0;
    for (let i = 0; i < row[4].length; i += 2) total += row[4][i]! * row[4][i + 1]!;
    return total;
  };
  const cents = (dollars: number) => Math.round(dollars * 100) / 100;

  test('one member: the mean of the band’s rows, and its 10th and 90th percentiles', () => {
    // A woman of 40 at Medium: deciles 4, 5, 6 and 7 of women 35–44, a quarter each. The 10th percentile
    // is the lowest of the four (a quarter already reaches 10 %), the 90th the highest.
    const totals = [4, 5, 6, 7].map((d) => rowTotal('35-44', 'F', d));
    const household = oopcHousehold([{ age: 40, gender: 'Female', utilization: 'Medium' }], 2026);
    const range = planOopcRange(household, uncovered(), STANDARD);
    assert.ok(range.computed);
    assert.equal(range.expected, cents(totals.reduce((a, b) => a + b, 0) / 4));
    assert.equal(range.p10, cents(Math.min(...totals)));
    assert.equal(range.p90, cents(Math.max(...totals)));
    assert.deepEqual([range.combinations, range.sampled], [4, false]);
    // CMS's point for the same person is decile 5.5, its own row.
    assert.equal(planOopc(household, uncovered(), STANDARD).oopc, cents(rowTotal('35-44', 'F', 5.5)));
  });

  test('a household of six at Medium: a fixed sample of 1,024 of its 4,096 combinations, the same every time', () => {
    const people = [40, 38, 16, 14, 10, 8].map((age, i) => ({
      age,
      gender: i % 2 === 0 ? 'Female' : 'Male',
      utilization: 'Medium',
    }));
    const household = oopcHousehold(people, 2026);
    const first = planOopcRange(household, uncovered(), STANDARD);
    const again = planOopcRange(household, uncovered(), STANDARD);
    assert.ok(first.computed && again.computed);
    assert.deepEqual([first.combinations, first.sampled], [1024, true]);
    assert.deepEqual(first, again);
    // The exact expected cost, by linearity: the sum of each member's mean over their band.
    const groups: [string, string][] = [
      ['35-44', 'F'],
      ['35-44', 'M'],
      ['6-17', 'F'],
      ['6-17', 'M'],
      ['6-17', 'F'],
      ['6-17', 'M'],
    ];
    const exact = groups.reduce(
      (sum, [group, sex]) => sum + [4, 5, 6, 7].reduce((s, d) => s + rowTotal(group, sex, d), 0) / 4,
      0,
    );
    assert.ok(Math.abs(first.expected - exact) / exact < 0.03, `${first.expected} ≈ ${exact}`);
    assert.ok(first.p10 < first.expected && first.expected < first.p90);
  });
});
