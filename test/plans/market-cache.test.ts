import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DEFAULT_MARKET,
  FIXTURE_AREAS,
  planAttributesRows,
  postJson,
  rateRows,
  ratingAreaRows,
  serviceAreaRows,
  texasMedicaidFixtureRows,
} from '../helpers/priced-market.js';
import { SANDBOX_KEY, planApiSuite } from './plan-api.js';

// The county markets the priced endpoints keep in the process (src/plans/market/market-service.ts) follow
// every dataset they are read from — here a rating-area table of an EARLIER year, which prices a later
// plan year that has none of its own (rating-areas.ts: the latest table at or before the year).

const YEAR = 2027;
const PLACE = { countyfips: '48209', state: 'TX', zipcode: '78666' };
const api = planApiSuite([]);

test('a rating-area table of an earlier year, loaded again, reaches the cached market of a later year', async () => {
  // The fixture plans of 2027, and rating areas loaded for 2026 only: Hays County is area 3.
  const market = { ...DEFAULT_MARKET, year: YEAR };
  await api.loadFixture('rating-areas', api.csv('areas-2026.csv', ratingAreaRows(FIXTURE_AREAS)), 2026);
  await api.loadFixture('medicaid', api.csv('medicaid.csv', texasMedicaidFixtureRows(YEAR)));
  await api.loadFixture('plan-attributes', api.csv('plan-attributes.csv', planAttributesRows(market)));
  await api.loadFixture('service-areas', api.csv('service-areas.csv', serviceAreaRows(market)));
  await api.loadFixture('rates', api.csv('rates.csv', rateRows(market)));
  const search = async () => {
    const response = await postJson(api.running.url, SANDBOX_KEY, '/plans/search', {
      place: PLACE,
      market: 'Individual',
      year: YEAR,
      household: {
        income: -1,
        people: [{ age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
      },
    });
    const text = await response.text();
    assert.equal(response.status, 200, text);
    return JSON.parse(text) as { rate_area: { area: number }; plans: { premium: number | null }[] };
  };
  const before = await search();
  assert.equal(before.rate_area.area, 3);
  assert.ok(before.plans.some((p) => p.premium !== null));

  // The 2026 table now puts Hays County in area 5, where the fixture has no rates.
  const moved = FIXTURE_AREAS.map((a) => (a.fips === PLACE.countyfips ? { ...a, area: 5 } : a));
  await api.loadFixture('rating-areas', api.csv('areas-2026-moved.csv', ratingAreaRows(moved)), 2026);
  const after = await search();
  assert.equal(after.rate_area.area, 5);
  assert.ok(after.plans.every((p) => p.premium === null));
});

test('a ZIP the HUD crosswalk places in other counties only → 1003; market years without plans → 1003', async () => {
  await api.loadFixture(
    'zip-county',
    api.csv('zip-county.csv', [
      {
        ZIP: '78666',
        COUNTY: '48209',
        USPS_ZIP_PREF_CITY: 'SAN MARCOS',
        USPS_ZIP_PREF_STATE: 'TX',
        RES_RATIO: '1',
        BUS_RATIO: '1',
        OTH_RATIO: '1',
        TOT_RATIO: '1',
      },
      {
        ZIP: '78130',
        COUNTY: '48091',
        USPS_ZIP_PREF_CITY: 'NEW BRAUNFELS',
        USPS_ZIP_PREF_STATE: 'TX',
        RES_RATIO: '1',
        BUS_RATIO: '1',
        OTH_RATIO: '1',
        TOT_RATIO: '1',
      },
    ]),
  );
  const post = (body: Record<string, unknown>) =>
    postJson(api.running.url, SANDBOX_KEY, '/plans/search', {
      market: 'Individual',
      household: {
        income: -1,
        people: [{ age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
      },
      ...body,
    });
  const wrongZip = await post({ place: { ...PLACE, zipcode: '78130' }, year: YEAR });
  const wrong = (await wrongZip.json()) as Record<string, string>;
  assert.equal(wrongZip.status, 400);
  assert.equal(wrong.code, '1003');
  assert.match(wrong.error!, /place\.zipcode: 78130 is not in county 48209/);
  // A ZIP the crosswalk does not know is taken as given.
  assert.equal((await post({ place: { ...PLACE, zipcode: '78999' }, year: YEAR })).status, 200);

  const noYear = await post({ place: PLACE, year: 2031 });
  const body = (await noYear.json()) as Record<string, string>;
  assert.equal(noYear.status, 400);
  assert.equal(body.code, '1003');
  assert.match(body.error!, /year: no plans are loaded for 2031 \(market years: 2027\)/);
});
