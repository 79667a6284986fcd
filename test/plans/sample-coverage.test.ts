import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SAMPLE_HEADER } from '../../src/plans/gateway/sample-data.js';
import { buildSampleMarket } from '../../src/plans/sample/market.js';
import { postJson } from '../helpers/priced-market.js';
import { startService, type RunningService } from '../helpers/service.js';
import { SANDBOX_KEY } from './plan-api.js';

interface SearchPlan {
  id: string;
  drug_coverage?: { rxcui: string; coverage: string; generic_rxcui?: string }[];
  provider_coverage?: { npi: string; coverage: string }[];
}

/** The zero-setup start: the generated sample market answers drug, provider and coverage questions at once. */
describe('the sample market answers drugs, providers and coverage from a zero-setup start', () => {
  let running: RunningService;
  let year = 0;
  const get = async (path: string) => {
    const response = await fetch(
      `${running.url}/api/v1${path}${path.includes('?') ? '&' : '?'}apikey=${SANDBOX_KEY}`,
    );
    assert.equal(response.status, 200, `${path}: ${await response.clone().text()}`);
    assert.match(response.headers.get(SAMPLE_HEADER) ?? '', /sample/, `${path} is labelled`);
    return response.json() as Promise<Record<string, unknown>>;
  };
  const search = async (filter: Record<string, unknown>) => {
    const response = await postJson(running.url, SANDBOX_KEY, '/plans/search', {
      place: { countyfips: '48091', state: 'TX', zipcode: '78130' },
      market: 'Individual',
      year,
      household: {
        income: 40_000,
        people: [{ age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
      },
      filter,
    });
    const text = await response.text();
    assert.equal(response.status, 200, text);
    return JSON.parse(text) as { plans: SearchPlan[]; total: number };
  };

  before(async () => {
    running = await startService();
    year = new Date(running.clock.now()).getUTCFullYear();
  });
  after(() => running.close());

  test('real drug names from a typeahead; sample providers near a sample ZIP, nearest first', async () => {
    const drugs = (await get('/drugs/autocomplete?q=acetamin')) as unknown as { rxcui: string }[];
    assert.ok(drugs.some((d) => d.rxcui === '198440'));
    const { providers } = (await get('/providers/search?q=sample&zipcode=78130')) as {
      providers: { provider: { name: string }; distance: number }[];
    };
    assert.ok(providers.length === 10);
    const distances = providers.map((p) => p.distance);
    assert.deepEqual(
      distances,
      [...distances].sort((a, b) => a - b),
    );
    assert.ok(providers.every((p) => /sample/i.test(p.provider.name)));
  });

  test('issuer A lists generics only (GenericCovered), issuer C publishes no formulary (DataNotProvided)', async () => {
    const market = buildSampleMarket(year);
    const planOf = (issuer: string) => market.plans.find((p) => p.issuer.spec.id === issuer)!.id;
    const { coverage } = (await get(
      `/drugs/covered?drugs=209459&planids=${planOf('99991')},${planOf('99993')}`,
    )) as {
      coverage: unknown[];
    };
    assert.deepEqual(coverage, [
      { rxcui: '209459', plan_id: planOf('99991'), coverage: 'GenericCovered', generic_rxcui: '198440' },
      { rxcui: '209459', plan_id: planOf('99993'), coverage: 'DataNotProvided' },
    ]);
  });

  test('plan search: filter.drugs and filter.providers keep the plans that cover them, each with its coverage', async () => {
    const all = await search({});
    const withDrug = await search({ drugs: ['209459'] });
    assert.ok(withDrug.total > 0 && withDrug.total < all.total, `${withDrug.total} of ${all.total}`);
    for (const plan of withDrug.plans) {
      assert.equal(plan.drug_coverage?.length, 1);
      assert.match(plan.drug_coverage![0]!.coverage, /^(Covered|GenericCovered)$/);
      assert.equal(plan.provider_coverage, undefined);
    }
    assert.equal(all.plans[0]!.drug_coverage, undefined);
    const { providers } = (await get('/providers/search?q=sample&zipcode=78130&limit=1')) as {
      providers: { provider: { npi: string } }[];
    };
    const npi = providers[0]!.provider.npi;
    const withDoctor = await search({ providers: [npi] });
    assert.ok(withDoctor.total < all.total);
    for (const plan of withDoctor.plans) assert.equal(plan.provider_coverage?.[0]?.coverage, 'Covered');
  });

  test('plan details carry the coverage asked: POST /plans/{plan_id} and POST /plans', async () => {
    const market = buildSampleMarket(year);
    const planId = market.plans.find((p) => p.issuer.spec.id === '99991')!.id;
    const place = { countyfips: '48091', state: 'TX', zipcode: '78130' };
    const household = {
      income: 40_000,
      people: [{ age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
    };
    const one = await postJson(running.url, SANDBOX_KEY, `/plans/${planId}`, {
      place,
      market: 'Individual',
      household,
      filter: { drugs: ['209459'] },
    });
    const answer = (await one.json()) as { plan: SearchPlan };
    assert.equal(one.status, 200);
    assert.deepEqual(answer.plan.drug_coverage, [
      { rxcui: '209459', plan_id: planId, coverage: 'GenericCovered', generic_rxcui: '198440' },
    ]);
    const { providers } = (await get('/providers/search?q=sample&zipcode=78130&limit=1')) as {
      providers: { provider: { npi: string } }[];
    };
    const several = await postJson(running.url, SANDBOX_KEY, '/plans', {
      place,
      household,
      plan_ids: [planId],
      filter: { providers: [providers[0]!.provider.npi] },
    });
    const plans = ((await several.json()) as { plans: SearchPlan[] }).plans;
    assert.equal(several.status, 200);
    assert.equal(plans[0]!.provider_coverage?.[0]?.npi, providers[0]!.provider.npi);
    assert.equal(plans[0]!.drug_coverage, undefined);
  });

  test('the served OpenAPI document describes every drug, provider and coverage path with its errors', async () => {
    const doc = (await (await fetch(`${running.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, { get?: { responses: Record<string, unknown> } }>;
    };
    for (const path of [
      '/api/v1/drugs/autocomplete',
      '/api/v1/drugs/search',
      '/api/v1/drugs/covered',
      '/api/v1/providers/autocomplete',
      '/api/v1/providers/search',
      '/api/v1/providers/covered',
      '/api/v1/coverage/search',
      '/api/v1/coverage/stats',
    ]) {
      const responses = doc.paths[path]?.get?.responses ?? {};
      assert.ok(
        ['200', '400', '404'].every((s) => s in responses),
        `${path}: ${Object.keys(responses).join(',')}`,
      );
    }
  });
});
