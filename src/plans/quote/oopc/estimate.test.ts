import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Random } from '../../../shared/random.js';
import { costSharingRule } from './cost-sharing-rules.js';
import { breakdown, estimate, spendResult, type EstimateOptions } from './estimate.js';
import type { Limits, OopcPlanTerms, ServiceTerms } from './plan-terms.js';
import { BENEFIT_SERVICES, OOPC_SERVICES, type BenefitService, type OopcService } from './services.js';
import { serviceUse, tableUse, AGE_GROUPS, type ServiceUse } from './utilization.js';

/**
 * Households worked by hand. Each plan charges nothing for every service but the ones named, and each
 * person uses only the services named, so every figure below can be checked with a pencil.
 */

const none = (): Limits => ({ individual: {}, familyPerPerson: {}, family: {} });

/** A service's terms from its PUF phrases and amounts (moop: counts toward the MOOP unless excluded). */
function phrased(
  copayPhrase: string | null,
  coinsPhrase: string | null,
  copay = 0,
  coinsurance = 0,
): ServiceTerms {
  const text = (copayPhrase ?? '').toLowerCase();
  return {
    covered: true,
    rule: costSharingRule(copayPhrase, coinsPhrase).rule,
    copay,
    coinsurance,
    copayPer: text.includes('per stay') ? 'stay' : text.includes('per day') ? 'day' : 'unit',
  };
}

function plan(
  services: Partial<Record<BenefitService, ServiceTerms>>,
  rest: Partial<Omit<OopcPlanTerms, 'services'>> = {},
): OopcPlanTerms {
  const free = phrased('No Charge', 'No Charge');
  return {
    services: Object.fromEntries(
      BENEFIT_SERVICES.map((s) => [s, services[s] ?? free]),
    ) as OopcPlanTerms['services'],
    deductibles: none(),
    moops: none(),
    specialtyDrugMaxCoinsurance: null,
    inpatientCopayMaxDays: null,
    primaryCareFreeVisits: 0,
    primaryCareCopaysBeforeDeductible: 0,
    ...rest,
  };
}

let uses = 0;
/** A person using only the services given (a fresh key each time: keys name uses in caches). */
const person = (figures: Partial<Record<OopcService, [unitCost: number, units: number]>>): ServiceUse =>
  serviceUse(
    `hand-${uses++}`,
    Object.fromEntries(Object.entries(figures).map(([s, [unitCost, units]]) => [s, { unitCost, units }])),
  );

const oopc = (terms: OopcPlanTerms, people: ServiceUse[], options?: EstimateOptions) =>
  estimate(terms, people, options)!.oopc;

const afterDeductible20 = phrased(null, 'Coinsurance after deductible', 0, 0.2);

