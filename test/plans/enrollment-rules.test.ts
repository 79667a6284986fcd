import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { postJson } from '../helpers/priced-market.js';
import { sharedData, skipWithoutSharedData } from '../helpers/shared-data.js';
import { REAL, SANDBOX_KEY, assertPlanError, filesOf, planApiSuite, type PlanApi } from './plan-api.js';

// The issuers' Business Rules PUF in quotes (docs/decisions.md#enrollment-rules, #slcsp-benchmark): each
// priced plan's `is_ineligible` and `ineligible_reasons`, the SLCSP / LCSP / LCBP and the credit's benchmark
// that never take a plan refusing someone of the household, and `data_notes.business_rules` without the
// file. Real data: Ada County, Idaho (16001, ZIP 83702, rating area 6), plan year 2014, from the 2014 QHP
// Landscape file of Idaho and the 2014 Business Rules PUF. Every expected flag is worked out here from the
// two CSV files themselves (csv-parse, a test-only reader that shares no code with the ingest or the quote),
// and the figures of the four issuers are written out in comments below.

const YEAR = 2014;
const ADA = { countyfips: '16001', state: 'ID', zipcode: '83702' };
const RULES_FILE = REAL.businessRules2014.files[0]!;
const LANDSCAPE_FILE = REAL.landscapeIdaho2014.files[0]!;

const BASE_LOADS = [
  REAL.counties,
  REAL.zipCounty,
  REAL.medicaid,
  REAL.ratingAreas2014,
  REAL.landscapeIdaho2014,
];
const skip = skipWithoutSharedData(...filesOf(...BASE_LOADS, REAL.businessRules2014));

// ---------------------------------------------------------------------------------------------------
// The oracle: the two published files, read without any of the service's code.

type Cells = Record<string, string>;
const parsed = new Map<string, Cells[]>();
function rowsOf(file: string): Cells[] {
  let rows = parsed.get(file);
  if (!rows) {
    rows = parse(readFileSync(sharedData(file), 'utf8'), {
      bom: true,
      columns: true,
      skip_empty_lines: true,
    }) as Cells[];
    parsed.set(file, rows);
  }
  return rows;
}

/** What an issuer's PUF rows say of a plan's dependents. */
interface DependentRules {
  /** The relationships listed in `CohabitationRule` ("Spouse,No;Child,No"), `Self` left out. */
  accepts: string[];
  /** `DependentMaximumAgRule`; null for "Not Applicable". */
  maxAge: number | null;
}

/**
 * A plan's dependent rules from the Business Rules PUF rows of the individual market: each column from
 * the most specific row that fills it — the plan's (`StandardComponentId`), its product's (`ProductId`, the
 * plan id's first 10 characters), else the issuer's (both empty). Where a scope has two rows (the PUF lists
 * some issuers once with DentalOnly Yes and once with No), they must agree, so which one counts does not
 * matter.
 */
function pufRules(planId: string): DependentRules {
  const rows = rowsOf(RULES_FILE).filter(
    (r) => r.StateCode === 'ID' && r.IssuerId === planId.slice(0, 5) && r.MarketCoverage === 'Individual',
  );
  const scopeOf = (r: Cells) => r.StandardComponentId || r.ProductId || '';
  const stated = (column: string): string | undefined => {
    for (const scope of [planId, planId.slice(0, 10), '']) {
      const values = new Set(rows.filter((r) => scopeOf(r) === scope).map((r) => r[column]!.trim()));
      values.delete('');
      assert.ok(values.size <= 1, `${planId}: rows of scope "${scope}" disagree on ${column}`);
      if (values.size === 1) return [...values][0];
    }
    return undefined;
  };
  const cohabitation = stated('CohabitationRule') ?? '';
  const age = stated('DependentMaximumAgRule');
  return {
    accepts: cohabitation
      .split(';')
      .map((entry) => entry.split(',')[0]!.trim())
      .filter((r) => r !== '' && r !== 'Self'),
    maxAge: age === undefined || age === 'Not Applicable' ? null : Number(age),
  };
}

interface FilePlan {
  id: string;
  issuer: string;
  metal: string;
  /** Published monthly premiums (cents) at 30 and 40: ages the service quotes as published. */
  at30: number;
  at40: number;
}

