import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { fixturePlanIds, loadPricedMarket, postJson } from '../helpers/priced-market.js';
import { SANDBOX_KEY, assertPlanError, planApiSuite } from './plan-api.js';

/**
 * What a priced request must state, on every priced endpoint (docs/decisions.md#household-required): the
 * household with its income and people, each person's age or dob, `aptc_eligible`, `gender` and
 * `uses_tobacco`, the place, the market where the endpoint needs one, and the year on plan search, its
 * stats and eligibility estimates. A missing one is 1003 naming it; a key the household or a person does
 * not define is 1003 naming it, so that a misspelling never quietly changes a quote. Against the fixture
 * market of test/helpers/priced-market.ts (Hays County TX, 2026), where each full body is answered 200.
 */

const YEAR = 2026;
const ID = fixturePlanIds();
const PLACE = { countyfips: '48209', state: 'TX', zipcode: '78666' };
const PERSON = { age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false };
const HOUSEHOLD = { income: 52000, people: [PERSON] };

type Body = Record<string, unknown>;

interface Endpoint {
  path: string;
  /** The request named in the 1003 `message`: `invalid <what> request`. */
  what: string;
  body: Body;
  /** Top-level fields besides household and place that the endpoint requires. */
  requires: ('market' | 'year')[];
}

const base = { household: HOUSEHOLD, place: PLACE, year: YEAR };
const ENDPOINTS: Endpoint[] = [
  {
    path: '/plans/search',
    what: 'plan search',
    body: { ...base, market: 'Individual' },
    requires: ['market', 'year'],
  },
  {
    path: '/plans/search/stats',
    what: 'plan search stats',
    body: { ...base, market: 'Individual' },
    requires: ['market', 'year'],
  },
  { path: '/plans', what: 'plans', body: { ...base, plan_ids: [ID.silverCsr] }, requires: [] },
  {
    path: `/plans/${ID.silverCsr}`,
    what: 'plan',
    body: { ...base, market: 'Individual' },
    requires: ['market'],
  },
  {
    path: '/households/eligibility/estimates',
    what: 'eligibility estimates',
    body: base,
    requires: ['year'],
  },
  { path: '/households/slcsp', what: 'slcsp', body: base, requires: [] },
  { path: '/households/lcsp', what: 'lcsp', body: base, requires: [] },
  { path: '/households/lcbp', what: 'lcbp', body: base, requires: [] },
  { path: '/households/ichra', what: 'ichra', body: { ...base, hra: 100 }, requires: [] },
];

/** A copy of `object` without `key`. */
function without(object: Body, key: string): Body {
  return Object.fromEntries(Object.entries(object).filter(([name]) => name !== key));
}

/** The body with the first person replaced by `person`. */
function withPerson(body: Body, person: Body): Body {
  return { ...body, household: { ...HOUSEHOLD, people: [person] } };
}

/** The body with the household's fields replaced by `household`. */
function withHousehold(body: Body, household: Body): Body {
  return { ...body, household };
}

