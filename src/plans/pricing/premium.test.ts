import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDollars } from './money.js';
import { householdPremium, type PlanRating, type PricedMember, type RateLookup } from './premium.js';

/** A Rate PUF row in the file's own layout (columns of the CMS Rate PUF, values as the CSV text). */
type RatePufRow = Record<
  | 'BusinessYear'
  | 'StateCode'
  | 'IssuerId'
  | 'PlanId'
  | 'RatingAreaId'
  | 'Tobacco'
  | 'Age'
  | 'IndividualRate'
  | 'IndividualTobaccoRate',
  string
>;

function pufRow(planId: string, age: string, rate: string, tobaccoRate = 'NA', year = '2016'): RatePufRow {
  return {
    BusinessYear: year,
    StateCode: planId.slice(5, 7),
    IssuerId: planId.slice(0, 5),
    PlanId: planId,
    RatingAreaId: 'Rating Area 3',
    Tobacco: tobaccoRate === 'NA' ? 'No Preference' : 'Tobacco User/Non-Tobacco User',
    Age: age,
    IndividualRate: rate,
    IndividualTobaccoRate: tobaccoRate,
  };
}

/** The store's job in the service, done here over rows: (age key, tobacco) → the row's rates in cents. */
function lookupOf(rows: RatePufRow[], planId: string, area = 'Rating Area 3'): RateLookup {
  return (ageKey) => {
    const row = rows.find((r) => r.PlanId === planId && r.RatingAreaId === area && r.Age === ageKey);
    if (!row) return undefined;
    const tobacco = row.Tobacco === 'No Preference' ? null : parseDollars(row.IndividualTobaccoRate);
    return { individualRate: parseDollars(row.IndividualRate), tobaccoRate: tobacco };
  };
}

const plan = (rates: RateLookup, extra: Partial<PlanRating> = {}): PlanRating => ({
  planYear: 2016,
  rates,
  ehbShare: 1,
  catastrophic: false,
  ...extra,
});

const adult = (age: number, extra: Partial<PricedMember> = {}): PricedMember => ({
  age,
  tobacco: false,
  aptcEligible: true,
  ...extra,
});
const child = (age: number, extra: Partial<PricedMember> = {}) =>
  adult(age, { relationship: 'Child', ...extra });

function premiumOf(result: ReturnType<typeof householdPremium>): number {
  assert.ok(result.available, 'priced');
  return result.premium;
}

// Real rows of the CMS Exchange Rate PUF 2016
// (https://www.cms.gov/marketplace/resources/data/public-use-files), TX Rating Area 3, age 30.
const TX_2016 = [
  pufRow('32673TX0640001', '30', '157', '172.72'),
  pufRow('71837TX0010003', '30', '183.42', '210.2'),
];

test('a single adult pays the Rate PUF rate of the age; a tobacco user the tobacco rate', () => {
  const rates = lookupOf(TX_2016, '32673TX0640001');
  assert.equal(premiumOf(householdPremium([adult(30)], plan(rates))), 15700);
  assert.equal(premiumOf(householdPremium([adult(30, { tobacco: true })], plan(rates))), 17272);
  assert.equal(premiumOf(householdPremium([adult(30)], plan(lookupOf(TX_2016, '71837TX0010003')))), 18342);
});

test('a No Preference row has no surcharge: a tobacco user pays the individual rate', () => {
  const rates = lookupOf([pufRow('99999TX0000001', '30', '200.00')], '99999TX0000001');
  assert.equal(premiumOf(householdPremium([adult(30, { tobacco: true })], plan(rates))), 20000);
});

test('a missing rate is never invented: the result names the member', () => {
  const result = householdPremium([adult(30), adult(31)], plan(lookupOf(TX_2016, '32673TX0640001')));
  assert.deepEqual(result, {
    available: false,
    missing: [{ index: 1, ageKey: '31', tobacco: false, reason: 'no-rate-row' }],
  });
});

// QHP Landscape 2014 ID, plan 26002ID0010001 (ADA county): child $134.76, age 21 $212.22; its published
// family columns apply 45 CFR 147.102(c)(1): "Couple+3 or more Children, Age 21" $828.72,
// "Individual+3 or more children, Age 21" $616.50, "Couple+1 child" $559.20, "Couple+2 children" $693.96.
const ID_2014 = [
  pufRow('26002ID0010001', '0-20', '134.76', 'NA', '2014'),
  pufRow('26002ID0010001', '21', '212.22', 'NA', '2014'),
];
const id2014 = plan(lookupOf(ID_2014, '26002ID0010001'), { planYear: 2014 });
const couple21 = [adult(21), adult(21, { relationship: 'Spouse' })];