/** "$1,092.86" → cents. */
const cents = (text: string) => Math.round(Number(text.replace(/[$,]/g, '')) * 100);

/** The landscape file's plans of Ada County (49 rows, all rating area 6). */
function adaPlans(): FilePlan[] {
  return rowsOf(LANDSCAPE_FILE)
    .filter((r) => r.County === 'ADA')
    .map((r) => ({
      id: r['Plan ID - Standard Component']!,
      issuer: r['Plan ID - Standard Component']!.slice(0, 5),
      metal: r['Metal Level']!,
      at30: cents(r['Premium Adult Individual Age 30']!),
      at40: cents(r['Premium Adult Individual Age 40']!),
    }));
}

/**
 * The four issuers selling in Ada County and their individual-market rows of the 2014 Business Rules PUF
 * (issuer-level rows; SelectHealth's product rows 26002ID001 and 26002ID003 leave both columns empty, so the
 * issuer's row decides). All four determine age "on effective date", 1 January 2014 here.
 *
 * - 26002 SelectHealth: Spouse, Adopted Child, Ward, Stepson or Stepdaughter, Self, Child; maximum age 26.
 * - 59765 BridgeSpan: Spouse, Adopted Child, Ward, Stepson or Stepdaughter, Self, Child, Court Appointed
 *   Guardian, Life Partner; 25.
 * - 60597 PacificSource: Spouse, Adopted Child, Stepson or Stepdaughter, Self, Child, Court Appointed
 *   Guardian, Life Partner (no Ward); 25.
 * - 61589 Blue Cross of Idaho: Spouse, Adopted Child, Ward, Stepson or Stepdaughter, Self, Child; 25.
 *
 * No issuer lists "Ex-Spouse"; only BridgeSpan and PacificSource list "Life Partner".
 */
const ISSUERS: Record<string, DependentRules> = {
  '26002': {
    accepts: ['Spouse', 'Adopted Child', 'Ward', 'Stepson or Stepdaughter', 'Child'],
    maxAge: 26,
  },
  '59765': {
    accepts: [
      'Spouse',
      'Adopted Child',
      'Ward',
      'Stepson or Stepdaughter',
      'Child',
      'Court Appointed Guardian',
      'Life Partner',
    ],
    maxAge: 25,
  },
  '60597': {
    accepts: [
      'Spouse',
      'Adopted Child',
      'Stepson or Stepdaughter',
      'Child',
      'Court Appointed Guardian',
      'Life Partner',
    ],
    maxAge: 25,
  },
  '61589': {
    accepts: ['Spouse', 'Adopted Child', 'Ward', 'Stepson or Stepdaughter', 'Child'],
    maxAge: 25,
  },
};

/** Those a dependent age limit applies to: children and those in a child's place (decisions.md#enrollment-rules). */
const CHILD_LIKE = new Set([
  'Child',
  'Adopted Child',
  'Foster Child',
  'Stepson or Stepdaughter',
  'Ward',
  'Grandson or Granddaughter',
  'Nephew or Niece',
  'Brother or Sister',
  'Dependent of a Minor Dependent',
]);

interface Person {
  age: number;
  aptc_eligible: boolean;
  gender: 'Female' | 'Male';
  uses_tobacco: boolean;
  relationship?: string;
  has_mec?: boolean;
}
const person = (age: number, more: Partial<Person> = {}): Person => ({
  age,
  aptc_eligible: true,
  gender: age % 2 === 0 ? 'Female' : 'Male',
  uses_tobacco: false,
  ...more,
});

interface Reason {
  person: number;
  rule: 'relationship' | 'max_age_child';
  reason: string;
}

/**
 * Who the rules refuse, as the decision states it: not the first person; not anyone without a relationship,
 * with `Self`, or with other coverage; and nobody when the first person has other coverage. A relationship
 * not listed is refused; else a child-like one older than the maximum age. The reason names who, the
 * issuer and the values compared.
 */
