import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import type {
  Enrollee,
  EnrollmentGroup,
  FlattenedGroup,
} from '../../src/plans/enrollment/enrollment-groups.js';
import { postJson } from '../helpers/priced-market.js';
import { sharedData, skipWithoutSharedData } from '../helpers/shared-data.js';
import { REAL, SANDBOX_KEY, assertPlanError, filesOf, planApiSuite } from './plan-api.js';

// POST /api/v1/enrollment/validate over HTTP (docs/decisions.md#enrollment-validate): CMS
// `ExtendedEnrollment` in, `{"suggested_groups": [FlattenedEnrollmentGroup…]}` out, 200 when every group is
// valid, 400 with the same body when one is not, 1003 for a malformed request. The conflicts (county, CSR,
// hardship) need no data; `is_custom` looks for a plan the group may enrol in together among the real 2014
// plans of Ada County, Idaho (QHP Landscape file), under the issuers' real 2014 Business Rules PUF rows:
//
// - 26002 SelectHealth accepts Spouse, Adopted Child, Ward, Stepson or Stepdaughter, Child, up to age 26;
// - 59765 BridgeSpan and 60597 PacificSource add Court Appointed Guardian and Life Partner (60597 has no
//   Ward), up to 25; 61589 Blue Cross of Idaho lists what SelectHealth does, up to 25.
//
// (test/plans/enrollment-rules.test.ts checks these rows against the PUF file itself.) No issuer lists
// "Ex-Spouse". Ada County's landscape rows: 49 plans, 19 of them SelectHealth's (one catastrophic, seven
// silver), 6 catastrophic in all.

const YEAR = 2014;
const LOADS = [
  REAL.counties,
  REAL.zipCounty,
  REAL.ratingAreas2014,
  REAL.landscapeIdaho2014,
  REAL.businessRules2014,
];
const skip = skipWithoutSharedData(...filesOf(...LOADS));

const ADA = { city: 'Boise', state: 'ID', zipcode: '83702', countyfips: '16001' };
const CANYON = { city: 'Nampa', state: 'ID', zipcode: '83651', countyfips: '16027' };
const NO_CSR = 'Exchange variant (no CSR)';
const VALID = 'valid: no address, CSR or hardship conflict';

/** The CMS shapes as the service types them: `ExtendedEnrollee`, an enrollment group, `FlattenedEnrollmentGroup`. */
type Flattened = FlattenedGroup;
type Group = EnrollmentGroup;

const enrollee = (id: string, more: Omit<Enrollee, 'id'> = {}): Enrollee => ({ id, ...more });

/** The flattened group the service should suggest: the defaults the decision names, unless given. */
const flattened = (
  id: string,
  enrollees: Enrollee[],
  grouping_reason: string,
  more: Partial<Flattened> = {},
): Flattened => ({
  id,
  csr: NO_CSR,
  enrollees,
  grouping_reason,
  year: YEAR,
  subscriber_id: enrollees[0]!.id,
  relationships: [],
  effective_date: `${YEAR}-01-01`,
  ...more,
});

/** Ada County's landscape plans (the oracle for how many plans a group may choose from). */
function adaPlans(): { id: string; metal: string }[] {
  const rows = parse(readFileSync(sharedData(REAL.landscapeIdaho2014.files[0]!), 'utf8'), {
    bom: true,
    columns: true,
    skip_empty_lines: true,
  }) as Record<string, string>[];
  return rows
    .filter((r) => r.County === 'ADA')
    .map((r) => ({ id: r['Plan ID - Standard Component']!, metal: r['Metal Level']! }));
}

