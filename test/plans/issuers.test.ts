import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { skipWithoutSharedData } from '../helpers/shared-data.js';
import { REAL, assertPlanError, filesOf, planApiSuite } from './plan-api.js';

// Real files: the PY2025 Plan Attributes PUF (405 issuers in 31 states), and for 2014 the Idaho QHP
// Landscape (issuer phone numbers) with the 2014 Business Rules PUF (eligible dependents).
const loads = [REAL.counties, REAL.landscapeIdaho2014, REAL.businessRules2014, REAL.planAttributes2025];
const skip = skipWithoutSharedData(...filesOf(...loads));

interface IssuerBody {
  id: string;
  name: string;
  state: string;
}

describe('plan API issuers (real Plan Attributes, Landscape and Business Rules files)', { skip }, () => {
  const api = planApiSuite(loads);

  describe('GET /issuers', () => {
    test("a state's issuers of a year, by id (Kansas PY2025: 12)", async () => {
      const page = await api.json<{ issuers: IssuerBody[]; total: number }>('/issuers?year=2025&state=KS');
      assert.equal(page.total, 12);
      assert.deepEqual(
        page.issuers.map((i) => `${i.id} ${i.name}`),
        [
          '11339 Dentegra Insurance Company',
          '18558 Blue Cross and Blue Shield of Kansas, Inc.',
          '25268 TRUASSURE INSURANCE COMPANY',
          '34368 Ambetter from Sunflower Health Plan',
          '39520 Medica',
          '43490 Oscar Insurance Company',
          '61779 Guardian',
          '63790 BEST Life',
          '84600 Aetna CVS Health',
          '94248 Blue Cross and Blue Shield of Kansas City',
          '94968 UnitedHealthcare',
          '95038 Renaissance Dental',
        ],
      );
      assert.ok(page.issuers.every((i) => i.state === 'KS'));
    });

    test('pages of 25 by default; total counts every match (Texas PY2025: 31)', async () => {
      const first = await api.json<{ issuers: IssuerBody[]; total: number }>('/issuers?year=2025&state=TX');
      assert.equal(first.total, 31);
      assert.equal(first.issuers.length, 25);
      assert.deepEqual(
        first.issuers.slice(0, 3).map((i) => i.id),
        ['11718', '12846', '17933'],
      );
      const second = await api.json<{ issuers: IssuerBody[]; total: number }>(
        '/issuers?year=2025&state=TX&offset=25',
      );
      assert.equal(second.total, 31);
      assert.equal(second.issuers.length, 6);
      const ids = [...first.issuers, ...second.issuers].map((i) => i.id);
      assert.deepEqual(ids, [...ids].sort());
    });

    test('the year defaults to the current market year (2025: 405 issuers); limit up to 100', async () => {
      const page = await api.json<{ issuers: IssuerBody[]; total: number }>('/issuers?limit=100');
      assert.equal(page.total, 405);
      assert.equal(page.issuers.length, 100);
    });

    const invalid: [string, string][] = [
      ['limit=101', 'limit: must be an integer from 1 to 100'],
      ['limit=0', 'limit: must be an integer from 1 to 100'],
      ['offset=-1', 'offset: must be an integer from 0 to 100000'],
      // Past any issuer count (HIOS ids have five digits); 1e20 overflowed both databases (500).
      ['offset=100001', 'offset: must be an integer from 0 to 100000'],
      ['offset=1e20', 'offset: must be an integer from 0 to 100000'],
      ['limit=1e20', 'limit: must be an integer from 1 to 100'],
      ['state=Texas', 'state: must be a 2-letter USPS abbreviation'],
      ['state=ZZ', 'state: ZZ is not a state'],
    ];
    for (const [query, error] of invalid) {
      test(`${query} → 1003`, async () => {
        await assertPlanError(await api.get(`/issuers?${query}`), {
          code: '1003',
          status: '400',
          message: 'invalid issuers request',
          error,
        });
      });
    }

    test('the largest offset is honoured: an empty page, the total still counted', async () => {
      assert.deepEqual(await api.json('/issuers?year=2025&state=TX&offset=100000'), {
        issuers: [],
        total: 31,
      });
    });

    test('a state with its own exchange in the year → 1003 not a marketplace state (CA 2025)', async () => {
      await assertPlanError(await api.get('/issuers?year=2025&state=CA'), {
        code: '1003',
        status: '400',
        message: 'state is not a valid marketplace state',
        error: 'CA does not use HealthCare.gov in 2025: it runs its own exchange',
      });
    });

    test('a year whose marketplaces we cannot tell: no refusal, only the issuers we hold', async () => {
      // 2014: only Idaho's landscape is loaded, which says nothing of California.
      assert.deepEqual(await api.json('/issuers?year=2014&state=CA'), { issuers: [], total: 0 });
    });
  });

  describe('GET /issuers/{issuer_id}', () => {
    test('an issuer of the PY2025 Plan Attributes PUF; nothing the PUF does not say', async () => {
      assert.deepEqual(await api.json('/issuers/11718?year=2025'), {
        issuer: {
          id: '11718',
          name: 'Community Health Choice',
          state: 'TX',
          individual_url: '',
          shop_url: '',
          toll_free: '',
          tty: '',
          eligible_dependents: [],
        },
      });
      // The PUF lists 6 plans (StandardComponentId) of issuer 11718.
      const plans = await api.running.service.storage.db
        .selectFrom('plans')
        .select('plan_id')
        .where('year', '=', 2025)
        .where('issuer_id', '=', '11718')
        .execute();
      assert.equal(plans.length, 6);
    });

    test('phones from the 2014 landscape, eligible dependents from the 2014 Business Rules PUF', async () => {
      // Business_Rules_PUF_2014.csv, issuer 59765 (issuer-wide row), CohabitationRule: Spouse,No;Adopted
      // Child,No;Ward,No;Stepson or Stepdaughter,No;Self,Yes;Child,No;Court Appointed Guardian,No;Life
      // Partner,Yes — every relationship but Self.
      assert.deepEqual(await api.json('/issuers/59765?year=2014'), {
        issuer: {
          id: '59765',
          name: 'BridgeSpan Health Company',
          state: 'ID',
          individual_url: '',
          shop_url: '',
          toll_free: '1-855-857-9961',
          tty: '1-800-735-2900',
          eligible_dependents: [
            'Spouse',
            'Adopted Child',
            'Ward',
            'Stepson or Stepdaughter',
            'Child',
            'Court Appointed Guardian',
            'Life Partner',
          ],
        },
      });
    });

    test('no such issuer in the year → 1004', async () => {
      await assertPlanError(await api.get('/issuers/59765?year=2025'), {
        code: '1004',
        status: '404',
        message: 'issuer not found',
        error: 'no issuer 59765 in 2025',
      });
    });

    for (const id of ['1234', 'ABCDE', '123456']) {
      test(`issuer id "${id}" → 1003 invalid issuer ID format`, async () => {
        await assertPlanError(await api.get(`/issuers/${id}`), {
          code: '1003',
          status: '400',
          message: 'invalid issuers request',
          error: 'invalid issuer ID format',
        });
      });
    }
  });
});