test('45 CFR 147.102(c)(1): the CMS landscape family columns, three or more children', () => {
  assert.equal(premiumOf(householdPremium([...couple21, child(5)], id2014)), 55920);
  assert.equal(premiumOf(householdPremium([...couple21, child(5), child(3)], id2014)), 69396);
  assert.equal(premiumOf(householdPremium([...couple21, child(9), child(5), child(3)], id2014)), 82872);
  const five = [...couple21, child(12), child(9), child(7), child(5), child(3)];
  assert.equal(premiumOf(householdPremium(five, id2014)), 82872);
  assert.equal(
    premiumOf(householdPremium([adult(21), child(9), child(5), child(3), child(1)], id2014)),
    61650,
  );
});

// Federal default curve rates for a $300.00 age-21 rate, 2026 keys (test data, not a real plan).
const P2026 = '99999TX0000002';
const RATES_2026 = [
  pufRow(P2026, '0-14', '229.50', 'NA', '2026'),
  pufRow(P2026, '15', '249.90', 'NA', '2026'),
  pufRow(P2026, '17', '265.50', 'NA', '2026'),
  pufRow(P2026, '20', '291.00', 'NA', '2026'),
  pufRow(P2026, '22', '300.00', 'NA', '2026'),
  pufRow(P2026, '38', '373.80', 'NA', '2026'),
  pufRow(P2026, '40', '383.40', 'NA', '2026'),
];
const plan2026 = (extra: Partial<PlanRating> = {}) =>
  plan(lookupOf(RATES_2026, P2026), { planYear: 2026, ...extra });

test('only the three oldest children under 21 are rated; a dependant of 21 or more pays as an adult', () => {
  const family = [
    adult(40),
    adult(38, { relationship: 'Spouse' }),
    child(20),
    child(17),
    child(15),
    child(10),
    child(3),
  ];
  const result = householdPremium(family, plan2026());
  assert.ok(result.available);
  assert.equal(result.premium, 38340 + 37380 + 29100 + 26550 + 24990);
  assert.deepEqual(
    result.members.map((m) => m.status),
    ['rated', 'rated', 'rated', 'rated', 'rated', 'child-beyond-three', 'child-beyond-three'],
  );
  const withOlder = [adult(40), child(22), child(17), child(15), child(10), child(3)];
  assert.equal(premiumOf(householdPremium(withOlder, plan2026())), 38340 + 30000 + 26550 + 24990 + 22950);
});

test('a spouse under 21 is not one of the children', () => {
  const family = [adult(22), adult(20, { relationship: 'Spouse' }), child(15), child(10), child(3)];
  assert.equal(premiumOf(householdPremium(family, plan2026())), 30000 + 29100 + 24990 + 22950 + 22950);
});

test('has_mec members are out of the premium household and free a child slot', () => {
  const family = [adult(40), child(17, { hasMec: true }), child(15), child(10), child(3)];
  const result = householdPremium(family, plan2026());
  assert.ok(result.available);
  assert.equal(result.premium, 38340 + 24990 + 22950 + 22950);
  assert.equal(result.members[1]!.status, 'has-mec');
});

test("living apart matters only where the issuer's cohabitation rule requires living together", () => {
  const family = [adult(40), adult(38, { relationship: 'Spouse', doesNotCohabitate: true })];
  assert.equal(premiumOf(householdPremium(family, plan2026())), 38340 + 37380);
  const requires = plan2026({ cohabitationRequired: (relationship) => relationship === 'Spouse' });
  const result = householdPremium(family, requires);
  assert.ok(result.available);
  assert.equal(result.premium, 38340);
  assert.equal(result.members[1]!.status, 'does-not-cohabitate');
});

test('EHB premium, APTC-eligible premium, catastrophic plans and pediatric dental', () => {
  // 97.4 %: "EHB Percent of Total Premium" of 2016 HI plan 18350HI0880001 in the QHP Landscape file.
  const family = [
    adult(40),
    adult(38, { relationship: 'Spouse', aptcEligible: false }),
    child(17),
    child(15),
  ];
  // 0.993: an EHBPediatricDentalApportionmentQuantity of stand-alone dental plans in the PY2025 Plan
  // Attributes PUF (10 plan variants); applied here to show the arithmetic only.
  const result = householdPremium(family, plan2026({ ehbShare: 0.974, pediatricDentalShare: 0.993 }));
  assert.ok(result.available);
  assert.equal(result.premium, 38340 + 37380 + 26550 + 24990); // 1272.60
  assert.equal(result.ehbPremium, 123951); // 1272.60 × 0.974 = 1239.5124
  assert.equal(result.aptcEligiblePremium, 87543); // (383.40 + 265.50 + 249.90) × 0.974 = 875.4312
  assert.equal(result.pediatricEhbPremium, 51179); // children under 19: (265.50 + 249.90) × 0.993 = 511.7922
  const catastrophic = householdPremium([adult(22)], plan2026({ catastrophic: true, ehbShare: 0.974 }));
  assert.ok(catastrophic.available);
  assert.equal(catastrophic.aptcEligiblePremium, 0);
  assert.equal(catastrophic.ehbPremium, 29220);
  assert.equal(catastrophic.pediatricEhbPremium, null);
});