describe('the deductible', () => {
  test('one person: the deductible, then 20 % coinsurance', () => {
    const terms = plan(
      { op_surg: afterDeductible20 },
      {
        deductibles: { ...none(), individual: { combined: 1000 } },
        moops: { ...none(), individual: { combined: 5000 } },
      },
    );
    // $3,000 of outpatient surgery: $1,000 deductible, then 20 % of the other $2,000 = $400. $1,400.
    assert.equal(oopc(terms, [person({ op_surg: [3000, 1] })]), 1400);
  });

  test('a copay paid before the deductible: only the rest of the allowed amount accrues to it', () => {
    // ER: "$100 Copay before deductible" / "No Charge after deductible", two visits of $1,000.
    const terms = plan(
      { op_er_fac: phrased('Copay before deductible', 'No Charge after deductible', 100) },
      { deductibles: { ...none(), individual: { combined: 500 } } },
    );
    const visits = person({ op_er_fac: [1000, 2] });
    // Rate 100 / 1,000 = 0.1; 0.9 of spending accrues to the deductible: met at 500 / (0.9 × 2,000) =
    // 27.78 % of the year's $2,000, when the member has paid $555.56 ($500 deductible + $55.56 copays).
    // Then copays only: 0.1 × $1,444.44 = $144.44. Total $700 (= $500 + 2 × $100).
    assert.equal(oopc(terms, [visits]), 700);
    // LMI's written procedure counts the copays toward the deductible too: met at $500 of spending
    // (25 %), then 0.1 × $1,500 = $150. Total $650.
    assert.equal(oopc(terms, [visits], { accrual: 'all-payments' }), 650);
  });

  test('family of three: embedded $1,000 deductibles inside a $2,000 family deductible', () => {
    const terms = plan(
      { op_surg: afterDeductible20 },
      {
        deductibles: { ...none(), familyPerPerson: { combined: 1000 }, family: { combined: 2000 } },
        moops: { ...none(), familyPerPerson: { combined: 4000 }, family: { combined: 8000 } },
      },
    );
    const family = [
      person({ op_surg: [5000, 1] }),
      person({ op_surg: [3000, 1] }),
      person({ op_surg: [500, 1] }),
    ];
    // Spending grows at $5,000, $3,000 and $500 per unit of the year (together $8,500).
    // At 0.2: A meets her $1,000; B has paid $600, C $100: the family $1,700, $300 to go.
    // From then A pays 20 % and the family deductible runs on B and C alone ($3,500 per unit):
    // met at 0.2 + 300 / 3,500 = 0.2857. Deductible payments: $2,000. After it, 20 % of the rest of
    // the spending: 0.2 × (8,500 − 2,000) = $1,300. Total $3,300; no MOOP is reached.
    assert.equal(oopc(terms, family), 3300);
    // Counting A's coinsurance toward the family deductible (the written procedure): from 0.2 the family
    // deductible runs at $3,500 + 0.2 × $5,000 = $4,500 per unit and is met at 0.2 + 300 / 4,500 = 0.2667.
    // A: $1,000 + 0.2 × 5,000 × 0.8 = $1,800; B: 3,000 × 0.2667 = $800 + 0.2 × 3,000 × 0.7333 = $440;
    // C: 500 × 0.2667 = $133.33 + 0.2 × 500 × 0.7333 = $73.33. Total $3,246.67.
    assert.equal(oopc(terms, family, { accrual: 'all-payments' }), 3246.67);
  });
});

describe('the MOOP', () => {
  test('an embedded MOOP caps one member, then the family MOOP caps the household', () => {
    const terms = plan(
      { op_surg: phrased(null, null, 0, 0.5) },
      { moops: { ...none(), familyPerPerson: { combined: 2000 }, family: { combined: 3000 } } },
    );
    // Members spend $10,000 and $4,000; half is theirs: they pay $5,000 and $2,000 per unit of the year.
    // A reaches her $2,000 at 0.4 (B has paid $800: family $2,800). B alone then: the family's last $200
    // at 0.5. A $2,000 + B $1,000 = $3,000, the family MOOP.
    const result = breakdown(terms, [person({ op_surg: [10000, 1] }), person({ op_surg: [4000, 1] })])!;
    assert.equal(Math.round(result.result.oopc * 100) / 100, 3000);
    const paid = (p: number) =>
      result.lines
        .filter((l) => l.person === p)
        .reduce((sum, l) => sum + l.paidToDeductible + l.paidCostSharing, 0);
    assert.equal(Math.round(paid(0) * 100) / 100, 2000);
    assert.equal(Math.round(paid(1) * 100) / 100, 1000);
  });

  test('a benefit excluded from the MOOP keeps costing after it', () => {
    const eye = { ...phrased(null, null, 0, 0.5), rule: { ...phrased(null, null).rule, moop: false } };
    const terms = plan(
      { op_surg: phrased(null, null, 0, 0.5), op_eye: eye },
      { moops: { ...none(), individual: { combined: 1000 } } },
    );
    // Surgery: half of $4,000 would be $2,000, capped at the $1,000 MOOP. Eye exams: half of $200 = $100,
    // outside the MOOP. $1,100.
    assert.equal(oopc(terms, [person({ op_surg: [4000, 1], op_eye: [100, 2] })]), 1100);
  });

  test('separate medical and drug MOOPs', () => {
    const terms = plan(
      { op_surg: phrased(null, null, 0, 0.5), rx_pbrand: phrased(null, null, 0, 0.5) },
      { moops: { ...none(), individual: { medical: 1000, drug: 300 } } },
    );
    // Medical: half of $3,000 = $1,500, capped at $1,000. Drugs: half of $1,000 = $500, capped at $300.
    assert.equal(oopc(terms, [person({ op_surg: [3000, 1], rx_pbrand: [250, 4] })]), 1300);
  });
});

