import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { sharedData, skipWithoutSharedData } from '../helpers/shared-data.js';
import { REAL, SANDBOX_KEY, assertPlanError, filesOf, planApiSuite, type Load } from './plan-api.js';

// End to end on the real CMS QHP Landscape files 2014–2017 (ID, NM, NV, OR, HI): plan search, the SLCSP
// benchmark, the tax credit and the eligibility estimate, each expected value computed here from the CSV
// files themselves (csv-parse, a test-only oracle that shares no code with the ingest or the pricing).
// The landscape files publish premiums at ages 21, 27, 30, 40, 50, 60 and for a child (the 0–20 band)
// and family tiers; the service quotes a published age as published and derives other ages from the
// federal 2014–2017 age curve (src/plans/market/county-market.ts). Premiums are historical facts of
// their plan year, labelled by year below.

const LANDSCAPE = 'premiums/qhp_landscape_2014_2017';
const FILES = {
  ID2014: '2014_QHP_Landscape_ID_Individual_Market_Medical.csv',
  NM2014: '2014_QHP_Landscape_NM_Individual_Market_Medical.csv',
  NM2015: '2015_QHP_Landscape_NM_Individual_Market_Medical.csv',
  NV2015: '2015_QHP_Landscape_NV_Individual_Market_Medical.csv',
  OR2015: '2015_QHP_Landscape_OR_Individual_Market_Medical.csv',
  HI2016: '2016_QHP_Landscape_HI_Individual_Market_Medical.csv',
  NM2016: '2016_QHP_Landscape_NM_Individual_Market_Medical.csv',
  NV2016: '2016_QHP_Landscape_NV_Individual_Market_Medical.csv',
  OR2016: '2016_QHP_Landscape_OR_Individual_Market_Medical.csv',
  ID2017: '2017_QHP_Landscape_ID_Individual_Market_Medical.csv',
} as const;
type FileKey = keyof typeof FILES;

const landscapeLoads: Load[] = Object.values(FILES).map((file) => ({
  kind: 'landscape',
  files: [`${LANDSCAPE}/${file}`],
}));
// The 2014 rating-area tables: Idaho's 3-digit-ZIP areas decide a county the 2017 landscape lists in two
// areas (src/plans/store/rating-areas.ts), and in 2014 they are the year's own table, which places some
// ZIPs outside the one area the 2014 file gives their county.
const loads = [REAL.counties, REAL.zipCounty, REAL.medicaid, REAL.ratingAreas2014, ...landscapeLoads];
const skip = skipWithoutSharedData(...filesOf(...loads));

// ---------------------------------------------------------------------------------------------------
// The oracle: the landscape CSV as published, read without any of the service's code.

type Cells = Record<string, string>;

/** "Premium Adult Individual Age 30 " / "premium_adult_individual_age_30" → "premium adult individual age 30". */
const normalise = (header: string) =>
  header
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

const parsed = new Map<FileKey, Cells[]>();

function rowsOf(key: FileKey): Cells[] {
  let rows = parsed.get(key);
  if (!rows) {
    rows = parse(readFileSync(sharedData(`${LANDSCAPE}/${FILES[key]}`), 'utf8'), {
      bom: true,
      columns: (header: string[]) => header.map(normalise),
      skip_empty_lines: true,
    }) as Cells[];
    parsed.set(key, rows);
  }
  return rows;
}