describe('POST /enrollment/validate', { skip }, () => {
  const api = planApiSuite(LOADS);
  const call = (body: unknown, query = '') =>
    postJson(api.running.url, SANDBOX_KEY, `/enrollment/validate${query}`, body);

  /** The answer, with the status it must have: 200 (every group valid) or 400 (the same body shape). */
  async function validate(body: unknown, status: 200 | 400, query = ''): Promise<Flattened[]> {
    const response = await call(body, query);
    const text = await response.text();
    assert.equal(response.status, status, text);
    const answer = JSON.parse(text) as { suggested_groups: Flattened[] };
    assert.deepEqual(Object.keys(answer), ['suggested_groups']);
    return answer.suggested_groups;
  }

  const invalid = (error: string) => ({
    code: '1003',
    status: '400',
    message: 'invalid enrollment validate request',
    error,
  });

  describe('conflicts within a group', () => {
    test('a valid group: 200, echoed with the defaults (id by position, no CSR, 1 January)', async () => {
      const a = enrollee('A', { effective_age: 40, location: ADA });
      const b = enrollee('B', { effective_age: 38, location: ADA, relationship: 'Spouse' });
      const body = { year: YEAR, enrollees: [a, b], enrollment_groups: [{ enrollees: ['A', 'B'] }] };
      assert.deepEqual(await validate(body, 200), [flattened('1', [a, b], VALID)]);
      // The year may come as ?year= instead; a group's own id, CSR, edges and date are kept.
      const edge = { super_id: 'A', sub_id: 'B', relationship: 'Spouse' };
      const group = {
        id: 'family',
        csr: '87% AV Level Silver Plan CSR',
        enrollees: ['A', 'B'],
        relationships: [edge],
        effective_date: '2014-03-01',
      };
      assert.deepEqual(
        await validate({ enrollees: [a, b], enrollment_groups: [group] }, 200, `?year=${YEAR}`),
        [
          flattened('family', [a, b], VALID, {
            csr: '87% AV Level Silver Plan CSR',
            relationships: [edge],
            effective_date: '2014-03-01',
          }),
        ],
      );
    });

    test('the subscriber comes first: subscriber_id, else the first id listed', async () => {
      const a = enrollee('A', { effective_age: 40 });
      const c = enrollee('C', { effective_age: 10, relationship: 'Child' });
      const body = {
        year: YEAR,
        enrollees: [c, a],
        enrollment_groups: [{ enrollees: ['C', 'A'], subscriber_id: 'A' }],
      };
      assert.deepEqual(await validate(body, 200), [flattened('1', [a, c], VALID)]);
    });

    test('members in different counties are split by county; one without an address goes with the subscriber', async () => {
      const a = enrollee('A', { effective_age: 40, location: ADA });
      const b = enrollee('B', { effective_age: 20, location: CANYON, relationship: 'Child' });
      const c = enrollee('C', { effective_age: 12, relationship: 'Child' });
      const ab = { super_id: 'A', sub_id: 'B', relationship: 'Child' };
      const ac = { super_id: 'A', sub_id: 'C', relationship: 'Child' };
      const body = {
        year: YEAR,
        enrollees: [a, b, c],
        enrollment_groups: [{ id: 'g', enrollees: ['A', 'B', 'C'], relationships: [ab, ac] }],
      };
      // Ada (16001) holds A and C; Canyon (16027) B. The first part keeps the id, the next is "g-2"; each
      // keeps only the edges between its own members.
      const reason =
        'address: the enrollees live in different counties (16001, 16027); plans are sold by county, so ' +
        'each county is a group';
      assert.deepEqual(await validate(body, 400), [
        flattened('g', [a, c], reason, { relationships: [ac] }),
        flattened('g-2', [b], reason),
      ]);
    });

    test('members with different CSRs are split by CSR; the group’s CSR is each member’s default', async () => {
      const a = enrollee('A', { effective_age: 40 });
      const b = enrollee('B', {
        effective_age: 38,
        relationship: 'Spouse',
        csr: '87% AV Level Silver Plan CSR',
      });
      const c = enrollee('C', { effective_age: 12, relationship: 'Child' });
      const body = {
        year: YEAR,
        enrollees: [a, b, c],
        enrollment_groups: [{ enrollees: ['A', 'B', 'C'], csr: '94% AV Level Silver Plan CSR' }],
      };
      // A and C take the group's 94 %; B states 87 %.
      const reason =
        'csr: the enrollees have different cost-sharing reductions (94% AV Level Silver Plan CSR, 87% AV Level ' +
        'Silver Plan CSR); together they would get only the level all share (45 CFR 155.305(g)(3)), so each ' +
        'level is a group';
      assert.deepEqual(await validate(body, 400), [
        flattened('1', [a, c], reason, { csr: '94% AV Level Silver Plan CSR' }),
        flattened('1-2', [b], reason, { csr: '87% AV Level Silver Plan CSR' }),
      ]);
      // B stating the group's level is no conflict.
      const same = { ...b, csr: '94% AV Level Silver Plan CSR' };
      assert.deepEqual(await validate({ ...body, enrollees: [a, same, c] }, 200), [
        flattened('1', [a, same, c], VALID, { csr: '94% AV Level Silver Plan CSR' }),
      ]);
    });

    test('a hardship exemption beside a 40-year-old without one: the exempt member is put apart', async () => {
      const a = enrollee('A', { effective_age: 40 });
      const b = enrollee('B', { effective_age: 45, has_hardship: true, relationship: 'Spouse' });
      const reason =
        'hardship: enrollees with a hardship exemption may buy a catastrophic plan, the others (30 or older ' +
        'without one) may not (45 CFR 156.155(a)), so the exempt ones are a group of their own';
      const group = (ids: string[]) => [{ id: 'h', enrollees: ids }];
      assert.deepEqual(
        await validate({ year: YEAR, enrollees: [a, b], enrollment_groups: group(['A', 'B']) }, 400),
        [flattened('h', [a], reason), flattened('h-2', [b], reason)],
      );
      // Beside someone under 30 there is no conflict: both may buy a catastrophic plan.
      const young = enrollee('Y', { effective_age: 29 });
      assert.deepEqual(
        await validate({ year: YEAR, enrollees: [young, b], enrollment_groups: group(['Y', 'B']) }, 200),
        [flattened('h', [young, b], VALID)],
      );
      // The age from dob is taken on 1 January 2014: born 1984-01-02 is 29 then (no conflict), born
      // 1984-01-01 is 30 (conflict); someone of unknown age is not known to be under 30 (conflict).
      const born = (dob: string) => enrollee('D', { dob });
      const withB = (d: Enrollee) => ({
        year: YEAR,
        enrollees: [d, b],
        enrollment_groups: group(['D', 'B']),
      });
      await validate(withB(born('1984-01-02')), 200);
      assert.equal((await validate(withB(born('1984-01-01')), 400)).length, 2);
      assert.equal((await validate(withB(enrollee('D')), 400)).length, 2);
    });

    test('several groups: 400 when one is invalid, every group suggested in order', async () => {
      const a = enrollee('A', { effective_age: 40, location: ADA });
      const b = enrollee('B', { effective_age: 38, location: CANYON });
      const c = enrollee('C', { effective_age: 35, location: ADA });
      const body = {
        year: YEAR,
        enrollees: [a, b, c],
        enrollment_groups: [{ enrollees: ['C'] }, { enrollees: ['A', 'B'] }],
      };
      const groups = await validate(body, 400);
      assert.deepEqual(
        groups.map((g) => [g.id, g.enrollees.map((e) => e.id), g.grouping_reason.split(':')[0]]),
        [
          ['1', ['C'], 'valid'],
          ['2', ['A'], 'address'],
          ['2-2', ['B'], 'address'],
        ],
      );
    });
  });

  describe('is_custom: a plan the group may enrol in together (Ada County ID, 2014)', () => {
    const subscriber = enrollee('A', { effective_age: 40, location: ADA });
    const custom = (members: Enrollee[], more: Partial<Group> = {}, division?: string) => ({
      year: YEAR,
      is_custom: true,
      ...(division ? { division } : {}),
      enrollees: members,
      enrollment_groups: [{ id: 'g', enrollees: members.map((m) => m.id), ...more }],
    });
    const child = (age: number, more: Omit<Enrollee, 'id'> = {}) =>
      enrollee('C', { effective_age: age, relationship: 'Child', ...more });

    test('the plan counts come from the landscape file', () => {
      const plans = adaPlans();
      const selectHealth = plans.filter((p) => p.id.startsWith('26002'));
      assert.equal(plans.length, 49);
      assert.equal(plans.filter((p) => p.metal === 'Catastrophic').length, 6);
      assert.equal(selectHealth.filter((p) => p.metal !== 'Catastrophic').length, 18);
      assert.equal(selectHealth.filter((p) => p.metal === 'Silver').length, 7);
    });

    test('an ex-spouse no issuer accepts becomes a group of their own; the others keep the id', async () => {
      const ex = enrollee('B', { effective_age: 39, relationship: 'Ex-Spouse' });
      const kid = child(25); // 25: within every issuer's limit
      // Candidates: the 43 non-catastrophic plans (A is 40, without an exemption), in plan id order; every
      // one refuses B, and the first refusal found is that of the first plan, SelectHealth's 26002ID0010001.
      const reason =
        'business_rules: enrollee B ("Ex-Spouse") is not a relationship issuer 26002 accepts as a ' +
        'dependent (Business Rules PUF: Spouse, Adopted Child, Ward, Stepson or Stepdaughter, Child)';
      const ac = { super_id: 'A', sub_id: 'C', relationship: 'Child' };
      assert.deepEqual(await validate(custom([subscriber, ex, kid], { relationships: [ac] }), 400), [
        flattened('g', [subscriber, kid], reason, { relationships: [ac] }),
        flattened('g-2', [ex], reason),
      ]);
      // The same people as a spouse: every plan accepts them together.
      const spouse = { ...ex, relationship: 'Spouse' };
      assert.deepEqual(await validate(custom([subscriber, spouse, kid]), 200), [
        flattened('g', [subscriber, spouse, kid], 'valid: 43 plan(s) accept the group together'),
      ]);
      // The group's edge from the subscriber wins over the enrollee's own relationship.
      const edge = { super_id: 'A', sub_id: 'B', relationship: 'Ex-Spouse' };
      const byEdge = await validate(custom([subscriber, spouse], { relationships: [edge] }), 400);
      assert.deepEqual(
        byEdge.map((g) => [g.id, g.enrollees.map((e) => e.id)]),
        [
          ['g', ['A']],
          ['g-2', ['B']],
        ],
      );
      // An ex-spouse and a child of 26: SelectHealth's plans (maximum age 26) refuse only the ex-spouse,
      // the others refuse both; the plan refusing fewest decides, so A and the child stay together.
      const older = child(26);
      const split = await validate(custom([subscriber, ex, older]), 400);
      assert.deepEqual(
        split.map((g) => [g.id, g.enrollees.map((e) => e.id)]),
        [
          ['g', ['A', 'C']],
          ['g-2', ['B']],
        ],
      );
    });

    test('a child of 26: SelectHealth’s 18 plans (maximum 26) accept the group; a child of 27 none', async () => {
      assert.deepEqual(await validate(custom([subscriber, child(26)]), 200), [
        flattened('g', [subscriber, child(26)], 'valid: 18 plan(s) accept the group together'),
      ]);
      // From dob, on 1 January 2014: born 1987-01-02 is 26 (valid), born 1987-01-01 is 27.
      const born26 = child(0, { dob: '1987-01-02' });
      delete born26.effective_age;
      assert.equal(
        (await validate(custom([subscriber, born26]), 200))[0]!.grouping_reason,
        'valid: 18 plan(s) accept the group together',
      );
      const born27 = { ...born26, dob: '1987-01-01' };
      const reason =
        'business_rules: enrollee C ("Child", age 27) is older than 26, the oldest a dependent may be on ' +
        "issuer 26002's plan (Business Rules PUF)";
      assert.deepEqual(await validate(custom([subscriber, born27]), 400), [
        flattened('g', [subscriber], reason),
        flattened('g-2', [born27], reason),
      ]);
    });

    test('allowed_metal_levels and allowed_plan_ids narrow the candidates before the rules', async () => {
      // Silver only: SelectHealth's 7 silver plans take the child of 26.
      const silverOnly = child(26, { allowed_metal_levels: ['Silver'] });
      assert.equal(
        (await validate(custom([subscriber, silverOnly]), 200))[0]!.grouping_reason,
        'valid: 7 plan(s) accept the group together',
      );
      // Only a Blue Cross plan (maximum 25): it refuses the child of 26.
      const blueCross = { ...subscriber, allowed_plan_ids: ['61589ID1650001'] };
      const reason =
        'business_rules: enrollee C ("Child", age 26) is older than 25, the oldest a dependent may be on ' +
        "issuer 61589's plan (Business Rules PUF)";
      assert.deepEqual(await validate(custom([blueCross, child(26)]), 400), [
        flattened('g', [blueCross], reason),
        flattened('g-2', [child(26)], reason),
      ]);
      // Lists that share nothing leave no candidate: the group stays as it is, invalid.
      const gold = child(20, { allowed_metal_levels: ['Gold'] });
      const groups = await validate(custom([blueCross, gold]), 400);
      assert.deepEqual(
        groups.map((g) => [g.id, g.enrollees.length, g.grouping_reason]),
        [
          [
            'g',
            2,
            'no_plans: no medical plan sold in county 16001 is allowed for every enrollee (allowed_plan_ids, ' +
              'allowed_metal_levels; catastrophic plans need everyone under 30 or exempt)',
          ],
        ],
      );
    });

    test('catastrophic plans are candidates only when everyone is under 30 or exempt', async () => {
      // A subscriber of 25 and a child of 20: all 49 plans, the 6 catastrophic ones among them.
      const young = enrollee('A', { effective_age: 25, location: ADA });
      assert.equal(
        (await validate(custom([young, child(20)]), 200))[0]!.grouping_reason,
        'valid: 49 plan(s) accept the group together',
      );
    });

    test('the Dental division: no stand-alone dental plan is loaded for Ada County in 2014', async () => {
      const groups = await validate(custom([subscriber, child(10)], {}, 'Dental'), 400);
      assert.equal(
        groups[0]!.grouping_reason,
        'no_plans: no dental plan sold in county 16001 is allowed for every enrollee (allowed_plan_ids, ' +
          'allowed_metal_levels; catastrophic plans need everyone under 30 or exempt)',
      );
    });

    test('the subscriber’s location must name the county, state and ZIP: 1003', async () => {
      const noZip = enrollee('A', { effective_age: 40, location: { state: 'ID', countyfips: '16001' } });
      await assertPlanError(
        await call(custom([child(10), noZip], { subscriber_id: 'A' })),
        invalid('enrollees[1].location: countyfips, state and zipcode are required when is_custom is true'),
      );
    });
  });

  describe('malformed requests: 1003', () => {
    const a = enrollee('A', { effective_age: 40 });
    const b = enrollee('B', { effective_age: 38, relationship: 'Spouse' });

    test('an enrollee id no enrollee has', async () => {
      await assertPlanError(
        await call({ year: YEAR, enrollees: [a, b], enrollment_groups: [{ enrollees: ['A', 'Z'] }] }),
        invalid('enrollment_groups[0].enrollees: no enrollee has the id Z'),
      );
    });

    test('an enrollee id given twice, a subscriber outside the group, no enrollees', async () => {
      await assertPlanError(
        await call({
          year: YEAR,
          enrollees: [a, { ...b, id: 'A' }],
          enrollment_groups: [{ enrollees: ['A'] }],
        }),
        invalid('enrollees[1].id: A is given twice'),
      );
      // Twice in one group: the same person cannot be enrolled twice in one policy (the decision's step 1).
      await assertPlanError(
        await call({ year: YEAR, enrollees: [a, b], enrollment_groups: [{ enrollees: ['A', 'B', 'B'] }] }),
        invalid('enrollment_groups[0].enrollees: B is given twice'),
      );
      await assertPlanError(
        await call({ year: YEAR, enrollees: [a, b], enrollment_groups: [{ enrollees: ['A', 'B', 'A'] }] }),
        invalid('enrollment_groups[0].enrollees: A is given twice'),
      );
      await assertPlanError(
        await call({
          year: YEAR,
          enrollees: [a, b],
          enrollment_groups: [{ enrollees: ['A'], subscriber_id: 'B' }],
        }),
        invalid("enrollment_groups[0].subscriber_id: B is not one of the group's enrollees"),
      );
      await assertPlanError(
        await call({ year: YEAR, enrollment_groups: [{ enrollees: ['A'] }] }),
        invalid('enrollees: 1 to 30 enrollees, each with an id'),
      );
    });

    test('a relationship valid only to 2020, in 2021 and later', async () => {
      // "Adopted Child" and "Court Appointed Guardian" are in the CMS document's list for market years 2020
      // and earlier only.
      const adopted = enrollee('B', { effective_age: 10, relationship: 'Adopted Child' });
      const body = (year: number, more: Partial<Group> = {}, members = [a, adopted]) => ({
        year,
        enrollees: members,
        enrollment_groups: [{ enrollees: members.map((m) => m.id), ...more }],
      });
      await validate(body(2020), 200);
      await assertPlanError(
        await call(body(2021)),
        invalid('enrollees[1]: relationship "Adopted Child" is not valid for market year 2021'),
      );
      // Given as the group's edge from the subscriber.
      const edge = { super_id: 'A', sub_id: 'B', relationship: 'Court Appointed Guardian' };
      await assertPlanError(
        await call(body(2022, { relationships: [edge] }, [a, b])),
        invalid('enrollees[1]: relationship "Court Appointed Guardian" is not valid for market year 2022'),
      );
    });

    test('a date of birth after the year, or no date at all, is 1003; born during the year is age 0', async () => {
      const baby = (dob: string) => enrollee('B', { dob, relationship: 'Child' });
      const body = (dob: string) => ({
        year: YEAR,
        enrollees: [a, baby(dob)],
        enrollment_groups: [{ enrollees: ['A', 'B'] }],
      });
      await validate(body('2014-06-01'), 200);
      await assertPlanError(
        await call(body('2015-03-01')),
        invalid('enrollees[1].dob: 2015-03-01 is not a date of birth before the end of 2014'),
      );
      // 30 February is no date, in the year or not.
      await assertPlanError(
        await call(body('2014-02-30')),
        invalid('enrollees[1].dob: 2014-02-30 is not a date of birth before the end of 2014'),
      );
    });
  });
});