describe('the plan-level exceptions', () => {
  const stay = person({ ip_fac: [2000, 6], ip_prof: [1000, 2] });

  test('inpatient: a copay per stay is charged per stay; a day limit caps per-day copays only', () => {
    // "$500 Copay per Stay" / "No Charge": per day 500 × 2 stays / 6 days = $166.67, rate 0.0833;
    // 0.0833 × $12,000 = $1,000 = 2 stays × $500. The 3-day maximum does not touch a per-stay copay.
    const perStay = phrased('Copay per Stay', 'No Charge', 500);
    assert.equal(oopc(plan({ ip_fac: perStay }), [stay]), 1000);
    assert.equal(oopc(plan({ ip_fac: perStay }, { inpatientCopayMaxDays: 3 }), [stay]), 1000);
    // "$300 Copay per Day": 6 days × $300 = $1,800; with a 3-day maximum the rate 300 / 2,000 = 0.15 loses
    // (6 − 3) × 300 / 12,000 = 0.075: 0.075 × $12,000 = $900 = 3 days × $300.
    const perDay = phrased('Copay per Day', 'No Charge', 300);
    assert.equal(oopc(plan({ ip_fac: perDay }), [stay]), 1800);
    assert.equal(oopc(plan({ ip_fac: perDay }, { inpatientCopayMaxDays: 3 }), [stay]), 900);
  });

  test('specialty drugs: coinsurance capped per prescription', () => {
    const terms = plan({ rx_specialty: phrased(null, null, 0, 0.3) }, { specialtyDrugMaxCoinsurance: 500 });
    // Four $5,000 prescriptions at 30 % = $1,500 each, capped at $500: $2,000 (uncapped: $6,000).
    const scripts = person({ rx_specialty: [5000, 4] });
    assert.equal(oopc(terms, [scripts]), 2000);
    assert.equal(oopc({ ...terms, specialtyDrugMaxCoinsurance: null }, [scripts]), 6000);
  });

  test('primary care: free visits first, then copays before the deductible', () => {
    const copay30 = phrased(null, 'No Charge', 30);
    // Five $100 visits at a $30 copay, the first three free: 2 × $30 = $60; allowed still $500.
    const visits = person({ op_primcare: [100, 5] });
    const free = estimate(plan({ op_primcare: copay30 }, { primaryCareFreeVisits: 3 }), [visits])!;
    assert.deepEqual([free.oopc, free.allowed], [60, 500]);

    // "$30 Copay after deductible" / "No Charge after deductible", $1,000 deductible: every visit in the
    // deductible, $500. With the first 3 visits at their copay before the deductible: 3 × $30 + the other
    // two in the deductible, $200. $290. With one free visit as well: $90 + one visit $100 = $190.
    const catastrophic = plan(
      { op_primcare: phrased('Copay after deductible', 'No Charge after deductible', 30) },
      { deductibles: { ...none(), individual: { combined: 1000 } } },
    );
    assert.equal(oopc(catastrophic, [visits]), 500);
    assert.equal(oopc({ ...catastrophic, primaryCareCopaysBeforeDeductible: 3 }, [visits]), 290);
    const both = { ...catastrophic, primaryCareCopaysBeforeDeductible: 3, primaryCareFreeVisits: 1 };
    assert.equal(oopc(both, [visits]), 190);
  });

  test('op_other pays the household’s average rate; an uncovered service is paid in full outside the limits', () => {
    const terms = plan(
      { op_surg: phrased(null, null, 0, 0.25), op_eye: { ...phrased(null, null), covered: false } },
      { moops: { ...none(), individual: { combined: 50 } } },
    );
    // Surgery $1,000 at 25 % and an uncovered $100 eye exam (rate 1): the average rate is
    // (250 + 100) / 1,100 = 0.3182; "other" $220 at it = $70. Surgery and other count toward the $50
    // MOOP, the eye exam does not: $50 + $100 = $150.
    const user = person({ op_surg: [1000, 1], op_eye: [100, 1], op_other: [220, 1] });
    assert.equal(oopc(terms, [user]), 150);
    assert.equal(oopc({ ...terms, moops: none() }, [user]), 250 + 100 + 70);
  });
});

