import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { SAMPLE_HEADER } from '../../src/plans/gateway/sample-data.js';
import { ingest, skipWithoutSharedData } from '../helpers/shared-data.js';
import { REAL, assertPlanError, filesOf, planApiSuite, type Load } from './plan-api.js';

// Real files: Census counties, the 2014 rating-area tables (hrecht: counties, and 3-digit ZIPs for the
// states rated by ZIP), the 2025 county table with Los Angeles County's ZIP3 split, and the 2017 Idaho QHP
// Landscape (Idaho counties split between rating areas). A later LA-only ZIP3 table: the real LA file
// loaded for 2027.
const landscapeIdaho2017: Load = {
  kind: 'landscape',
  files: ['premiums/qhp_landscape_2014_2017/2017_QHP_Landscape_ID_Individual_Market_Medical.csv'],
};
const losAngeles2027: Load = {
  kind: 'rating-areas',
  files: ['premiums/policyengine_derived/ca_los_angeles_zip3_rating_area.csv'],
  year: 2027,
};
const loads = [REAL.counties, REAL.ratingAreas2014, REAL.ratingAreas2025, landscapeIdaho2017, losAngeles2027];
const skip = skipWithoutSharedData(...filesOf(...loads));

describe('GET /rate-areas: which table row answers (real rating-area tables and landscape)', { skip }, () => {
  const api = planApiSuite(loads);
  const area = async (query: string) => {
    const response = await api.get(`/rate-areas?${query}`);
    const text = await response.text();
    assert.equal(response.status, 200, `${query}: ${text}`);
    return { ...(JSON.parse(text) as { area: number }), sample: response.headers.has(SAMPLE_HEADER) };
  };
  const undetermined = async (query: string) =>
    assertPlanError(await api.get(`/rate-areas?${query}`), {
      code: '1017',
      status: '404',
      message: 'rate area not found',
      error: 'No rate area could be determined',
    });

  before(async () => {
    // The zero-setup sample market's table for 2026: its three Texas counties only, flagged as sample
    // (rows of the 2025 PolicyEngine table, as the generator writes them).
    const file = api.csv('sample-rating-areas.csv', [
      { county_fips: '48091', state: 'TX', census_county_name: 'Comal County', rating_area: '18' },
      { county_fips: '48187', state: 'TX', census_county_name: 'Guadalupe County', rating_area: '18' },
      { county_fips: '48209', state: 'TX', census_county_name: 'Hays County', rating_area: '3' },
    ]);
    const summary = await ingest(api.running.service.storage, 'rating-areas', [file], {
      year: 2026,
      sample: true,
    });
    assert.equal(summary.rejectedCount, 0, JSON.stringify(summary.rejected));
    api.running.service.plans.samples.refresh();
  });

  describe('each place takes its own latest row of the year or before', () => {
    test('Comal County TX: area 19 in the 2014 table, 18 in the 2025 one', async () => {
      assert.equal((await area('state=TX&fips=48091&zipcode=78130&year=2024')).area, 19);
      assert.equal((await area('state=TX&fips=48091&zipcode=78130&year=2025')).area, 18);
    });

    test("a newer table of three counties does not hide the state's others (sample market, 2026)", async () => {
      // Dallas is not in the sample's 2026 table: the 2025 table answers, and the answer is not sample.
      assert.deepEqual(await area('state=TX&fips=48113&zipcode=75001&year=2026'), {
        state: 'TX',
        area: 8,
        sample: false,
      });
      // Hays is: the sample's row answers, labelled as sample, in 2026 and after.
      assert.deepEqual(await area('state=TX&fips=48209&zipcode=78666&year=2026'), {
        state: 'TX',
        area: 3,
        sample: true,
      });
      assert.equal((await area('state=TX&fips=48209&zipcode=78666&year=2030')).sample, true);
      // A real year is never labelled by the sample year.
      assert.equal((await area('state=TX&fips=48209&zipcode=78666&year=2025')).sample, false);
    });

    test("an LA-only ZIP3 table of a later year does not hide California's other counties", async () => {
      assert.equal((await area('state=CA&fips=06059&zipcode=92602&year=2027')).area, 15); // Orange, 2025
      assert.equal((await area('state=CA&fips=06001&zipcode=94501&year=2027')).area, 6); // Alameda, 2025
      assert.equal((await area('state=CA&fips=06037&zipcode=91101&year=2027')).area, 15); // LA 911, 2027
      assert.equal((await area('state=CA&fips=06037&zipcode=90210&year=2027')).area, 16); // LA 902, 2025
    });

    test('a state once rated by 3-digit ZIP, by county in a later table: the later table wins', async () => {
      // Idaho: Ada County (Boise, ZIP3 837) is area 6 in the 2014 ZIP3 table, 5 in the 2025 county table
      // (asked for 2027: Idaho runs its own exchange in 2025 and 2026, so those years answer 1003).
      assert.equal((await area('state=ID&fips=16001&zipcode=83702&year=2014')).area, 6);
      assert.equal((await area('state=ID&fips=16001&zipcode=83702&year=2027')).area, 5);
      // Before 2025 (and with no landscape of the year) the 2014 ZIP3 table still decides: Melba, 836 → 5.
      assert.equal((await area('state=ID&fips=16001&zipcode=83641&year=2016')).area, 5);
      assert.equal((await area('state=ID&fips=16001&zipcode=83702&year=2016')).area, 6);
    });
  });

  describe('counties the QHP Landscape lists in several rating areas (Idaho 2017)', () => {
    test('a county in one area: the landscape answers (Bannock → 1)', async () => {
      assert.equal((await area('state=ID&fips=16005&zipcode=83201&year=2017')).area, 1);
    });

    test('Ada County, in areas 5 and 6: the ZIP3 table decides (837 → 6, 836 → 5)', async () => {
      assert.equal((await area('state=ID&fips=16001&zipcode=83702&year=2017')).area, 6);
      assert.equal((await area('state=ID&fips=16001&zipcode=83641&year=2017')).area, 5);
    });

    test('Custer County, in areas 1 and 2: Challis (832) → 1', async () => {
      assert.equal((await area('state=ID&fips=16037&zipcode=83226&year=2017')).area, 1);
    });

    test('a ZIP the tables do not place, or place outside the county’s areas → 1017, not a guess', async () => {
      await undetermined('state=ID&fips=16001&zipcode=99999&year=2017');
      // 832 is area 1, which is not one of Ada's two.
      await undetermined('state=ID&fips=16001&zipcode=83226&year=2017');
    });
  });
});