/** "$1,092.86", "301.7", "245" → integer cents (the files write dollars, with or without cents). */
function cents(text: string | undefined): number {
  const match = /^\$?\s*([\d,]+)(?:\.(\d{1,2}))?$/.exec((text ?? '').trim());
  assert.ok(match, `"${text}" is not an amount`);
  return Number(match[1]!.replace(/,/g, '')) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

/** The EHB share in millionths: "97.4%" (2016), "0.9302" (2017); empty or absent (2014–2015) → whole premium. */
function ehbMillionths(row: Cells): number {
  const text = (row['ehb percent of total premium'] ?? '').trim();
  if (text === '') return 1_000_000;
  return text.endsWith('%')
    ? Math.round(Number(text.slice(0, -1)) * 10_000)
    : Math.round(Number(text) * 1_000_000);
}

/** Half up (every amount here is positive), in exact integers. */
const shareOf = (amount: number, millionths: number) =>
  Math.floor((amount * millionths + 500_000) / 1_000_000);

interface FilePlan {
  id: string;
  metal: string;
  area: number;
  ehb: number;
  row: Cells;
}

/** The file's rows of one county (2014–2016 by name, 2017 by FIPS), optionally of one rating area. */
function countyPlans(key: FileKey, county: { name?: string; fips?: string }, area?: number): FilePlan[] {
  const found = rowsOf(key)
    .filter((row) =>
      county.fips
        ? row['fips county code'] === county.fips
        : (row['county name'] ?? row.county ?? '').toLowerCase() === county.name!.toLowerCase(),
    )
    .map((row) => ({
      id: row['plan id standard component']!,
      metal: row['metal level']!,
      area: Number(/(\d+)$/.exec(row['rating area']!)![1]),
      ehb: ehbMillionths(row),
      row,
    }))
    .filter((plan) => area === undefined || plan.area === area);
  assert.ok(found.length > 0, `${key}: no rows for ${JSON.stringify(county)}`);
  return found;
}

const P40 = 'premium adult individual age 40';
const P21 = 'premium adult individual age 21';
const CHILD = 'premium child';
const COUPLE40 = 'premium couple 40';
const COUPLE3KIDS40 = 'couple 3 or more children age 40';

/**
 * The expected monthly contribution in cents, unrounded: income × applicable percentage / 12
 * (26 U.S.C. 36B(b)(2)(B)); the percentage in hundredths of a percent (8.18 % → 818).
 */
const contribution = (incomeDollars: number, hundredths: number) =>
  (incomeDollars * 100 * hundredths) / 120_000;

/** Second-lowest distinct amount (the benchmark rule), or the only one. */
function secondLowest(amounts: number[]): number {
  const distinct = [...new Set(amounts)].sort((a, b) => a - b);
  return distinct[1] ?? distinct[0]!;
}

/** The file's SLCSP for a household whose file premium (cents) is `premium(plan)`: EHB portions ranked. */
function fileSlcsp(plans: FilePlan[], premium: (plan: FilePlan) => number): number {
  return secondLowest(plans.filter((p) => p.metal === 'Silver').map((p) => shareOf(premium(p), p.ehb)));
}

/** 2014–2017 federal default age curve (CMS 2013 guidance; 45 CFR 147.102(e)): thousandths of age 21. */
const FACTOR: Readonly<Record<number, number>> = {
  0: 635, // the 0–20 band
  21: 1000,
  27: 1048,
  30: 1135,
  40: 1278,
  45: 1444,
  50: 1786,
  60: 2714,
  64: 3000,
};
const PUBLISHED_AGES: [column: string, age: number][] = [
  [CHILD, 0],
  [P21, 21],
  ['premium adult individual age 27', 27],
  ['premium adult individual age 30', 30],
  [P40, 40],
  ['premium adult individual age 50', 50],
  ['premium adult individual age 60', 60],
];

// ---------------------------------------------------------------------------------------------------
// The service.

interface Priced {
  id: string;
  name: string;
  metal_level: string;
  premium: number | null;
  premium_w_credit: number | null;
  ehb_premium: number | null;
  aptc_eligible_premium: number | null;
  premium_unavailable?: string;
  rate_source: string;
}
interface Search {
  plans: Priced[];
  total: number;
  rate_area: { state: string; area: number };
  ranges: { premiums: { min: number; max: number } };
}
interface Place {
  countyfips: string;
  state: string;
  zipcode: string;
}
interface Person {
  age: number;
  aptc_eligible: boolean;
  gender: 'Female' | 'Male';
  uses_tobacco: boolean;
  last_tobacco_use_date?: string;
  relationship?: string;
  current_enrollment?: { plan_id: string; uses_tobacco?: boolean };
}

/** A member as these requests state one: the required fields, a non-smoking woman eligible for the credit. */
const person = (age: number, more: Partial<Person> = {}): Person => ({
  age,
  aptc_eligible: true,
  gender: 'Female',
  uses_tobacco: false,
  ...more,
});

const CLARK_NV: Place = { countyfips: '32003', state: 'NV', zipcode: '89101' };
const HONOLULU_HI: Place = { countyfips: '15003', state: 'HI', zipcode: '96813' };
const BERNALILLO_NM: Place = { countyfips: '35001', state: 'NM', zipcode: '87102' };
const ADA_ID: Place = { countyfips: '16001', state: 'ID', zipcode: '83702' };
const DONA_ANA_NM: Place = { countyfips: '35013', state: 'NM', zipcode: '88001' };
const MULTNOMAH_OR: Place = { countyfips: '41051', state: 'OR', zipcode: '97201' };

const dollars = (amount: number) => amount / 100;
const adult40: Person[] = [person(40)];

describe('priced plan endpoints on the real QHP Landscape files 2014–2017', { skip }, () => {
  const api = planApiSuite(loads);

  async function call(path: string, body: unknown): Promise<Response> {
    const url = new URL(`/api/v1${path}`, api.running.url);
    url.searchParams.set('apikey', SANDBOX_KEY);
    return fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  async function post<T>(path: string, body: unknown): Promise<T> {
    const response = await call(path, body);
    const text = await response.text();
    assert.equal(response.status, 200, `${path}: ${text}`);
    return JSON.parse(text) as T;
  }

  /** Every plan of a search (pages of 100), with the answer's total and rate area. */
  async function search(year: number, place: Place, people: Person[], income?: number): Promise<Search> {
    const plans: Priced[] = [];
    let first: Search | undefined;
    for (let offset = 0; ; offset += 100) {
      const page = await post<Search>('/plans/search', {
        year,
        place,
        market: 'Individual',
        household: { people, income: income ?? -1 },
        limit: 100,
        offset,
      });
      first ??= page;
      plans.push(...page.plans);
      if (page.plans.length < 100) break;
    }
    assert.equal(plans.length, first.total, 'the pages add up to the total');
    return { ...first, plans };
  }

  const byId = (plans: Priced[]) => new Map(plans.map((p) => [p.id, p]));

  describe('Clark County NV (32003), plan year 2016', () => {
    const file = () => countyPlans('NV2016', { name: 'Clark' });

    test("a 40-year-old: every plan's premium is the file's age-40 column; total = the county's non-catastrophic plans", async () => {
      const answer = await search(2016, CLARK_NV, adult40);
      const expected = file().filter((p) => p.metal !== 'Catastrophic');
      assert.equal(answer.total, expected.length);
      assert.equal(answer.total, 51); // 54 rows, 3 of them catastrophic (hidden from a 40-year-old)
      assert.deepEqual(answer.rate_area, { state: 'NV', area: 1 });
      const got = byId(answer.plans);
      assert.deepEqual(new Set(got.keys()), new Set(expected.map((p) => p.id)));
      for (const plan of expected) {
        const priced = got.get(plan.id)!;
        const premium = cents(plan.row[P40]);
        assert.equal(priced.premium, dollars(premium), plan.id);
        // No income: no credit, so nothing comes off.
        assert.equal(priced.premium_w_credit, dollars(premium), plan.id);
        assert.equal(priced.ehb_premium, dollars(shareOf(premium, plan.ehb)), plan.id);
        assert.equal(priced.rate_source, 'landscape');
        assert.equal(priced.premium_unavailable, undefined);
      }
      // Sorted by premium, cheapest first (the default sort).
      const premiums = answer.plans.map((p) => p.premium!);
      assert.deepEqual(
        premiums,
        [...premiums].sort((a, b) => a - b),
      );
      // `ranges` over every plan: $212.24 (16698NV0450017, Bronze) to $401.09 (33670NV1050015, Gold).
      const all = expected.map((p) => cents(p.row[P40]));
      assert.deepEqual(answer.ranges.premiums, {
        min: dollars(Math.min(...all)),
        max: dollars(Math.max(...all)),
      });
      assert.deepEqual(answer.ranges.premiums, { min: 212.24, max: 401.09 });
    });

    test('the SLCSP of a 40-year-old: the second-lowest distinct silver age-40 premium × EHB share', async () => {
      const expected = fileSlcsp(file(), (p) => cents(p.row[P40]));
      assert.equal(expected, 26091); // 95865NV0030014, $260.91 at 100 % EHB
      const slcsp = await post<Record<string, unknown>>('/households/slcsp', {
        year: 2016,
        place: CLARK_NV,
        household: { income: -1, people: adult40 },
      });
      assert.deepEqual(slcsp, {
        id: '95865NV0030014',
        name: file().find((p) => p.id === '95865NV0030014')!.row['plan marketing name'],
        premium: dollars(expected),
        metal_level: 'Silver',
      });
    });

    test('APTC at 250 % FPL (2015 guidelines, 2016 table: 8.18 %) and each plan’s premium after credit', async () => {
      // 2.5 × $11,770 (2015 poverty guideline, one person) = $29,425: exactly the 250 % band edge.
      const income = 29_425;
      const slcsp = fileSlcsp(file(), (p) => cents(p.row[P40]));
      const contributionExact = contribution(income, 818);
      const aptc = slcsp - Math.round(contributionExact); // the credit a search applies, in cents
      assert.equal(aptc, 26091 - 20058);
      const answer = await search(2016, CLARK_NV, adult40, income);
      const got = byId(answer.plans);
      for (const plan of file().filter((p) => p.metal !== 'Catastrophic')) {
        const premium = cents(plan.row[P40]);
        const eligible = shareOf(premium, plan.ehb);
        const priced = got.get(plan.id)!;
        assert.equal(priced.aptc_eligible_premium, dollars(eligible), plan.id);
        assert.equal(
          priced.premium_w_credit,
          dollars(Math.max(0, premium - Math.min(aptc, eligible))),
          plan.id,
        );
      }
      // The estimate keeps the credit unrounded (the CMS service does): SLCSP − income × 8.18 % / 12.
      const { estimates } = await post<{ estimates: Record<string, unknown>[] }>(
        '/households/eligibility/estimates',
        { year: 2016, place: CLARK_NV, household: { income, people: adult40 } },
      );
      assert.equal(estimates.length, 1);
      assert.ok(
        Math.abs((estimates[0]!.aptc as number) - (slcsp - contributionExact) / 100) < 1e-9,
        JSON.stringify(estimates),
      );
      assert.deepEqual(
        { ...estimates[0], aptc: 0 },
        {
          aptc: 0,
          csr: '73% AV Level Silver Plan CSR',
          is_medicaid_chip: false,
          in_coverage_gap: false,
          hardship_exemption: false,
        },
      );
    });

    test('a child (the 0–20 band) pays the file’s "Premium Child"; catastrophic plans are shown to under-30s', async () => {
      for (const age of [0, 10, 20]) {
        const answer = await search(2016, CLARK_NV, [person(age)]);
        const expected = file();
        assert.equal(answer.total, expected.length, `age ${age}`);
        const got = byId(answer.plans);
        for (const plan of expected) {
          assert.equal(got.get(plan.id)!.premium, dollars(cents(plan.row[CHILD])), `${plan.id} age ${age}`);
        }
      }
    });

    test('a couple of 40-year-olds: 2 × age 40, which is the file’s "Premium Couple 40"', async () => {
      const answer = await search(2016, CLARK_NV, [person(40), person(40, { relationship: 'Spouse' })]);
      const got = byId(answer.plans);
      for (const plan of file().filter((p) => p.metal !== 'Catastrophic')) {
        const couple = cents(plan.row[COUPLE40]);
        assert.equal(couple, 2 * cents(plan.row[P40]), `${plan.id}: the file's couple column`);
        assert.equal(got.get(plan.id)!.premium, dollars(couple), plan.id);
      }
    });

    test('four children under 21 cost what the three oldest cost: the file’s "Couple+3 or more children, age 40"', async () => {
      const parents: Person[] = [person(40), person(40, { relationship: 'Spouse' })];
      const kids = [19, 16, 12, 3].map((age) => person(age, { relationship: 'Child' }));
      const four = byId((await search(2016, CLARK_NV, [...parents, ...kids])).plans);
      const three = byId((await search(2016, CLARK_NV, [...parents, ...kids.slice(0, 3)])).plans);
      for (const plan of file().filter((p) => p.metal !== 'Catastrophic')) {
        const column = cents(plan.row[COUPLE3KIDS40]);
        // The file's tier is the sum of its members' rates, children capped at three (45 CFR 147.102(c)(1)).
        assert.equal(column, 2 * cents(plan.row[P40]) + 3 * cents(plan.row[CHILD]), plan.id);
        assert.equal(four.get(plan.id)!.premium, dollars(column), plan.id);
        assert.equal(three.get(plan.id)!.premium, dollars(column), plan.id);
      }
    });

    test('a tobacco user: no premium (the files publish non-tobacco premiums only), and the benchmark ignores tobacco', async () => {
      const smoker: Person[] = [{ age: 40, uses_tobacco: true, aptc_eligible: true, gender: 'Female' }];
      const answer = await search(2016, CLARK_NV, smoker);
      assert.equal(answer.total, 51);
      for (const plan of answer.plans) {
        assert.equal(plan.premium, null, plan.id);
        assert.equal(plan.premium_w_credit, null, plan.id);
        assert.match(
          plan.premium_unavailable ?? '',
          /household\.people\[0\] is rated as a tobacco user .*non-tobacco premiums only/,
        );
      }
      // The SLCSP is of non-tobacco premiums (26 CFR 1.36B-3(f)): the same as for a non-user.
      const slcsp = await post<{ premium: number }>('/households/slcsp', {
        year: 2016,
        place: CLARK_NV,
        household: { income: -1, people: smoker },
      });
      assert.equal(slcsp.premium, 260.91);
      // The lowest-cost bronze premium is the premium the smoker pays: none is known.
      const lcbp = await call('/households/lcbp', {
        year: 2016,
        place: CLARK_NV,
        household: { income: -1, people: smoker },
      });
      await assertPlanError(lcbp, {
        code: '1016',
        status: '404',
        message: 'not enough plans to calculate SLCSP/LCBP',
        error: 'no bronze plan with rates for the household in county 32003 (rating area 1) in 2016',
      });
    });

    test('tobacco look-back: use 12 months before the effective date is not use; an enrolment keeps its status', async () => {
      // No Business Rules PUF loaded: the federal 6-month look-back (45 CFR 144.103).
      const former = await search(2016, CLARK_NV, [
        {
          age: 40,
          uses_tobacco: true,
          last_tobacco_use_date: '2015-01-01',
          aptc_eligible: true,
          gender: 'Female',
        },
      ]);
      const recent = await search(2016, CLARK_NV, [
        {
          age: 40,
          uses_tobacco: true,
          last_tobacco_use_date: '2015-10-01',
          aptc_eligible: true,
          gender: 'Female',
        },
      ]);
      const plan = file().find((p) => p.id === '95865NV0030014')!;
      assert.equal(byId(former.plans).get(plan.id)!.premium, dollars(cents(plan.row[P40])));
      assert.equal(byId(recent.plans).get(plan.id)!.premium, null);
      // The plan a smoker is enrolled in as a non-user is priced so; the others are not.
      const answer = await post<{ plans: Priced[] }>('/plans', {
        year: 2016,
        place: CLARK_NV,
        market: 'Individual',
        household: {
          income: -1,
          people: [
            {
              age: 40,
              uses_tobacco: true,
              current_enrollment: { plan_id: plan.id, uses_tobacco: false },
              aptc_eligible: true,
              gender: 'Female',
            },
          ],
        },
        plan_ids: [plan.id, '95865NV0030047', '99999NV9999999'],
      });
      assert.deepEqual(
        answer.plans.map((p) => [p.id, p.premium]),
        [
          [plan.id, dollars(cents(plan.row[P40]))],
          ['95865NV0030047', null],
        ],
      );
    });

    test('derived ages follow the curve from the published columns (45, 64+, and the 0–20 band)', async () => {
      const plans = file().filter((p) => p.metal !== 'Catastrophic');
      const at = async (age: number) => byId((await search(2016, CLARK_NV, [person(age)])).plans);
      const [age45, age64, age70, age18] = await Promise.all([at(45), at(64), at(70), at(18)]);
      for (const plan of plans) {
        const p21 = cents(plan.row[P21]);
        // 18 is in the published 0–20 band: the child column itself.
        assert.equal(age18.get(plan.id)!.premium, dollars(cents(plan.row[CHILD])), plan.id);
        // Hand arithmetic: the age-21 premium × 1.444 (45) and × 3.000 (64 and over), rounded to the cent.
        // The service derives from the base all seven published columns share; that is the published
        // age-21 premium except in Prominence HealthFirst's rows (16698, landscape-exceptions.ts), whose
        // age-21 figure is a cent above it: one cent × 1.444 or × 3 away.
        const hand45 = Math.round((p21 * FACTOR[45]!) / 1000);
        const hand64 = Math.round((p21 * FACTOR[64]!) / 1000);
        const [got45, got64] = [age45, age64].map((m) => Math.round(m.get(plan.id)!.premium! * 100));
        if (plan.id.startsWith('16698')) {
          assert.ok(Math.abs(got45! - hand45) <= 2 && Math.abs(got64! - hand64) <= 3, `${plan.id}`);
        } else {
          assert.deepEqual([got45, got64], [hand45, hand64], plan.id);
        }
        assert.equal(age70.get(plan.id)!.premium, age64.get(plan.id)!.premium, `${plan.id}: 64 and over`);
        // And consistent with every published column (see `baseBounds`).
        const derived = Math.round(age45.get(plan.id)!.premium! * 100);
        assert.ok(withinCurve(derived, plan.row, 45, 1), `${plan.id} 45: ${derived}`);
      }
      // One row by hand: 95865NV0030014 (Silver) publishes $204.16 at 21: 204.16 × 1.444 = 294.80704.
      const row = plans.find((p) => p.id === '95865NV0030014')!;
      assert.equal(row.row[P21], '$204.16');
      assert.equal(age45.get('95865NV0030014')!.premium, 294.81);
      assert.equal(age64.get('95865NV0030014')!.premium, 612.48);
    });

    test('plan search stats: one entry per metal level, counts as the file lists them', async () => {
      const stats = await post<{ metal_level: string; total: number; premiums: { min: number } }[]>(
        '/plans/search/stats',
        { year: 2016, place: CLARK_NV, market: 'Individual', household: { income: -1, people: adult40 } },
      );
      const counts: Record<string, number> = {};
      for (const plan of file().filter((p) => p.metal !== 'Catastrophic')) {
        counts[plan.metal] = (counts[plan.metal] ?? 0) + 1;
      }
      assert.deepEqual(Object.fromEntries(stats.map((s) => [s.metal_level, s.total])), counts);
    });
  });

  /**
   * The interval of base (age-21) rates, in cents, that every published column of a row allows: a column P
   * at factor f is within one filing step (a cent, or a dollar for a whole-dollar filing) of B × f, so
   * B ∈ [(P − step)/f, (P + step)/f]. One step, not half of one: issuers rounded in more than one place
   * (e.g. 2015 OR 63474OR0090001 publishes $223.13 at 30 and $351.09 at 50, which no single base rounds
   * to both). Where even that leaves nothing — the documented exception class, an issuer's age-21 figure
   * a step off the base of its other columns (landscape-exceptions.ts) — the age-21 column is left out.
   */
  function baseBounds(row: Cells, step: number): [number, number] {
    const bounds = (columns: [string, number][]) => {
      let low = -Infinity;
      let high = Infinity;
      for (const [column, age] of columns) {
        const premium = cents(row[column]);
        const factor = FACTOR[age]! / 1000;
        low = Math.max(low, (premium - step) / factor);
        high = Math.min(high, (premium + step) / factor);
      }
      return [low, high] as [number, number];
    };
    const all = bounds(PUBLISHED_AGES);
    if (all[0] <= all[1]) return all;
    const without21 = bounds(PUBLISHED_AGES.filter(([, age]) => age !== 21));
    assert.ok(without21[0] <= without21[1], `no base fits ${row['plan id standard component']}`);
    return without21;
  }

  /**
   * Whether a derived premium (cents) is B × factor for a B the published columns allow, after the
   * service's two roundings: its base to the filing step (half a step), the product to the cent.
   */
  function withinCurve(derived: number, row: Cells, age: number, step: number): boolean {
    const [low, high] = baseBounds(row, step);
    const factor = FACTOR[age]! / 1000;
    return (
      derived >= Math.floor((low - step / 2) * factor) && derived <= Math.ceil((high + step / 2) * factor)
    );
  }

  describe('Honolulu County HI (15003), plan year 2016: EHB shares below 100 %', () => {
    const file = () => countyPlans('HI2016', { name: 'Honolulu' });

    test('the SLCSP is the second-lowest distinct EHB premium, not the second-lowest premium', async () => {
      const silver = file().filter((p) => p.metal === 'Silver');
      assert.ok(
        silver.some((p) => p.ehb < 1_000_000),
        'the file has EHB shares below 100 %',
      );
      const expected = fileSlcsp(file(), (p) => cents(p.row[P40]));
      const slcsp = await post<{ id: string; premium: number }>('/households/slcsp', {
        year: 2016,
        place: HONOLULU_HI,
        household: { income: -1, people: adult40 },
      });
      assert.equal(slcsp.premium, dollars(expected));
      const plan = silver.find((p) => p.id === slcsp.id)!;
      assert.equal(shareOf(cents(plan.row[P40]), plan.ehb), expected);
    });

    test('a couple at 300 % FPL (Hawaii guidelines, 9.66 %): credit = couple SLCSP − contribution', async () => {
      // 2015 Hawaii poverty guideline for two: $13,550 + $4,780 = $18,330; 300 % = $54,990 (9.66 %).
      const income = 54_990;
      const couple: Person[] = [person(60), person(60, { relationship: 'Spouse' })];
      const slcsp = fileSlcsp(file(), (p) => 2 * cents(p.row['premium adult individual age 60']));
      const contributionExact = contribution(income, 966);
      assert.ok(slcsp > contributionExact, 'a credit is due');
      const { estimates } = await post<{ estimates: { aptc: number; csr: string }[] }>(
        '/households/eligibility/estimates',
        { year: 2016, place: HONOLULU_HI, household: { income, people: couple } },
      );
      for (const estimate of estimates) {
        assert.ok(
          Math.abs(estimate.aptc - (slcsp - contributionExact) / 100) < 1e-9,
          JSON.stringify(estimate),
        );
        assert.equal(estimate.csr, 'Exchange variant (no CSR)');
      }
      const aptc = slcsp - Math.round(contributionExact);
      const answer = await search(2016, HONOLULU_HI, couple, income);
      const got = byId(answer.plans);
      assert.equal(answer.total, file().filter((p) => p.metal !== 'Catastrophic').length);
      for (const plan of file().filter((p) => p.metal !== 'Catastrophic')) {
        const premium = 2 * cents(plan.row['premium adult individual age 60']);
        assert.equal(cents(plan.row['premium couple 60']), premium, `${plan.id}: the file's couple column`);
        const eligible = shareOf(premium, plan.ehb);
        const priced = got.get(plan.id)!;
        assert.equal(priced.premium, dollars(premium), plan.id);
        assert.equal(priced.ehb_premium, dollars(eligible), plan.id);
        assert.equal(
          priced.premium_w_credit,
          dollars(Math.max(0, premium - Math.min(aptc, eligible))),
          plan.id,
        );
      }
    });
  });

  describe('Bernalillo County NM (35001), plan year 2016 (a Medicaid expansion state)', () => {
    const file = () => countyPlans('NM2016', { name: 'Bernalillo' });
    const slcsp40 = () => fileSlcsp(file(), (p) => cents(p.row[P40]));

    test('an adult at 120 % FPL is Medicaid-eligible (adult limit 138 %): no credit, no CSR', async () => {
      // Medicaid uses the current (2016) guidelines: 1.2 × $11,880 = $14,256.
      const { estimates } = await post<{ estimates: Record<string, unknown>[] }>(
        '/households/eligibility/estimates',
        { year: 2016, place: BERNALILLO_NM, household: { income: 14_256, people: adult40 } },
      );
      assert.deepEqual(estimates, [
        {
          aptc: 0,
          csr: 'Exchange variant (no CSR)',
          is_medicaid_chip: true,
          in_coverage_gap: false,
          hardship_exemption: false,
        },
      ]);
    });

    test('an adult at 200 % FPL: credit = SLCSP − income × 6.41 % / 12, CSR 87 %', async () => {
      // 2 × $11,770 (2015 guideline) = $23,540: the 200 % band edge, 6.41 % (Rev. Proc. 2015-35);
      // 198 % of the 2016 guideline for Medicaid, above the 138 % limit.
      const income = 23_540;
      const contributionExact = contribution(income, 641);
      const { estimates } = await post<{ estimates: Record<string, unknown>[] }>(
        '/households/eligibility/estimates',
        { year: 2016, place: BERNALILLO_NM, household: { income, people: adult40 } },
      );
      const aptc = estimates[0]!.aptc as number;
      assert.ok(aptc > 0);
      assert.ok(Math.abs(aptc - (slcsp40() - contributionExact) / 100) < 1e-9, `${aptc}`);
      assert.deepEqual(
        { ...estimates[0], aptc: 0 },
        {
          aptc: 0,
          csr: '87% AV Level Silver Plan CSR',
          is_medicaid_chip: false,
          in_coverage_gap: false,
          hardship_exemption: false,
        },
      );
    });

    test('parents at 200 % FPL whose children qualify for Medicaid: the credit is for the parents only', async () => {
      // Four people: 2 × ($11,770 + 3 × $4,160) = $48,500, 200 % of the 2015 guideline (6.41 %); for
      // Medicaid 199.6 % of the 2016 one ($24,300): children 6–18 qualify up to 245 % in NM, adults to 138 %.
      const income = 48_500;
      const family: Person[] = [
        person(40),
        person(40, { relationship: 'Spouse' }),
        person(12, { relationship: 'Child' }),
        person(8, { relationship: 'Child' }),
      ];
      const plans = file();
      const parents = (p: FilePlan) => 2 * cents(p.row[P40]);
      const slcsp = fileSlcsp(plans, parents);
      const contributionExact = contribution(income, 641);
      assert.ok(slcsp > contributionExact);
      const { estimates } = await post<{ estimates: Record<string, unknown>[] }>(
        '/households/eligibility/estimates',
        { year: 2016, place: BERNALILLO_NM, household: { income, people: family } },
      );
      const aptcExact = (slcsp - contributionExact) / 100;
      assert.deepEqual(
        estimates.map((e) => [e.is_medicaid_chip, e.csr]),
        [
          [false, '87% AV Level Silver Plan CSR'],
          [false, '87% AV Level Silver Plan CSR'],
          [true, 'Exchange variant (no CSR)'],
          [true, 'Exchange variant (no CSR)'],
        ],
      );
      assert.ok(Math.abs((estimates[0]!.aptc as number) - aptcExact) < 1e-9);
      assert.equal(estimates[2]!.aptc, 0);
      // Each plan: the family's premium; the credit is capped by the parents' EHB premium.
      const aptc = slcsp - Math.round(contributionExact);
      const got = byId((await search(2016, BERNALILLO_NM, family, income)).plans);
      for (const plan of plans.filter((p) => p.metal !== 'Catastrophic')) {
        const premium = parents(plan) + 2 * cents(plan.row[CHILD]);
        assert.equal(cents(plan.row['couple 2 children age 40']), premium, `${plan.id}: the file's tier`);
        const eligible = shareOf(parents(plan), plan.ehb);
        const priced = got.get(plan.id)!;
        assert.equal(priced.premium, dollars(premium), plan.id);
        assert.equal(priced.aptc_eligible_premium, dollars(eligible), plan.id);
        assert.equal(priced.premium_w_credit, dollars(premium - Math.min(aptc, eligible)), plan.id);
      }
    });

    test('/households/slcsp, /lcsp and /lcbp for a 40-year-old, from the file', async () => {
      const plans = file();
      const body = { year: 2016, place: BERNALILLO_NM, household: { income: -1, people: adult40 } };
      const lowest = (metal: string) =>
        Math.min(...plans.filter((p) => p.metal === metal).map((p) => cents(p.row[P40])));
      const slcsp = await post<{ premium: number; metal_level: string }>('/households/slcsp', body);
      assert.equal(slcsp.premium, dollars(slcsp40()));
      const lcsp = await post<{ id: string; premium: number }>('/households/lcsp', body);
      assert.equal(lcsp.premium, dollars(lowest('Silver')));
      const lcbp = await post<{ id: string; premium: number; metal_level: string }>('/households/lcbp', body);
      assert.equal(lcbp.premium, dollars(lowest('Bronze')));
      assert.equal(lcbp.metal_level, 'Bronze');
      assert.equal(
        cents(plans.find((p) => p.id === lcbp.id)!.row[P40]),
        lowest('Bronze'),
        'the plan named is the one with that premium',
      );
    });

    test('POST /plans/{plan_id}: the benchmark plan priced for a household at 200 % FPL', async () => {
      const income = 23_540;
      const benchmark = await post<{ id: string }>('/households/slcsp', {
        year: 2016,
        place: BERNALILLO_NM,
        household: { income: -1, people: adult40 },
      });
      const answer = await post<{ plan: Priced & Record<string, unknown>; rate_area: unknown }>(
        `/plans/${benchmark.id}`,
        { year: 2016, place: BERNALILLO_NM, market: 'Individual', household: { income, people: adult40 } },
      );
      const plan = file().find((p) => p.id === benchmark.id)!;
      const premium = cents(plan.row[P40]);
      const aptc = slcsp40() - Math.round(contribution(income, 641));
      assert.equal(answer.plan.id, benchmark.id);
      assert.equal(answer.plan.metal_level, 'Silver');
      assert.equal(answer.plan.premium, dollars(premium));
      // The benchmark plan itself: its EHB premium is the SLCSP, so the credit leaves the contribution.
      assert.equal(
        answer.plan.premium_w_credit,
        dollars(premium - Math.min(aptc, shareOf(premium, plan.ehb))),
      );
      assert.equal(answer.plan.rate_source, 'landscape');
      assert.deepEqual(answer.rate_area, { state: 'NM', area: 1 });
      // A plan of another county's area only: 1006.
      const elsewhere = await call(`/plans/${benchmark.id}`, {
        year: 2016,
        place: { countyfips: '32003', state: 'NV', zipcode: '89101' },
        market: 'Individual',
        household: { income: -1, people: adult40 },
      });
      assert.equal(elsewhere.status, 404);
      assert.equal(((await elsewhere.json()) as { code: string }).code, '1006');
    });

    test('/households/ichra: affordable when LCSP − HRA ≤ 9.66 % × income / 12 (2016)', async () => {
      const lcsp = Math.min(
        ...file()
          .filter((p) => p.metal === 'Silver')
          .map((p) => cents(p.row[P40])),
      );
      const income = 40_000; // $322.00 a month at 9.66 %
      const body = (hra: number) => ({
        year: 2016,
        place: BERNALILLO_NM,
        household: { income, people: adult40 },
        hra,
      });
      const limit = 32_200;
      const justEnough = Math.max(0, (lcsp - limit) / 100);
      assert.deepEqual(await post('/households/ichra', body(justEnough)), {
        affordable: true,
        premium: dollars(lcsp),
      });
      if (lcsp - limit - 1 >= 0) {
        assert.deepEqual(await post('/households/ichra', body((lcsp - limit - 1) / 100)), {
          affordable: false,
          premium: dollars(lcsp),
        });
      }
    });
  });

  describe('Ada County ID (16001), plan year 2014: county names in capitals, no EHB column', () => {
    const file = () => countyPlans('ID2014', { name: 'ADA' });

    test('every plan at age 40 as the file publishes it; EHB premium = the whole premium', async () => {
      const answer = await search(2014, ADA_ID, adult40);
      const expected = file().filter((p) => p.metal !== 'Catastrophic');
      assert.equal(answer.total, expected.length);
      assert.deepEqual(answer.rate_area, { state: 'ID', area: 6 });
      const got = byId(answer.plans);
      for (const plan of expected) {
        const premium = cents(plan.row[P40]);
        assert.equal(got.get(plan.id)!.premium, dollars(premium), plan.id);
        assert.equal(got.get(plan.id)!.ehb_premium, dollars(premium), plan.id);
      }
    });

    test('four children: the sum of the members’ published premiums; the 2014 tier column rounds once', async () => {
      const parents: Person[] = [person(40), person(40, { relationship: 'Spouse' })];
      const kids = [17, 14, 9, 2].map((age) => person(age, { relationship: 'Child' }));
      const got = byId((await search(2014, ADA_ID, [...parents, ...kids])).plans);
      const gaps = new Map<number, number>();
      for (const plan of file().filter((p) => p.metal !== 'Catastrophic')) {
        const sum = 2 * cents(plan.row[P40]) + 3 * cents(plan.row[CHILD]);
        assert.equal(got.get(plan.id)!.premium, dollars(sum), plan.id);
        // The 2014 files computed family tiers from the unrounded child rate and rounded once: e.g.
        // 61589ID1900001 publishes $77.70 per child (122.38 × 0.635 = 77.7113) and $545.95 for
        // couple + 3 children, $312.82 + 3 × $77.7113. The service adds the members' published premiums,
        // as 45 CFR 147.102(c)(1) and the Rate PUF's per-member rows do ($545.92). 2015–2017 tier columns
        // are exactly those sums.
        const gap = cents(plan.row[COUPLE3KIDS40]) - sum;
        gaps.set(gap, (gaps.get(gap) ?? 0) + 1);
        assert.ok(Math.abs(gap) <= 5, `${plan.id}: ${gap}`);
      }
      assert.ok(
        [...gaps.keys()].some((gap) => gap !== 0),
        'the 2014 columns are not the sums',
      );
      // The example above (a catastrophic plan, so not in this search), as the file has it.
      const example = file().find((p) => p.id === '61589ID1900001')!.row;
      assert.deepEqual(
        [example[CHILD], example[COUPLE40], example[COUPLE3KIDS40]],
        ['$77.70', '$312.82', '$545.95'],
      );
    });

    test('SLCSP and APTC at 300 % FPL (2013 guidelines, 2014 statute: 9.5 %) for a 60-year-old', async () => {
      // 3 × $11,490 (2013 guideline) = $34,470 → 9.50 % (26 U.S.C. 36B(b)(3)(A)(i) as enacted).
      const income = 34_470;
      const slcsp = fileSlcsp(file(), (p) => cents(p.row['premium adult individual age 60']));
      const contributionExact = contribution(income, 950);
      const body = {
        year: 2014,
        place: ADA_ID,
        household: {
          income,
          people: [person(60)],
        },
      };
      assert.equal((await post<{ premium: number }>('/households/slcsp', body)).premium, dollars(slcsp));
      const { estimates } = await post<{ estimates: { aptc: number }[] }>(
        '/households/eligibility/estimates',
        body,
      );
      assert.ok(Math.abs(estimates[0]!.aptc - (slcsp - contributionExact) / 100) < 1e-9);
    });
  });

  describe('one county of each of the other files: premiums at 40 and for a child, and the SLCSP', () => {
    for (const { key, year, name, place } of [
      {
        key: 'NM2015',
        year: 2015,
        name: 'Santa Fe',
        place: { countyfips: '35049', state: 'NM', zipcode: '87501' },
      },
      {
        key: 'NV2015',
        year: 2015,
        name: 'Washoe',
        place: { countyfips: '32031', state: 'NV', zipcode: '89501' },
      },
      {
        key: 'OR2016',
        year: 2016,
        name: 'Lane',
        place: { countyfips: '41039', state: 'OR', zipcode: '97401' },
      },
    ] as const) {
      test(`${year} ${place.state}: ${name} County (${place.countyfips})`, async () => {
        const plans = countyPlans(key, { name });
        const adults = plans.filter((p) => p.metal !== 'Catastrophic');
        const [adult, child] = await Promise.all([
          search(year, place, adult40),
          search(year, place, [person(12)]),
        ]);
        assert.equal(adult.total, adults.length);
        assert.equal(child.total, plans.length);
        assert.deepEqual(adult.rate_area, { state: place.state, area: plans[0]!.area });
        const [gotAdult, gotChild] = [byId(adult.plans), byId(child.plans)];
        for (const plan of plans) {
          assert.equal(gotChild.get(plan.id)!.premium, dollars(cents(plan.row[CHILD])), plan.id);
          if (plan.metal !== 'Catastrophic') {
            assert.equal(gotAdult.get(plan.id)!.premium, dollars(cents(plan.row[P40])), plan.id);
          }
        }
        const slcsp = await post<{ premium: number }>('/households/slcsp', {
          year,
          place,
          household: { income: -1, people: adult40 },
        });
        assert.equal(slcsp.premium, dollars(fileSlcsp(plans, (p) => cents(p.row[P40]))));
      });
    }
  });

  describe('Idaho 2014: ZIPs the 2014 ZIP3 table puts outside the one area the file gives their county', () => {
    // The 2014 file lists each county in one rating area, but CMS rated Idaho by 3-digit ZIP in 2014 and
    // the year's table (hrecht, from the CMS GRA page) places some of a county's ZIPs in another area. A
    // plan's premium depends on its rating area, not its county (45 CFR 147.102(a)(1)(ii)), and the file
    // lists one premium set per plan and area (checked here): the plans sold in the county are priced at
    // the rates the file gives them in the ZIP's area (in other counties), or listed without a premium
    // when the file has none for that area.
    const areaRates = (area: number) => {
      const rates = new Map<string, [number, number]>();
      for (const row of rowsOf('ID2014').filter((r) => r['rating area'] === `Rating Area ${area}`)) {
        const id = row['plan id standard component']!;
        const premiums: [number, number] = [cents(row[P40]), cents(row[CHILD])];
        const earlier = rates.get(id);
        if (earlier) assert.deepEqual(premiums, earlier, `${id}: one premium set per plan and area`);
        rates.set(id, premiums);
      }
      return rates;
    };

    for (const { county, name, zipcode, area, own, unrated } of [
      // Melba: the file prices Ada's plans alike in areas 5 and 6.
      { county: '16001', name: 'ADA', zipcode: '83641', area: 5, own: 6, unrated: 0 },
      // Kendrick: area 4 is dearer than Latah's own area 7 for every plan ($330.89 vs $302.89 …).
      { county: '16057', name: 'LATAH', zipcode: '83537', area: 4, own: 7, unrated: 0 },
      // An Idaho Falls ZIP reaching into Bingham: four of Blue Cross of Idaho's plans there (61589ID1780001,
      // 1790001, 1800001, 1810001) have no area-3 row anywhere in the file.
      { county: '16011', name: 'BINGHAM', zipcode: '83402', area: 3, own: 1, unrated: 4 },
    ]) {
      test(`${name} (${county}) ZIP ${zipcode}: area ${area}, not the file's ${own}`, async () => {
        const rates = areaRates(area);
        const plans = countyPlans('ID2014', { name }).filter((p) => p.metal !== 'Catastrophic');
        assert.ok(plans.every((p) => p.area === own));
        const answer = await search(2014, { countyfips: county, state: 'ID', zipcode }, adult40);
        assert.deepEqual(answer.rate_area, { state: 'ID', area });
        assert.equal(answer.total, plans.length);
        assert.equal(plans.filter((p) => !rates.has(p.id)).length, unrated);
        assert.equal(answer.plans.filter((p) => p.premium === null).length, unrated);
        const got = byId(answer.plans);
        for (const plan of plans) {
          const priced = got.get(plan.id)!;
          const rate = rates.get(plan.id);
          if (rate) {
            assert.equal(priced.premium, dollars(rate[0]), plan.id);
          } else {
            assert.equal(priced.premium, null, plan.id);
            assert.equal(priced.premium_unavailable, 'no rates are loaded for this plan in the rating area');
          }
        }
        const child = byId(
          (await search(2014, { countyfips: county, state: 'ID', zipcode }, [person(5)])).plans,
        );
        for (const plan of plans.filter((p) => rates.has(p.id))) {
          assert.equal(child.get(plan.id)!.premium, dollars(rates.get(plan.id)![1]), `${plan.id} child`);
        }
      });
    }
  });

  test('Doña Ana County NM (35013), 2014: the file’s "DONA ANA" resolves to the county', async () => {
    const expected = countyPlans('NM2014', { name: 'DONA ANA' }).filter((p) => p.metal !== 'Catastrophic');
    const answer = await search(2014, DONA_ANA_NM, adult40);
    assert.deepEqual(answer.rate_area, { state: 'NM', area: 3 });
    const got = byId(answer.plans);
    assert.deepEqual(new Set(got.keys()), new Set(expected.map((p) => p.id)));
    for (const plan of expected) assert.equal(got.get(plan.id)!.premium, dollars(cents(plan.row[P40])));
  });

  describe('Multnomah County OR (41051), plan year 2015: an issuer that filed whole dollars', () => {
    const file = () => countyPlans('OR2015', { name: 'Multnomah' });

    test('published ages as published; a derived age within the rounding of whole-dollar columns', async () => {
      const plans = file().filter((p) => p.metal !== 'Catastrophic');
      const whole = plans.filter((p) => PUBLISHED_AGES.every(([c]) => cents(p.row[c]) % 100 === 0));
      assert.ok(whole.length > 0, 'whole-dollar rows');
      const [age40, age45] = await Promise.all([
        search(2015, MULTNOMAH_OR, adult40),
        search(2015, MULTNOMAH_OR, [person(45)]),
      ]);
      assert.equal(age40.total, plans.length);
      const got40 = byId(age40.plans);
      const got45 = byId(age45.plans);
      for (const plan of plans) {
        assert.equal(got40.get(plan.id)!.premium, dollars(cents(plan.row[P40])), plan.id);
        const step = whole.includes(plan) ? 100 : 1;
        const derived = Math.round(got45.get(plan.id)!.premium! * 100);
        assert.ok(withinCurve(derived, plan.row, 45, step), `${plan.id} 45: ${derived} (step ${step})`);
      }
    });
  });

  describe('Idaho 2017: counties the landscape lists in two rating areas, decided by the ZIP', () => {
    test('Latah County (16057): Moscow (838 → area 7) and Kendrick (835 → area 4) get their own area’s premiums', async () => {
      for (const [zipcode, area] of [
        ['83843', 7],
        ['83537', 4],
      ] as const) {
        const expected = countyPlans('ID2017', { fips: '16057' }, area).filter(
          (p) => p.metal !== 'Catastrophic',
        );
        const answer = await search(2017, { countyfips: '16057', state: 'ID', zipcode }, adult40);
        assert.deepEqual(answer.rate_area, { state: 'ID', area }, zipcode);
        assert.equal(answer.total, expected.length, zipcode);
        const got = byId(answer.plans);
        for (const plan of expected) {
          assert.equal(got.get(plan.id)!.premium, dollars(cents(plan.row[P40])), `${zipcode} ${plan.id}`);
        }
      }
      // The two areas really differ in the file (else the test above proves nothing).
      const [four, seven] = [4, 7].map(
        (area) =>
          new Map(countyPlans('ID2017', { fips: '16057' }, area).map((p) => [p.id, cents(p.row[P40])])),
      );
      assert.ok([...four!].some(([id, premium]) => seven!.get(id) !== premium));
    });

    test('Ada County (16001): Boise (837 → 6), Melba (836 → 5); the file prices both areas alike', async () => {
      for (const [zipcode, area] of [
        ['83702', 6],
        ['83641', 5],
      ] as const) {
        const expected = countyPlans('ID2017', { fips: '16001' }, area);
        const answer = await search(2017, { countyfips: '16001', state: 'ID', zipcode }, adult40);
        assert.deepEqual(answer.rate_area, { state: 'ID', area }, zipcode);
        const got = byId(answer.plans);
        for (const plan of expected.filter((p) => p.metal !== 'Catastrophic')) {
          assert.equal(got.get(plan.id)!.premium, dollars(cents(plan.row[P40])));
        }
      }
    });

    test('the 2017 EHB column (bare fractions) enters the SLCSP', async () => {
      const plans = countyPlans('ID2017', { fips: '16057' }, 7);
      const expected = fileSlcsp(plans, (p) => cents(p.row[P40]));
      const slcsp = await post<{ premium: number }>('/households/slcsp', {
        year: 2017,
        place: { countyfips: '16057', state: 'ID', zipcode: '83843' },
        household: { income: -1, people: adult40 },
      });
      assert.equal(slcsp.premium, dollars(expected));
    });
  });
});