describe('properties over random plans and households', () => {
  const random = new Random(28, 'oopc-properties');
  const amount = (low: number, high: number) => Math.round(random.between(low, high) / 50) * 50;
  const PHRASES: [string | null, string | null][] = [
    [null, 'No Charge'],
    ['Copay after deductible', 'No Charge'],
    ['Copay before deductible', 'No Charge after deductible'],
    ['No Charge', 'Coinsurance after deductible'],
    ['No Charge after deductible', 'No Charge after deductible'],
    ['Copay per Stay', 'Coinsurance after deductible'],
    [null, null],
  ];

  function randomPlan(): OopcPlanTerms {
    const services = Object.fromEntries(
      BENEFIT_SERVICES.map((s) => {
        const [copay, coins] = random.pick(PHRASES);
        return [s, phrased(copay, coins, amount(0, 500), random.pick([0, 0.1, 0.2, 0.3, 0.5]))];
      }),
    ) as Record<BenefitService, ServiceTerms>;
    const deductible = amount(0, 7000);
    const moop = amount(deductible, 9200);
    return plan(services, {
      deductibles: {
        individual: { combined: deductible },
        familyPerPerson: { combined: deductible },
        family: { combined: deductible * 2 },
      },
      moops: {
        individual: { combined: moop },
        familyPerPerson: { combined: moop },
        family: { combined: moop * 2 },
      },
      specialtyDrugMaxCoinsurance: random.pick([null, 250]),
      inpatientCopayMaxDays: random.pick([null, 3]),
      primaryCareFreeVisits: random.pick([0, 0, 2]),
      primaryCareCopaysBeforeDeductible: random.pick([0, 0, 3]),
    });
  }

  const randomPerson = () =>
    tableUse(random.pick(AGE_GROUPS), random.pick(['F', 'M'] as const), random.pick([1, 3, 5.5, 8, 10]));

  test('never more than the MOOPs that apply, never less than 0', () => {
    for (let n = 0; n < 200; n++) {
      const terms = randomPlan();
      const people = Array.from({ length: random.int(1, 5) }, randomPerson);
      const paid = oopc(terms, people);
      const { individual, familyPerPerson, family } = terms.moops;
      const cap =
        people.length === 1
          ? Math.min(individual.combined!, familyPerPerson.combined!)
          : Math.min(family.combined!, people.length * familyPerPerson.combined!);
      assert.ok(paid >= 0 && paid <= cap + 0.01, `plan ${n}: ${paid} > ${cap}`);
    }
  });

  test('more use never costs less', () => {
    for (let n = 0; n < 200; n++) {
      const terms = randomPlan();
      const people = Array.from({ length: random.int(1, 4) }, randomPerson);
      const more = people.map((use, i) => {
        const factor = random.between(1, 2);
        const figures = Object.fromEntries(
          OOPC_SERVICES.map((s, k) => [s, { unitCost: use.unitCosts[k]!, units: use.units[k]! * factor }]),
        );
        return serviceUse(`more-${n}-${i}`, figures);
      });
      assert.ok(oopc(terms, more) >= oopc(terms, people) - 0.01, `plan ${n}`);
    }
  });

  test('the members’ order does not matter (estimates are kept by the unordered household)', () => {
    for (let n = 0; n < 50; n++) {
      const terms = randomPlan();
      const people = Array.from({ length: 4 }, randomPerson);
      const forward = spendResult(terms, people)!.oopc;
      const backward = spendResult(terms, [...people].reverse())!.oopc;
      assert.ok(Math.abs(forward - backward) < 1e-6, `plan ${n}: ${forward} vs ${backward}`);
    }
  });
});