function expectedReasons(issuer: string, people: Person[]): Reason[] {
  if (people[0]!.has_mec) return [];
  const rules = ISSUERS[issuer]!;
  return people.flatMap((p, i): Reason[] => {
    const relationship = p.relationship;
    if (i === 0 || !relationship || relationship === 'Self' || p.has_mec) return [];
    const who = `household.people[${i}]`;
    if (!rules.accepts.includes(relationship)) {
      return [
        {
          person: i,
          rule: 'relationship',
          reason:
            `${who} ("${relationship}") is not a relationship issuer ${issuer} accepts as a dependent ` +
            `(Business Rules PUF: ${rules.accepts.join(', ')})`,
        },
      ];
    }
    if (rules.maxAge !== null && CHILD_LIKE.has(relationship) && p.age > rules.maxAge) {
      return [
        {
          person: i,
          rule: 'max_age_child',
          reason:
            `${who} ("${relationship}", age ${p.age}) is older than ${rules.maxAge}, the oldest a ` +
            `dependent may be on issuer ${issuer}'s plan (Business Rules PUF)`,
        },
      ];
    }
    return [];
  });
}

/** Second-lowest distinct amount (the benchmark rule), or the only one. */
function secondLowest(amounts: number[]): number {
  const distinct = [...new Set(amounts)].sort((a, b) => a - b);
  return distinct[1] ?? distinct[0]!;
}

// ---------------------------------------------------------------------------------------------------
// The service.

interface Priced {
  id: string;
  metal_level: string;
  premium: number | null;
  ehb_premium: number | null;
  is_ineligible: boolean;
  ineligible_reasons?: Reason[];
}
interface Search {
  plans: Priced[];
  total: number;
  data_notes?: Record<string, string>;
}
interface Lowest {
  id: string;
  name: string;
  premium: number;
  metal_level: string;
}

/**
 * A plan's flags are those the PUF gives for the household: `is_ineligible` exactly when someone is refused,
 * `ineligible_reasons` present exactly then.
 */
function assertFlags(plan: Priced, people: Person[]): void {
  const expected = expectedReasons(plan.id.slice(0, 5), people);
  assert.equal(plan.is_ineligible, expected.length > 0, plan.id);
  assert.deepEqual(plan.ineligible_reasons, expected.length > 0 ? expected : undefined, plan.id);
}

/** The household of the brief: a 40-year-old, a 39-year-old ex-spouse and a 26-year-old child. */
const WITH_EX_SPOUSE = [
  person(40),
  person(39, { relationship: 'Ex-Spouse' }),
  person(26, { relationship: 'Child' }),
];
/** Two adults at published landscape ages (30 and 40), so every premium is a cell of the file. */
const couple = (relationship: string | undefined) => [
  person(40),
  person(30, relationship === undefined ? {} : { relationship }),
];

function pricedApi(api: PlanApi) {
  const body = (people: Person[], income = -1, more: Record<string, unknown> = {}) => ({
    place: ADA,
    market: 'Individual',
    year: YEAR,
    household: { income, people },
    ...more,
  });
  const call = (path: string, payload: unknown) => postJson(api.running.url, SANDBOX_KEY, path, payload);
  async function post<T>(path: string, payload: unknown): Promise<T> {
    const response = await call(path, payload);
    const text = await response.text();
    assert.equal(response.status, 200, `${path}: ${text}`);
    return JSON.parse(text) as T;
  }
  /** Every plan of the search (43 for an adult household: 49 rows less 6 catastrophic plans). */
  async function search(people: Person[]): Promise<Search> {
    const answer = await post<Search>('/plans/search', body(people, -1, { limit: 100 }));
    assert.equal(answer.plans.length, answer.total);
    return answer;
  }
  return { body, call, post, search };
}

