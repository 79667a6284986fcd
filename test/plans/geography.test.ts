import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { skipWithoutSharedData } from '../helpers/shared-data.js';
import { REAL, assertPlanError, filesOf, planApiSuite } from './plan-api.js';

// Real files: Census county names, HUD ZIP→county 2023Q1, the 2025 county rating-area table with Los
// Angeles County's 3-digit-ZIP split, and the PY2014 Idaho QHP Landscape (plans of one state, one year).
const loads = [REAL.counties, REAL.zipCounty, REAL.ratingAreas2025, REAL.landscapeIdaho2014];
const skip = skipWithoutSharedData(...filesOf(...loads));

describe('plan API geography (real HUD, Census and rating-area files)', { skip }, () => {
  const api = planApiSuite(loads);

  describe('GET /counties/by/zip/{zipcode}', () => {
    test('a ZIP in three counties: largest residential share first (HUD 75007 Carrollton TX)', async () => {
      // ZIP_COUNTY_032023.csv: 75007 → 48121 RES_RATIO 0.922…, 48113 0.0519…, 48085 0.0258…
      assert.deepEqual(await api.json('/counties/by/zip/75007'), {
        counties: [
          { fips: '48121', name: 'Denton County', state: 'TX', zipcode: '75007' },
          { fips: '48113', name: 'Dallas County', state: 'TX', zipcode: '75007' },
          { fips: '48085', name: 'Collin County', state: 'TX', zipcode: '75007' },
        ],
      });
    });

    test('a 4-digit prefix: every county of every matching ZIP, by ZIP', async () => {
      const { counties } = await api.json<{ counties: { fips: string; zipcode: string }[] }>(
        '/counties/by/zip/7500',
      );
      assert.deepEqual(
        counties.map((c) => `${c.zipcode} ${c.fips}`),
        [
          '75001 48113',
          '75002 48085',
          '75006 48113',
          '75007 48121',
          '75007 48113',
          '75007 48085',
          '75009 48085',
          '75009 48121',
          '75009 48181',
        ],
      );
    });

    test('a short prefix is capped at 50 counties (114 rows start with 750)', async () => {
      const { counties } = await api.json<{ counties: { zipcode: string }[] }>('/counties/by/zip/750');
      assert.equal(counties.length, 50);
      assert.ok(counties.every((c) => c.zipcode.startsWith('750')));
      assert.equal(counties[0]!.zipcode, '75001');
    });

    test('a ZIP we do not know → an empty list', async () => {
      assert.deepEqual(await api.json('/counties/by/zip/00000'), { counties: [] });
    });

    for (const zip of ['7500a', '123456']) {
      test(`"${zip}" → 1003`, async () => {
        await assertPlanError(await api.get(`/counties/by/zip/${zip}`), {
          code: '1003',
          status: '400',
          message: 'invalid counties by zip request',
          error: 'zipcode: must be a 5-digit ZIP code or a 1-4 digit prefix',
        });
      });
    }
  });

  describe('GET /counties/{fips}', () => {
    test('a county by FIPS', async () => {
      assert.deepEqual(await api.json('/counties/48113'), {
        fips: '48113',
        name: 'Dallas County',
        state: 'TX',
      });
    });

    test('no such county → 1001', async () => {
      await assertPlanError(await api.get('/counties/48999'), {
        code: '1001',
        status: '404',
        message: 'county not found',
        error: 'no county with FIPS 48999',
      });
    });

    test('a malformed FIPS → 1003 "invalid get county request"', async () => {
      await assertPlanError(await api.get('/counties/4811'), {
        code: '1003',
        status: '400',
        message: 'invalid get county request',
        error: 'FIPS: has invalid format',
      });
    });
  });

  describe('GET /rate-areas', () => {
    const area = (query: string) => api.json(`/rate-areas?${query}`);

    test('a county of the 2025 table (Dallas County TX → 8, Denton → 25)', async () => {
      assert.deepEqual(await area('state=TX&fips=48113&zipcode=75001&year=2025'), { state: 'TX', area: 8 });
      assert.deepEqual(await area('state=TX&fips=48121&zipcode=75007&year=2025'), { state: 'TX', area: 25 });
    });

    test('Los Angeles County is split by 3-digit ZIP: 902xx → 16, 911xx → 15', async () => {
      // California runs its own exchange in 2025 and 2026 (1003, below); in a year whose marketplaces we
      // cannot tell, the 2025 tables answer.
      assert.deepEqual(await area('state=CA&fips=06037&zipcode=90210&year=2027'), { state: 'CA', area: 16 });
      assert.deepEqual(await area('state=CA&fips=06037&zipcode=91101&year=2027'), { state: 'CA', area: 15 });
      // Orange County is one area of its own, whatever the ZIP.
      assert.deepEqual(await area('state=CA&fips=06059&zipcode=92602&year=2027'), { state: 'CA', area: 15 });
    });

    test('a later year uses the latest table before it', async () => {
      assert.deepEqual(await area('state=TX&fips=48113&zipcode=75001&year=2026&market=Individual'), {
        state: 'TX',
        area: 8,
      });
    });

    test('a landscape year: the area the QHP Landscape gives the county (Ada County ID, 2014 → 6)', async () => {
      assert.deepEqual(await area('state=ID&fips=16001&zipcode=83702&year=2014'), { state: 'ID', area: 6 });
    });

    test('a state with its own exchange in the year → 1003 not a marketplace state (CA 2025)', async () => {
      await assertPlanError(await api.get('/rate-areas?state=CA&fips=06037&zipcode=90210&year=2025'), {
        code: '1003',
        status: '400',
        message: 'state is not a valid marketplace state',
        error: 'CA does not use HealthCare.gov in 2025: it runs its own exchange',
      });
    });

    test("a year with one state's landscape says nothing of the others: CA 2014 is not refused", async () => {
      // Only Idaho's 2014 landscape is loaded: no table for 2014 or before → 1017, not 1003.
      await assertPlanError(await api.get('/rate-areas?state=CA&fips=06037&zipcode=90210&year=2014'), {
        code: '1017',
        status: '404',
        message: 'rate area not found',
        error: 'No rate area could be determined',
      });
    });

    test('no table for the year or before it → 1017', async () => {
      await assertPlanError(await api.get('/rate-areas?state=TX&fips=48113&zipcode=75001&year=2024'), {
        code: '1017',
        status: '404',
        message: 'rate area not found',
        error: 'No rate area could be determined',
      });
    });

    const invalid: [string, string][] = [
      ['state=TX&zipcode=75001&year=2025', 'fips: must be a 5-digit county FIPS code'],
      ['state=TX&fips=48113&zipcode=7500&year=2025', 'zipcode: must be a 5-digit ZIP code'],
      ['state=TX&fips=48113&zipcode=75001&year=25', 'year: must be a 4-digit year'],
      ['state=tx&fips=48113&zipcode=75001&year=2025', 'state: must be a 2-letter USPS abbreviation'],
      ['state=ZZ&fips=48113&zipcode=75001&year=2025', 'state: ZZ is not a state'],
      ['state=TX&fips=06037&zipcode=90210&year=2025', 'fips: county 06037 is not in TX'],
      ['state=TX&fips=48113&zipcode=75001&year=2025&market=Group', 'market: must be Individual, SHOP or Any'],
    ];
    for (const [query, error] of invalid) {
      test(`${query} → 1003`, async () => {
        await assertPlanError(await api.get(`/rate-areas?${query}`), {
          code: '1003',
          status: '400',
          message: 'invalid rate area request',
          error,
        });
      });
    }
  });

  describe('the key gateway', () => {
    test('no key → 401', async () => {
      const response = await api.get('/counties/48113', '');
      assert.equal(response.status, 401);
      assert.deepEqual(await response.json(), { message: 'No API key found in request' });
    });

    test('an unknown key → 401', async () => {
      const response = await api.get('/counties/48113', '0'.repeat(32));
      assert.equal(response.status, 401);
      assert.deepEqual(await response.json(), { message: 'Invalid authentication credentials' });
    });
  });
});