const NY = '99999NY0000001';
const nyPlan = (extra: Partial<PlanRating> = {}) =>
  plan(lookupOf([pufRow(NY, 'Family Option', '500.00', 'NA', '2026')], NY), {
    planYear: 2026,
    familyTierState: 'NY',
    ...extra,
  });

test('family-tier states: single-adult rate × the tier factor, no age rating', () => {
  assert.equal(premiumOf(householdPremium([adult(64)], nyPlan())), 50000);
  assert.equal(
    premiumOf(householdPremium([adult(30), adult(64, { relationship: 'Spouse' })], nyPlan())),
    100000,
  );
  assert.equal(premiumOf(householdPremium([adult(30), child(3)], nyPlan())), 85000);
  assert.equal(premiumOf(householdPremium([adult(30), child(25)], nyPlan())), 85000);
  const family = [adult(30), adult(31, { relationship: 'Spouse' }), child(3), child(5), child(7), child(9)];
  assert.equal(premiumOf(householdPremium(family, nyPlan())), 142500);
  assert.equal(premiumOf(householdPremium([child(10)], nyPlan())), 20600);
  const vt = householdPremium([adult(30), child(3)], nyPlan({ familyTierState: 'VT' }));
  assert.equal(premiumOf(vt), 96500);
});

test('family tiers: no factor or no row → unavailable, never a guess', () => {
  assert.deepEqual(householdPremium([child(10)], nyPlan({ familyTierState: 'VT' })), {
    available: false,
    missing: [{ index: 0, ageKey: 'Family Option', tobacco: false, reason: 'no-tier-factor' }],
  });
  const threeAdults = [
    adult(30),
    adult(31, { relationship: 'Spouse' }),
    adult(60, { relationship: 'Other Relative' }),
  ];
  assert.equal(householdPremium(threeAdults, nyPlan()).available, false);
  assert.equal(householdPremium([adult(30)], nyPlan({ rates: () => undefined })).available, false);
});

test('family tiers: APTC-eligible premium is the eligible members’ own tier, at most the policy', () => {
  const result = householdPremium([adult(30, { aptcEligible: false }), child(3)], nyPlan({ ehbShare: 0.9 }));
  assert.ok(result.available);
  assert.equal(result.premium, 85000);
  assert.equal(result.aptcEligiblePremium, 18540); // the child alone: 500 × 0.412 = 206 → × 0.9
});

test('an issuer that counts fewer children than three (Business Rules PUF family-size rules)', () => {
  // 2014 Business Rules PUF, issuer 33851 (AZ): TwoParentFamilyMaxDependentsRule and
  // SingleParentFamilyMaxDependentsRule "2", ChildrenOnlyContractMaxChildrenRule "3 or more".
  const az = { twoParent: 2, singleParent: 2, childrenOnly: null, anyPolicy: null };
  // Couple of 21 with three children: 212.22 × 2 + 134.76 × 2 = 693.96, the landscape's "Couple+2 children".
  const family = [...couple21, child(9), child(5), child(3)];
  const result = householdPremium(family, { ...id2014, ratedChildren: az });
  assert.equal(premiumOf(result), 69396);
  assert.ok(result.available);
  assert.deepEqual(
    result.members.map((m) => m.status),
    ['rated', 'rated', 'rated', 'rated', 'child-beyond-three'],
  );
  // One parent of 21 with three children: 212.22 + 134.76 × 2 = 481.74.
  assert.equal(
    premiumOf(householdPremium([adult(21), child(9), child(5), child(3)], { ...id2014, ratedChildren: az })),
    48174,
  );
  // Children only, "3 or more": the federal three, 134.76 × 3 = 404.28.
  const kids = [adult(9), child(5), child(3), child(1)];
  assert.equal(premiumOf(householdPremium(kids, { ...id2014, ratedChildren: az })), 40428);
  // 2014 Business Rules PUF, plan 52899PA0040002: all three rules "1". Children only: 134.76.
  const pa = { twoParent: 1, singleParent: 1, childrenOnly: 1, anyPolicy: null };
  assert.equal(premiumOf(householdPremium(kids, { ...id2014, ratedChildren: pa })), 13476);
  // A 2021-on MaximumUnderageDependent of 3 is the federal rule: 404.28 again.
  const current = { twoParent: null, singleParent: null, childrenOnly: null, anyPolicy: 3 };
  assert.equal(premiumOf(householdPremium(kids, { ...id2014, ratedChildren: current })), 40428);
});