describe('issuers’ business rules in quotes (Ada County ID, 2014, real PUFs)', { skip }, () => {
  const api = planApiSuite([...BASE_LOADS, REAL.businessRules2014]);
  const { body, call, post, search } = pricedApi(api);
  const file = () => adaPlans();
  const nonCatastrophic = () => file().filter((p) => p.metal !== 'Catastrophic');

  test('the PUF rows of every Ada County plan say what the comment above says', () => {
    const plans = file();
    assert.equal(plans.length, 49);
    assert.deepEqual([...new Set(plans.map((p) => p.issuer))].sort(), Object.keys(ISSUERS));
    for (const plan of plans) assert.deepEqual(pufRules(plan.id), ISSUERS[plan.issuer], plan.id);
  });

  test('a 40-year-old, a 39-year-old ex-spouse and a 26-year-old child: every plan is flagged, with who and why', async () => {
    const answer = await search(WITH_EX_SPOUSE);
    // 49 rows less 6 catastrophic plans (not shown to a household with someone of 30 or more) = 43.
    assert.equal(answer.total, nonCatastrophic().length);
    assert.equal(answer.total, 43);
    const byIssuer = new Map<string, number>();
    for (const plan of answer.plans) {
      const issuer = plan.id.slice(0, 5);
      const expected = expectedReasons(issuer, WITH_EX_SPOUSE);
      assert.equal(plan.is_ineligible, true, plan.id);
      assert.deepEqual(plan.ineligible_reasons, expected, plan.id);
      byIssuer.set(issuer, plan.ineligible_reasons!.length);
    }
    // No issuer lists "Ex-Spouse": person 1 is refused everywhere. The child of 26 is within SelectHealth's
    // 26 and past the others' 25: SelectHealth's 18 plans (19 less its catastrophic one) refuse one person,
    // the other 25 plans two.
    assert.deepEqual(Object.fromEntries(byIssuer), { 26002: 1, 59765: 2, 60597: 2, 61589: 2 });
    const single = answer.plans.filter((p) => p.ineligible_reasons!.length === 1);
    assert.equal(single.length, 18);
    assert.deepEqual(answer.plans.find((p) => p.id === '61589ID1650001')!.ineligible_reasons, [
      {
        person: 1,
        rule: 'relationship',
        reason:
          'household.people[1] ("Ex-Spouse") is not a relationship issuer 61589 accepts as a dependent ' +
          '(Business Rules PUF: Spouse, Adopted Child, Ward, Stepson or Stepdaughter, Child)',
      },
      {
        person: 2,
        rule: 'max_age_child',
        reason:
          'household.people[2] ("Child", age 26) is older than 25, the oldest a dependent may be on issuer ' +
          "61589's plan (Business Rules PUF)",
      },
    ]);
    assert.equal(answer.data_notes?.business_rules, undefined);
  });

  test('the age limit at its edges, and only for children and those in their place', async () => {
    const flaggedIssuers = async (people: Person[]) => {
      const answer = await search(people);
      for (const plan of answer.plans) assertFlags(plan, people);
      return [...new Set(answer.plans.filter((p) => p.is_ineligible).map((p) => p.id.slice(0, 5)))].sort();
    };
    // 25 is no older than any limit (25 or 26): nobody refuses.
    assert.deepEqual(await flaggedIssuers([person(40), person(25, { relationship: 'Child' })]), []);
    // 26: older than 25, not than SelectHealth's 26.
    assert.deepEqual(await flaggedIssuers([person(40), person(26, { relationship: 'Child' })]), [
      '59765',
      '60597',
      '61589',
    ]);
    // 27: older than every limit; the same for a stepson, also listed by all four.
    const all = ['26002', '59765', '60597', '61589'];
    assert.deepEqual(await flaggedIssuers([person(40), person(27, { relationship: 'Child' })]), all);
    assert.deepEqual(
      await flaggedIssuers([person(40), person(27, { relationship: 'Stepson or Stepdaughter' })]),
      all,
    );
    // A spouse of 60 is listed everywhere, and the dependent age limit does not describe spouses.
    assert.deepEqual(await flaggedIssuers([person(40), person(60, { relationship: 'Spouse' })]), []);
    // A ward of 21: PacificSource alone does not list "Ward"; 21 is within every limit.
    assert.deepEqual(await flaggedIssuers([person(40), person(21, { relationship: 'Ward' })]), ['60597']);
    // A life partner: SelectHealth and Blue Cross of Idaho do not list one.
    assert.deepEqual(await flaggedIssuers(couple('Life Partner')), ['26002', '61589']);
  });

  test('only what the request states is checked', async () => {
    const flagged = async (people: Person[]) =>
      (await search(people)).plans.filter((p) => p.is_ineligible).length;
    // No relationship given: nothing says what the 39- and 26-year-olds are to the first person.
    assert.equal(await flagged([person(40), person(39), person(26)]), 0);
    // "Self" on the first person, as the CMS examples write it, changes nothing.
    assert.equal(
      await flagged([person(40, { relationship: 'Self' }), person(25, { relationship: 'Child' })]),
      0,
    );
    // The ex-spouse has other coverage (has_mec) and does not enrol: only the child of 26 is checked, so
    // SelectHealth's 18 plans are clear and the other 25 are flagged for the child alone.
    const mec = [
      person(40),
      person(39, { relationship: 'Ex-Spouse', has_mec: true }),
      person(26, { relationship: 'Child' }),
    ];
    const answer = await search(mec);
    for (const plan of answer.plans) {
      assertFlags(plan, mec);
      assert.equal(plan.is_ineligible, !plan.id.startsWith('26002'), plan.id);
    }
    // The first person has other coverage: the relationships given are to someone not on the policy.
    const [first, ...rest] = WITH_EX_SPOUSE;
    assert.equal(await flagged([{ ...first!, has_mec: true }, ...rest]), 0);
  });

  test('/households/slcsp, /lcsp and /lcbp never answer a plan whose issuer refuses someone', async () => {
    // 40 and 30 are published landscape ages: each household premium is the file's age-40 cell + its age-30
    // cell; 2014 landscape files publish no EHB share, so the EHB premium is the whole premium.
    const amount = (p: FilePlan) => p.at40 + p.at30;
    const lowest = (plans: FilePlan[]) =>
      [...plans].sort((a, b) => amount(a) - amount(b) || (a.id < b.id ? -1 : 1))[0]!;
    const fromFile = (plans: FilePlan[], metal: string, second: boolean) => {
      const of = plans.filter((p) => p.metal === metal);
      const target = second ? secondLowest(of.map(amount)) : amount(lowest(of));
      const plan = of.filter((p) => amount(p) === target).sort((a, b) => (a.id < b.id ? -1 : 1))[0]!;
      return { id: plan.id, premium: target / 100, metal_level: metal };
    };
    const answers = async (people: Person[]) => {
      const shape = (l: Lowest) => ({ id: l.id, premium: l.premium, metal_level: l.metal_level });
      return {
        slcsp: shape(await post<Lowest>('/households/slcsp', body(people))),
        lcsp: shape(await post<Lowest>('/households/lcsp', body(people))),
        lcbp: shape(await post<Lowest>('/households/lcbp', body(people))),
      };
    };
    const accepting = (people: Person[]) =>
      file().filter((p) => expectedReasons(p.issuer, people).length === 0);

    // A spouse is accepted everywhere: all 16 silver and 14 bronze plans rank. Silver: Blue Cross
    // 61589ID1650001 217.86 + 193.48 = 411.34, SelectHealth 26002ID0010005 230.74 + 204.92 = 435.66 (the
    // SLCSP), 26002ID0010015 231.42 + 205.53 = 436.95, …; bronze: Blue Cross 61589ID1640001 176.88 +
    // 157.08 = 333.96.
    const spouse = couple('Spouse');
    const withSpouse = await answers(spouse);
    assert.deepEqual(withSpouse, {
      slcsp: fromFile(accepting(spouse), 'Silver', true),
      lcsp: fromFile(accepting(spouse), 'Silver', false),
      lcbp: fromFile(accepting(spouse), 'Bronze', false),
    });
    assert.deepEqual(withSpouse, {
      slcsp: { id: '26002ID0010005', premium: 435.66, metal_level: 'Silver' },
      lcsp: { id: '61589ID1650001', premium: 411.34, metal_level: 'Silver' },
      lcbp: { id: '61589ID1640001', premium: 333.96, metal_level: 'Bronze' },
    });

    // A life partner: SelectHealth and Blue Cross refuse, so only BridgeSpan's and PacificSource's plans
    // rank. Silver: 60597ID0170002 254 + 225 = 479.00, 60597ID0160003 255 + 227 = 482.00 (the SLCSP),
    // 59765ID0020001 288.33 + 256.06 = 544.39, …; bronze: 60597ID0160001 204 + 181 = 385.00.
    const partner = couple('Life Partner');
    const withPartner = await answers(partner);
    assert.deepEqual(withPartner, {
      slcsp: fromFile(accepting(partner), 'Silver', true),
      lcsp: fromFile(accepting(partner), 'Silver', false),
      lcbp: fromFile(accepting(partner), 'Bronze', false),
    });
    assert.deepEqual(withPartner, {
      slcsp: { id: '60597ID0160003', premium: 482, metal_level: 'Silver' },
      lcsp: { id: '60597ID0170002', premium: 479, metal_level: 'Silver' },
      lcbp: { id: '60597ID0160001', premium: 385, metal_level: 'Bronze' },
    });
    // The plans the spouse household got are flagged for the partner household.
    const partnerSearch = new Map((await search(partner)).plans.map((p) => [p.id, p]));
    for (const { id } of Object.values(withSpouse))
      assert.equal(partnerSearch.get(id)!.is_ineligible, true, id);
    for (const { id } of Object.values(withPartner))
      assert.equal(partnerSearch.get(id)!.is_ineligible, false, id);
  });

  test('a child of 26: SelectHealth (maximum 26) alone is offered, so the benchmark plans are its plans', async () => {
    // 39 and 26 are not published ages (derived from the federal curve), so the amounts are read from the
    // search's own quotes for the same household; which plans may rank comes from the PUF.
    const people = [
      person(40),
      person(39, { relationship: 'Spouse' }),
      person(26, { relationship: 'Child' }),
    ];
    const answer = await search(people);
    const offered = answer.plans.filter((p) => !p.is_ineligible);
    assert.deepEqual(
      offered.map((p) => p.id).sort(),
      nonCatastrophic()
        .filter((p) => p.issuer === '26002')
        .map((p) => p.id)
        .sort(),
    );
    const silver = offered.filter((p) => p.metal_level === 'Silver');
    assert.equal(silver.length, 7); // 26002ID0010005, -08, -09, -12, -14, -15, -17
    const slcsp = await post<Lowest>('/households/slcsp', body(people));
    assert.equal(slcsp.premium, secondLowest(silver.map((p) => p.ehb_premium!)));
    assert.ok(silver.some((p) => p.id === slcsp.id && p.ehb_premium === slcsp.premium));
    const lcsp = await post<Lowest>('/households/lcsp', body(people));
    assert.equal(lcsp.premium, Math.min(...silver.map((p) => p.premium!)));
    assert.ok(lcsp.id.startsWith('26002'));
    const lcbp = await post<Lowest>('/households/lcbp', body(people));
    const bronze = offered.filter((p) => p.metal_level === 'Bronze');
    assert.equal(lcbp.premium, Math.min(...bronze.map((p) => p.premium!)));
    assert.ok(lcbp.id.startsWith('26002'));
    // Unflagged, a cheaper Blue Cross plan would win: the household quoted without relationships.
    const unrestricted = await post<Lowest>('/households/lcsp', body([person(40), person(39), person(26)]));
    assert.ok(unrestricted.id.startsWith('61589'), unrestricted.id);
    assert.ok(unrestricted.premium < lcsp.premium);
  });

  test('when every plan of the metal refuses the household, 1016 says how many the rules refused', async () => {
    // Ada County sells 16 silver and 14 bronze plans, and every one refuses the ex-spouse.
    assert.equal(file().filter((p) => p.metal === 'Silver').length, 16);
    assert.equal(file().filter((p) => p.metal === 'Bronze').length, 14);
    const refused = (metal: string, count: number) => ({
      code: '1016',
      status: '404',
      message: 'not enough plans to calculate SLCSP/LCBP',
      error:
        `no ${metal} plan with rates for the household in county 16001 (rating area 6) in 2014: the issuers' ` +
        `business rules refuse the household on ${count} ${metal} plan(s) (is_ineligible)`,
    });
    await assertPlanError(await call('/households/slcsp', body(WITH_EX_SPOUSE)), refused('silver', 16));
    await assertPlanError(await call('/households/lcsp', body(WITH_EX_SPOUSE)), refused('silver', 16));
    await assertPlanError(await call('/households/lcbp', body(WITH_EX_SPOUSE)), refused('bronze', 14));
  });

  test('the credit’s benchmark leaves out the plans that refuse the household', async () => {
    // Income 31,020 for two: 31,020 / 15,510 (2013 guidelines for the 2014 credit: 11,490 + 4,020) = 200 %
    // FPL; the 2014 statutory table starts its 200–250 % band at 6.30 %: 31,020 × 6.30 % / 12 = 162.855 a
    // month. Benchmark with a spouse 435.66 (all plans), with a life partner 482.00 (SelectHealth and Blue
    // Cross refuse): credits 272.805 and 319.145 for each APTC-eligible person.
    const estimates = async (people: Person[]) =>
      (
        await post<{ estimates: { aptc: number }[] }>(
          '/households/eligibility/estimates',
          body(people, 31_020),
        )
      ).estimates.map((e) => e.aptc);
    const close = (actual: number[], expected: number) =>
      actual.forEach((a) => assert.ok(Math.abs(a - expected) < 1e-9, `${a} ≠ ${expected}`));
    close(await estimates(couple('Spouse')), 435.66 - 162.855);
    close(await estimates(couple('Life Partner')), 482 - 162.855);
  });

  test('POST /plans and POST /plans/{plan_id} carry the same flags as the search', async () => {
    const searched = new Map((await search(WITH_EX_SPOUSE)).plans.map((p) => [p.id, p]));
    // One plan of each issuer.
    const ids = ['26002ID0010005', '59765ID0020001', '60597ID0160003', '61589ID1650001'];
    const compared = await post<{ plans: Priced[]; data_notes?: Record<string, string> }>(
      '/plans',
      body(WITH_EX_SPOUSE, -1, { plan_ids: ids }),
    );
    assert.deepEqual(
      compared.plans.map((p) => [p.id, p.is_ineligible, p.ineligible_reasons]),
      ids.map((id) => [id, true, expectedReasons(id.slice(0, 5), WITH_EX_SPOUSE)]),
    );
    for (const plan of compared.plans) {
      assert.deepEqual(plan.ineligible_reasons, searched.get(plan.id)!.ineligible_reasons);
    }
    assert.equal(compared.data_notes?.business_rules, undefined);
    for (const id of ids) {
      const one = await post<{ plan: Priced }>(`/plans/${id}`, body(WITH_EX_SPOUSE));
      assert.equal(one.plan.is_ineligible, true);
      assert.deepEqual(one.plan.ineligible_reasons, searched.get(id)!.ineligible_reasons);
    }
    // A household the plan accepts: false, and no ineligible_reasons key at all.
    const clear = await post<{ plan: Record<string, unknown> }>(
      '/plans/26002ID0010005',
      body(couple('Spouse')),
    );
    assert.equal(clear.plan.is_ineligible, false);
    assert.equal('ineligible_reasons' in clear.plan, false);
  });
});