describe('what a priced request must state (fixture PUF market, Hays County TX, 2026)', () => {
  const api = planApiSuite([]);
  before(() => loadPricedMarket(api));

  const post = (path: string, body: unknown, query = '') =>
    postJson(api.running.url, SANDBOX_KEY, `${path}${query}`, body);

  async function refused(endpoint: Endpoint, body: Body, error: string | RegExp, message?: string) {
    const response = await post(endpoint.path, body);
    const text = await response.text();
    assert.equal(response.status, 400, `${endpoint.path}: ${text}`);
    const answer = JSON.parse(text) as Record<string, string>;
    assert.deepEqual(Object.keys(answer).sort(), ['code', 'error', 'message', 'status']);
    assert.equal(answer.code, '1003', text);
    assert.equal(answer.status, '400');
    assert.equal(answer.message, message ?? `invalid ${endpoint.what} request`, text);
    if (typeof error === 'string') assert.equal(answer.error, error, endpoint.path);
    else assert.match(answer.error!, error, endpoint.path);
  }

  for (const endpoint of ENDPOINTS) {
    describe(`POST ${endpoint.path.replace(ID.silverCsr, '{plan_id}')}`, () => {
      test('the full body is answered', async () => {
        const response = await post(endpoint.path, endpoint.body);
        assert.equal(response.status, 200, await response.text());
      });

      test('each required field missing → 1003 naming it', async () => {
        await refused(endpoint, without(endpoint.body, 'household'), /^household: .* is required$/);
        await refused(endpoint, without(endpoint.body, 'place'), /^place: .* are required$/);
        await refused(
          endpoint,
          withHousehold(endpoint.body, { people: [PERSON] }),
          'household.income: is required',
        );
        await refused(
          endpoint,
          withHousehold(endpoint.body, { income: 52000 }),
          'household.people: is required',
        );
        for (const field of ['aptc_eligible', 'gender', 'uses_tobacco'] as const) {
          await refused(
            endpoint,
            withPerson(endpoint.body, without(PERSON, field)),
            `household.people[0].${field}: is required`,
          );
        }
        await refused(
          endpoint,
          withPerson(endpoint.body, without(PERSON, 'age')),
          'household.people[0]: age or dob is required',
          'invalid household request',
        );
        if (endpoint.requires.includes('market')) {
          await refused(
            endpoint,
            without(endpoint.body, 'market'),
            'market: Individual, SHOP or Any is required',
          );
        }
        if (endpoint.requires.includes('year')) {
          await refused(
            endpoint,
            without(endpoint.body, 'year'),
            'year: the market year (4 digits) is required, in the body or as ?year=',
          );
        }
      });

      test('a misspelt key → 1003 naming it; an unknown key in the household or a person → 1003', async () => {
        // A required field misspelt: the missing field, and the key sent in its place.
        await refused(
          endpoint,
          withPerson(endpoint.body, { ...without(PERSON, 'aptc_eligible'), aptc_eligble: false }),
          'household.people[0].aptc_eligible: is required (the request has aptc_eligble)',
        );
        // An optional field misspelt would otherwise be ignored: has_mec leaves a member unpriced.
        await refused(
          endpoint,
          withPerson(endpoint.body, { ...PERSON, has_mce: true }),
          'household.people[0].has_mce: is not a known field',
        );
        await refused(
          endpoint,
          withHousehold(endpoint.body, { ...HOUSEHOLD, effective_dat: '2026-03-01' }),
          'household.effective_dat: is not a known field',
        );
        const { household, ...rest } = endpoint.body;
        await refused(
          endpoint,
          { ...rest, housheold: household },
          /^household: .* \(the request has housheold\)$/,
        );
      });
    });
  }

  test('the year: in the body or as ?year= where required; elsewhere the current market year', async () => {
    const search = ENDPOINTS[0]!;
    const byQuery = await post(search.path, without(search.body, 'year'), `?year=${YEAR}`);
    const byBody = await post(search.path, search.body);
    assert.equal(byQuery.status, 200);
    assert.deepEqual(await byQuery.json(), await byBody.json());
    // 2026 is the only (so the current) market year of the fixture.
    assert.deepEqual(await api.json('/market-years'), { current: YEAR, supported: [YEAR] });
    for (const endpoint of ENDPOINTS.filter((e) => !e.requires.includes('year'))) {
      const defaulted = await post(endpoint.path, without(endpoint.body, 'year'));
      const named = await post(endpoint.path, endpoint.body);
      assert.equal(defaulted.status, 200, endpoint.path);
      assert.deepEqual(await defaulted.json(), await named.json(), endpoint.path);
    }
  });

  test('income -1 is the explicit "unknown": priced, no credit; another negative amount → 1003', async () => {
    const endpoint = ENDPOINTS[3]!;
    const unknown = await post(endpoint.path, withHousehold(endpoint.body, { income: -1, people: [PERSON] }));
    const text = await unknown.text();
    assert.equal(unknown.status, 200, text);
    const { plan } = JSON.parse(text) as { plan: Record<string, number> };
    // 400 × 1.278 at 40 (test/helpers/priced-market.ts), with no credit.
    assert.equal(plan.premium, 511.2);
    assert.equal(plan.premium_w_credit, 511.2);
    await refused(
      endpoint,
      withHousehold(endpoint.body, { income: -0.5, people: [PERSON] }),
      'household.income: -0.5 is neither an amount (0 or more) nor -1 (unknown)',
      'invalid household request',
    );
    await refused(
      endpoint,
      withHousehold(endpoint.body, { income: -2, people: [PERSON] }),
      'household.income: must be >= -1',
    );
  });

  test('nobody in the household: the plans are listed unpriced', async () => {
    const search = ENDPOINTS[0]!;
    const response = await post(search.path, withHousehold(search.body, { income: -1, people: [] }));
    const answer = (await response.json()) as { plans: { premium: number | null }[] };
    assert.equal(response.status, 200);
    assert.ok(answer.plans.length > 0 && answer.plans.every((p) => p.premium === null));
  });

  test('unknown keys at the top level and in place are accepted (the front end sends extended_zipcode)', async () => {
    const search = ENDPOINTS[0]!;
    const response = await post(search.path, {
      ...search.body,
      place: { ...PLACE, extended_zipcode: '786660000' },
      client_reference: 'quote 17',
    });
    assert.equal(response.status, 200, await response.text());
  });

  test('GET /rate-areas and /states/{abbrev}/poverty-guidelines: year defaults to the current market year', async () => {
    const place = `state=TX&fips=${PLACE.countyfips}&zipcode=${PLACE.zipcode}`;
    assert.deepEqual(await api.json(`/rate-areas?${place}`), { state: 'TX', area: 3 });
    assert.deepEqual(
      await api.json(`/rate-areas?${place}`),
      await api.json(`/rate-areas?${place}&year=${YEAR}`),
    );
    const guidelines = await api.json<{ guidelines: { household_size: number; guideline: number }[] }>(
      '/states/TX/poverty-guidelines',
    );
    // Market year 2026 → the 2025 guidelines: $15,650 for one person.
    assert.deepEqual(guidelines.guidelines[0], { household_size: 1, guideline: 15650 });
    assert.deepEqual(guidelines, await api.json(`/states/TX/poverty-guidelines?year=${YEAR}`));
    await assertPlanError(await api.get('/states/TX/poverty-guidelines?year=20'), {
      code: '1003',
      status: '400',
      message: 'invalid poverty guideline request',
      error: 'year: must be a 4-digit market year',
    });
  });
});
