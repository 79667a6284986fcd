import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { before, describe, test } from 'node:test';
import {
  DEFAULT_MARKET,
  FIXTURE_AREAS,
  fixturePlanIds,
  loadPricedMarket,
  planAttributesRows,
  postJson,
  qualityRows,
  ratingAreaRows,
  serviceAreaRows,
  texasMedicaidFixtureRows,
} from '../helpers/priced-market.js';
import { benefitRow } from '../helpers/fictional-issuer.js';
import { ingest } from '../helpers/shared-data.js';
import { SANDBOX_KEY, assertPlanError, planApiSuite, type PlanApi } from './plan-api.js';

// Issue 17, "answers that explain themselves" (the plan API): each point of the issue is named in its
// tests. The fixture market is test/helpers/priced-market.ts (Hays County TX, rating area 3, 2026), loaded
// with and without its Rate PUF rows.

const YEAR = DEFAULT_MARKET.year;
const ID = fixturePlanIds();
const PLACE = { countyfips: '48209', state: 'TX', zipcode: '78666' };
const TRAVIS = { countyfips: '48453', state: 'TX', zipcode: '78701' };
/** One adult of 40 (127.8 % FPL: 94 % CSR) and a child of 8 (CHIP), income 30,000. */
const FAMILY = {
  income: 30000,
  people: [
    { age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false },
    { age: 8, aptc_eligible: true, gender: 'Female', uses_tobacco: false },
  ],
};
const ADULT = {
  income: 30000,
  people: [{ age: 34, uses_tobacco: false, aptc_eligible: true, gender: 'Female' }],
};

interface Range {
  min: number | null;
  max: number | null;
}
interface SearchAnswer {
  plans: {
    id: string;
    premium: number | null;
    ehb_premium: number | null;
    premium_unavailable?: string;
    metal_level: string;
  }[];
  total: number;
  ranges: { premiums: Range; deductibles: Range };
  data_notes?: { premiums?: string; benefits?: string; plans?: string };
}

const post = (api: PlanApi, path: string, body: unknown, contentType?: string) =>
  postJson(api.running.url, SANDBOX_KEY, path, body, contentType);

async function ok<T>(response: Response): Promise<T> {
  const text = await response.text();
  assert.equal(response.status, 200, text);
  return JSON.parse(text) as T;
}

/** The fixture market without its Rate PUF: plans, service areas, rating areas, Medicaid, quality. */
async function loadWithoutRates(api: PlanApi): Promise<void> {
  await api.loadFixture('rating-areas', api.csv('areas.csv', ratingAreaRows(FIXTURE_AREAS)), YEAR);
  await api.loadFixture('medicaid', api.csv('medicaid.csv', texasMedicaidFixtureRows(YEAR)));
  await api.loadFixture('plan-attributes', api.csv('plan-attributes.csv', planAttributesRows()));
  await api.loadFixture('service-areas', api.csv('service-areas.csv', serviceAreaRows()));
  await api.loadFixture('quality', api.csv('qrs.csv', qualityRows()), YEAR);
}