describe('without a Business Rules PUF for the year (Ada County ID, 2014)', { skip }, () => {
  const api = planApiSuite(BASE_LOADS);
  const { body, post, search } = pricedApi(api);

  const NOTE =
    "No Business Rules PUF is loaded for 2014 (openenroll ingest business-rules): the issuers' rules on " +
    'who may be a dependent (relationships, maximum age) are not checked, so no plan is flagged ' +
    'is_ineligible.';

  test('no plan is flagged, and data_notes.business_rules says why for a household with dependents', async () => {
    const answer = await search(WITH_EX_SPOUSE);
    assert.equal(answer.total, 43);
    for (const plan of answer.plans) {
      assert.equal(plan.is_ineligible, false, plan.id);
      assert.equal('ineligible_reasons' in plan, false, plan.id);
    }
    assert.equal(answer.data_notes?.business_rules, NOTE);
    // One person: nobody whom a dependent rule could refuse, no note.
    assert.equal((await search([person(40)])).data_notes?.business_rules, undefined);
  });

  test('POST /plans and /plans/{plan_id} say the same; the SLCSP ranks every silver plan', async () => {
    const compared = await post<{ plans: Priced[]; data_notes?: Record<string, string> }>(
      '/plans',
      body(WITH_EX_SPOUSE, -1, { plan_ids: ['61589ID1650001'] }),
    );
    assert.equal(compared.plans[0]!.is_ineligible, false);
    assert.equal(compared.data_notes?.business_rules, NOTE);
    const one = await post<{ plan: Priced; data_notes?: Record<string, string> }>(
      '/plans/61589ID1650001',
      body(WITH_EX_SPOUSE),
    );
    assert.equal(one.plan.is_ineligible, false);
    assert.equal(one.data_notes?.business_rules, NOTE);
    // With the rules loaded a life partner is refused by SelectHealth and Blue Cross (SLCSP 482.00);
    // without them every silver plan ranks: 411.34, 435.66 → 26002ID0010005 at 435.66.
    const slcsp = await post<Lowest>('/households/slcsp', body(couple('Life Partner')));
    assert.deepEqual({ id: slcsp.id, premium: slcsp.premium }, { id: '26002ID0010005', premium: 435.66 });
  });
});