describe('issue 17: a real county without rates (fixture market, no Rate PUF loaded)', () => {
  const api = planApiSuite([]);
  before(() => loadWithoutRates(api));
  const search = (body: Record<string, unknown> = {}) =>
    post(api, '/plans/search', { place: PLACE, market: 'Individual', year: YEAR, ...body });

  test('point 1: `curl -d` (form content type, JSON text) is read as JSON', async () => {
    const url = `${api.running.url}/api/v1/plans/search?apikey=${SANDBOX_KEY}`;
    const body = JSON.stringify({ household: FAMILY, market: 'Individual', place: PLACE, year: YEAR });
    // curl -d sends application/x-www-form-urlencoded.
    const { stdout } = await promisify(execFile)('curl', ['-s', '-w', '\n%{http_code}', '-d', body, url]);
    const [text, status] = [
      stdout.slice(0, stdout.lastIndexOf('\n')),
      stdout.slice(stdout.lastIndexOf('\n') + 1),
    ];
    assert.equal(status, '200', text);
    assert.equal((JSON.parse(text) as SearchAnswer).total, 11);
    // JSON text after whitespace, as a form: still JSON.
    const spaced = await post(api, '/plans/search', `\n  ${body}`, 'application/x-www-form-urlencoded');
    assert.equal(spaced.status, 200);
  });

  test('point 1: a form body that is not JSON is refused naming its content type; broken JSON too', async () => {
    const form = await post(api, '/plans/search', 'place=48209', 'application/x-www-form-urlencoded');
    const refused = (await form.json()) as Record<string, string>;
    assert.equal(form.status, 415);
    assert.equal(refused.code, '1003');
    assert.match(refused.error!, /must be JSON; it was sent as application\/x-www-form-urlencoded/);
    const broken = await post(api, '/plans/search', '{"place":', 'application/x-www-form-urlencoded');
    assert.equal(broken.status, 400);
    assert.match(
      ((await broken.json()) as Record<string, string>).error!,
      /not valid JSON \(sent as application\/x-www-form-urlencoded\)/,
    );
  });

  test('point 1: the OAuth token endpoint stays form-only (JSON text is not read as JSON there)', async () => {
    const response = await fetch(`${api.running.url}/v2/o/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'x', client_secret: 'y' }),
    });
    const answer = (await response.json()) as { error: string; error_description?: string };
    assert.ok(response.status >= 400 && response.status < 500, JSON.stringify(answer));
    // Read as a form, the JSON text is one parameter name: no grant_type was given.
    assert.match(`${answer.error} ${answer.error_description ?? ''}`, /grant_type|invalid_client/);
  });

  test('point 2: no premium known → null ranges and one note saying why (no Rate PUF, no credit)', async () => {
    const answer = await ok<SearchAnswer>(await search({ household: FAMILY, limit: 100 }));
    assert.equal(answer.total, 11);
    for (const plan of answer.plans) {
      assert.equal(plan.premium, null, plan.id);
      assert.equal(plan.premium_unavailable, 'no rates are loaded for this plan in the rating area');
    }
    assert.deepEqual(answer.ranges.premiums, { min: null, max: null });
    assert.match(answer.data_notes!.premiums!, /no Rate PUF is loaded for 2026/);
    assert.match(answer.data_notes!.premiums!, /tax credit \(APTC\) was not computed/);
  });

  test('point 2: /plans/search/stats gives null premiums with the reason, never 0', async () => {
    const stats = await ok<
      { metal_level: string; premiums: Range & { mean: number | null }; premium_unavailable?: string }[]
    >(
      await post(api, '/plans/search/stats', {
        place: PLACE,
        market: 'Individual',
        year: YEAR,
        household: FAMILY,
      }),
    );
    assert.ok(stats.length > 0);
    for (const stat of stats) {
      assert.deepEqual(stat.premiums, { min: null, max: null, mean: null }, stat.metal_level);
      assert.match(stat.premium_unavailable!, /no Rate PUF is loaded for 2026/);
    }
  });

  test('point 3: eligibility estimates without rates: Medicaid/CHIP and CSR answered, aptc null with why', async () => {
    const answer = await ok<{ estimates: Record<string, unknown>[] }>(
      await post(api, '/households/eligibility/estimates', { place: PLACE, year: YEAR, household: FAMILY }),
    );
    const [adult, child] = answer.estimates;
    assert.equal(adult!.aptc, null);
    assert.match(String(adult!.aptc_unavailable), /no SLCSP benchmark: no Rate PUF is loaded for 2026/);
    assert.equal(adult!.csr, '94% AV Level Silver Plan CSR');
    assert.equal(adult!.is_medicaid_chip, false);
    assert.equal(child!.is_medicaid_chip, true);
    assert.equal(child!.aptc, 0);
    assert.equal(child!.aptc_unavailable, undefined);
  });

  test("point 3: /households/slcsp without rates is CMS's 1016, saying that no Rate PUF is loaded", async () => {
    const response = await post(api, '/households/slcsp', { place: PLACE, year: YEAR, household: FAMILY });
    assert.equal(response.status, 404);
    const body = (await response.json()) as { code: string; error: string };
    assert.equal(body.code, '1016');
    assert.match(
      body.error,
      /^no silver plan with rates for the household .*: no Rate PUF is loaded for 2026/,
    );
  });

  test('point 7: no Benefits PUF loaded → a note on the answer, as for premiums', async () => {
    const answer = await ok<SearchAnswer>(await search({ household: FAMILY }));
    assert.match(answer.data_notes!.benefits!, /No Benefits and Cost Sharing PUF is loaded for 2026/);
    const plans = await ok<{ data_notes?: { benefits?: string } }>(
      await post(api, '/plans', { place: PLACE, year: YEAR, household: FAMILY, plan_ids: [ID.silverCsr] }),
    );
    assert.match(plans.data_notes!.benefits!, /Benefits and Cost Sharing PUF/);
    const details = await ok<{ plan: { benefits: unknown[] }; data_notes?: { benefits?: string } }>(
      await api.get(`/plans/${ID.silverCsr}?year=${YEAR}`),
    );
    assert.deepEqual(details.plan.benefits, []);
    assert.match(details.data_notes!.benefits!, /every plan lists no benefits/);
  });
});

describe('issue 17: the priced fixture market (rates loaded)', () => {
  const api = planApiSuite([]);
  before(() => loadPricedMarket(api));
  const search = (body: Record<string, unknown> = {}) =>
    post(api, '/plans/search', { place: PLACE, market: 'Individual', year: YEAR, ...body });

  test('point 2: with rates, no premiums note; ranges are figures', async () => {
    const answer = await ok<SearchAnswer>(await search({ household: FAMILY }));
    assert.equal(answer.data_notes?.premiums, undefined);
    assert.equal(typeof answer.ranges.premiums.min, 'number');
  });

  test('point 4: /households/slcsp is the plan’s ehb_premium, /households/lcbp its full premium', async () => {
    const answer = await ok<SearchAnswer>(await search({ household: ADULT, limit: 100 }));
    const byId = new Map(answer.plans.map((p) => [p.id, p]));
    const slcsp = await ok<{ id: string; premium: number }>(
      await post(api, '/households/slcsp', { place: PLACE, year: YEAR, household: ADULT }),
    );
    assert.equal(slcsp.premium, byId.get(slcsp.id)!.ehb_premium);
    assert.notEqual(slcsp.premium, byId.get(slcsp.id)!.premium, 'the fixture SLCSP has an EHB share < 1');
    const lcbp = await ok<{ id: string; premium: number }>(
      await post(api, '/households/lcbp', { place: PLACE, year: YEAR, household: ADULT }),
    );
    assert.equal(lcbp.premium, byId.get(lcbp.id)!.premium);
    // And the documents say so.
    const doc = await ok<{ paths: Record<string, Record<string, { description?: string }>> }>(
      await fetch(`${api.running.url}/api/v1/openapi.json`),
    );
    assert.match(doc.paths['/api/v1/households/slcsp']!.post!.description!, /`ehb_premium` in plan search/);
    assert.match(doc.paths['/api/v1/households/lcbp']!.post!.description!, /`premium` in plan search/);
    assert.match(JSON.stringify(doc), /the figure POST \/households\/slcsp returns/);
  });

  test('point 5: a place with no plans says why', async () => {
    const answer = await ok<SearchAnswer>(await search({ place: TRAVIS, household: FAMILY }));
    assert.equal(answer.total, 0);
    assert.deepEqual(answer.ranges.premiums, { min: null, max: null });
    assert.match(answer.data_notes!.plans!, /No plan loaded for 2026 is sold in county 48453/);
  });

  test('point 7: once a Benefits PUF is loaded for the year, no benefits note', async () => {
    const row = benefitRow('Primary Care Visit to Treat an Injury or Illness', {
      BusinessYear: String(YEAR),
      IssuerId: '99994',
      StandardComponentId: ID.silverCsr,
      PlanId: `${ID.silverCsr}-01`,
    });
    await api.loadFixture('benefits', api.csv('benefits.csv', [row]));
    const answer = await ok<SearchAnswer>(await search({ household: FAMILY }));
    assert.equal(answer.data_notes?.benefits, undefined);
    const details = await ok<{ data_notes?: unknown }>(await api.get(`/plans/${ID.silverCsr}?year=${YEAR}`));
    assert.equal(details.data_notes, undefined);
  });

  test('point 8: required query parameters are required in the OpenAPI document, as in behaviour', async () => {
    const doc = await ok<{
      paths: Record<
        string,
        Record<string, { parameters?: { name: string; in: string; required?: boolean }[] }>
      >;
    }>(await fetch(`${api.running.url}/api/v1/openapi.json`));
    const required = (path: string) =>
      (doc.paths[`/api/v1${path}`]!.get!.parameters ?? [])
        .filter((p) => p.in === 'query' && p.required)
        .map((p) => p.name)
        .sort();
    assert.deepEqual(required('/rate-areas'), ['fips', 'state', 'zipcode']);
    assert.deepEqual(required('/plans/{plan_id}/quality-ratings'), ['year']);
    assert.deepEqual(required('/crosswalk'), ['fips', 'plan_id', 'state', 'year', 'zipcode']);
    // Parameters with a default are optional in behaviour, so not required in the document.
    assert.deepEqual(required('/issuers'), []);
    assert.deepEqual(required('/drugs/search'), ['q']);
    assert.deepEqual(required('/providers/search'), ['q', 'zipcode']);
    // Behaviour: a required one missing is 1003 naming it; an optional one missing is answered.
    const missing = async (path: string, name: string) => {
      const response = await api.get(path);
      const body = (await response.json()) as Record<string, string>;
      assert.equal(response.status, 400, `${path}: ${JSON.stringify(body)}`);
      assert.match(body.error!, new RegExp(name), path);
    };
    await missing('/rate-areas?state=TX&zipcode=78666', 'fips');
    await missing(`/plans/${ID.silverCsr}/quality-ratings`, 'year');
    await missing(`/crosswalk?year=2025&plan_id=${ID.silverCsr}&zipcode=78666&fips=48209`, 'state');
    assert.equal((await api.get(`/issuers?year=${YEAR}`)).status, 200);
  });

  test('point 5: a year with only the generated sample, once real plans are loaded, is no market year', async () => {
    const sampleYear = YEAR + 1;
    const file = api.csv('sample-plans.csv', planAttributesRows({ ...DEFAULT_MARKET, year: sampleYear }));
    const summary = await ingest(api.running.service.storage, 'plan-attributes', [file], { sample: true });
    assert.equal(summary.rejectedCount, 0);
    api.running.service.plans.samples.refresh();
    const years = await api.json<{ current: number; supported: number[] }>('/market-years');
    assert.deepEqual(years, { current: YEAR, supported: [YEAR] });
    const response = await post(api, '/plans/search', {
      place: PLACE,
      market: 'Individual',
      year: sampleYear,
      household: FAMILY,
    });
    await assertPlanError(response, {
      code: '1003',
      status: '400',
      message: 'invalid year',
      error:
        `year: ${sampleYear} has only the generated sample market, which is not served once real plans ` +
        `are loaded (years with real plans: ${YEAR}; GET /market-years)`,
    });
  });
});
