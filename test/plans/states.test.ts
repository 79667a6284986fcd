import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { skipWithoutSharedData } from '../helpers/shared-data.js';
import { REAL, assertPlanError, filesOf, planApiSuite } from './plan-api.js';

// Real files: Census county names (the landscape needs them), the PY2014 Idaho QHP Landscape (so 2014 has
// plans in one state) and the Medicaid/CHIP income limits 2014–2026.
const loads = [REAL.counties, REAL.landscapeIdaho2014, REAL.medicaid];
const skip = skipWithoutSharedData(...filesOf(...loads));

interface StateBody {
  abbrev: string;
  marketplace_model?: string;
  hix_name: string;
}

describe('plan API states (real landscape and Medicaid files)', { skip }, () => {
  const api = planApiSuite(loads);

  describe('GET /states and /states/{abbrev}', () => {
    test('the 50 states and DC; a year with one landscape: its state FFM, the others unknown', async () => {
      const { states } = await api.json<{ states: StateBody[] }>('/states?year=2014');
      assert.equal(states.length, 51);
      const model = (abbrev: string) => states.find((s) => s.abbrev === abbrev)?.marketplace_model;
      assert.equal(model('ID'), 'FFM');
      // Idaho's landscape says nothing of California: no model claimed.
      assert.equal(model('CA'), undefined);
      assert.deepEqual(
        states.filter((s) => s.marketplace_model !== undefined).map((s) => s.abbrev),
        ['ID'],
      );
    });

    test('a year of the cited table: the 31 HealthCare.gov states of PY2025 FFM, the rest SBM', async () => {
      const { states } = await api.json<{ states: StateBody[] }>('/states?year=2025');
      const ffm = states.filter((s) => s.marketplace_model === 'FFM').map((s) => s.abbrev);
      assert.equal(ffm.length, 31);
      assert.ok(ffm.includes('TX') && ffm.includes('IL'));
      assert.equal(states.find((s) => s.abbrev === 'DC')?.marketplace_model, 'SBM');
    });

    test('a state on the federal platform', async () => {
      assert.deepEqual(await api.json('/states/ID?year=2014'), {
        abbrev: 'ID',
        fips: '16',
        name: 'Idaho',
        marketplace_model: 'FFM',
        shop_marketplace_model: 'FFM',
        hix_name: 'HealthCare.gov',
        hix_url: 'https://www.healthcare.gov/',
        shop_hix_name: 'HealthCare.gov',
        shop_hix_url: 'https://www.healthcare.gov/small-businesses/',
        '8962_link': '',
        '8965_link': '',
        assister_program_url: 'https://localhelp.healthcare.gov/',
      });
    });

    test('a state with its own exchange: no address we could vouch for', async () => {
      assert.deepEqual(await api.json('/states/CA?year=2025'), {
        abbrev: 'CA',
        fips: '06',
        name: 'California',
        marketplace_model: 'SBM',
        shop_marketplace_model: 'SBM',
        hix_name: '',
        hix_url: '',
        shop_hix_name: '',
        shop_hix_url: '',
        '8962_link': '',
        '8965_link': '',
        assister_program_url: '',
      });
    });

    test('the year defaults to the current market year (2014, the only one with plans)', async () => {
      assert.equal((await api.json<StateBody>('/states/ID')).marketplace_model, 'FFM');
    });

    test('a year neither the table nor our data tells: no model is claimed', async () => {
      const state = await api.json<StateBody>('/states/ID?year=2030');
      assert.equal(state.marketplace_model, undefined);
      assert.equal(state.hix_name, '');
    });

    for (const abbrev of ['NP', 'tx', 'PR']) {
      test(`/states/${abbrev} → 1002`, async () => {
        await assertPlanError(await api.get(`/states/${abbrev}`), {
          code: '1002',
          status: '404',
          message: 'state not found',
          error: `no state ${abbrev}`,
        });
      });
    }
  });

  describe('GET /states/{abbrev}/medicaid', () => {
    test('a non-expansion state: adult 0 (Kansas, January 2025)', async () => {
      // medicaid_chip_income_limits_pct_fpl.csv 2025 KS: parent 38, pregnant 171, adult empty, infant 171,
      // 1–5 154, 6–18 138, separate CHIP child 255, young adult empty.
      assert.deepEqual(await api.json('/states/KS/medicaid?year=2025'), {
        name: 'KANSAS',
        abbrev: 'KS',
        fiscal_year: 2025,
        fiscal_quarter: 1,
        pc_fpl_parent: 0.38,
        pc_fpl_pregnant: 1.71,
        pc_fpl_adult: 0,
        pc_fpl_child_newborn: 1.71,
        pc_fpl_child_1_5: 1.54,
        pc_fpl_child_6_18: 1.38,
        low_income_child: [],
        chip: [{ min_age: 0, max_age: 18, pc_fpl: 2.55 }],
      });
    });

    test('an expansion state: adult 1.38 (Arizona, January 2025)', async () => {
      assert.deepEqual(await api.json('/states/AZ/medicaid?year=2025&quarter=1'), {
        name: 'ARIZONA',
        abbrev: 'AZ',
        fiscal_year: 2025,
        fiscal_quarter: 1,
        pc_fpl_parent: 1.11,
        pc_fpl_pregnant: 1.61,
        pc_fpl_adult: 1.38,
        pc_fpl_child_newborn: 1.52,
        pc_fpl_child_1_5: 1.46,
        pc_fpl_child_6_18: 1.38,
        low_income_child: [],
        chip: [{ min_age: 0, max_age: 18, pc_fpl: 2.3 }],
      });
    });

    test('young adults 19–20 covered (Florida 2025: 29%) → low_income_child', async () => {
      const florida = await api.json<{ low_income_child: unknown[]; pc_fpl_adult: number }>(
        '/states/FL/medicaid?year=2025',
      );
      assert.deepEqual(florida.low_income_child, [{ min_age: 19, max_age: 20, pc_fpl: 0.29 }]);
      assert.equal(florida.pc_fpl_adult, 0);
    });

    test('a category the source has no figure for is left out, not 0 (California 2014, pregnant)', async () => {
      const california = await api.json<Record<string, unknown>>('/states/CA/medicaid?year=2014');
      assert.equal(california.pc_fpl_adult, 1.38);
      assert.equal('pc_fpl_pregnant' in california, false);
      assert.deepEqual(california.chip, []);
    });

    test('the year defaults to the current market year (2014)', async () => {
      assert.equal((await api.json<{ fiscal_year: number }>('/states/KS/medicaid')).fiscal_year, 2014);
    });

    test('no data for the year or quarter → 1008', async () => {
      await assertPlanError(await api.get('/states/KS/medicaid?year=2013'), {
        code: '1008',
        status: '404',
        message: 'state medicaid not found',
        error: 'no Medicaid data for KS, year 2013',
      });
      await assertPlanError(await api.get('/states/KS/medicaid?year=2025&quarter=2'), {
        code: '1008',
        status: '404',
        message: 'state medicaid not found',
        error: 'no Medicaid data for KS, year 2025, quarter 2',
      });
    });

    test('a quarter outside 1–4 → 1003; an unknown state → 1002', async () => {
      await assertPlanError(await api.get('/states/KS/medicaid?year=2025&quarter=5'), {
        code: '1003',
        status: '400',
        message: 'invalid state medicaid request',
        error: 'quarter: must be 1, 2, 3 or 4',
      });
      await assertPlanError(await api.get('/states/XX/medicaid?year=2025'), {
        code: '1002',
        status: '404',
        message: 'state not found',
        error: 'no state XX',
      });
    });
  });

  describe('GET /states/{abbrev}/poverty-guidelines (year = market year → guidelines of year − 1)', () => {
    const sizes = (list: number[]) => list.map((guideline, i) => ({ household_size: i + 1, guideline }));

    test('market year 2026 → the 2025 guidelines, 48 states (15,650 + 5,500 per person)', async () => {
      assert.deepEqual(await api.json('/states/KS/poverty-guidelines?year=2026'), {
        add_per_person_after_eight: 5500,
        guidelines: sizes([15650, 21150, 26650, 32150, 37650, 43150, 48650, 54150]),
      });
    });

    test('Alaska has its own table (2025: 19,550 + 6,880)', async () => {
      assert.deepEqual(await api.json('/states/AK/poverty-guidelines?year=2026'), {
        add_per_person_after_eight: 6880,
        guidelines: sizes([19550, 26430, 33310, 40190, 47070, 53950, 60830, 67710]),
      });
    });

    test('the 2016 guidelines keep the 2015 figures where the formula falls below them', async () => {
      // 81 FR 4036: 48 states sizes 7–8 stay 36,730 / 40,890 (formula 36,720 / 40,860), over 8 add 4,160.
      assert.deepEqual(await api.json('/states/TX/poverty-guidelines?year=2017'), {
        add_per_person_after_eight: 4160,
        guidelines: sizes([11880, 16020, 20160, 24300, 28440, 32580, 36730, 40890]),
      });
      // Hawaii: size 8 stays 47,010 (formula 46,990), over 8 add 4,780.
      assert.deepEqual(await api.json('/states/HI/poverty-guidelines?year=2017'), {
        add_per_person_after_eight: 4780,
        guidelines: sizes([13670, 18430, 23190, 27950, 32710, 37470, 42230, 47010]),
      });
    });

    for (const year of [2013, 2028]) {
      test(`market year ${year}: no guidelines held → 1009`, async () => {
        await assertPlanError(await api.get(`/states/KS/poverty-guidelines?year=${year}`), {
          code: '1009',
          status: '400',
          message: 'poverty guideline not found',
          error: `no poverty guidelines for market year ${year}`,
        });
      });
    }

    test('a year that is not 4 digits → 1003; an unknown state → 1002', async () => {
      await assertPlanError(await api.get('/states/KS/poverty-guidelines?year=26'), {
        code: '1003',
        status: '400',
        message: 'invalid poverty guideline request',
        error: 'year: must be a 4-digit market year',
      });
      await assertPlanError(await api.get('/states/ZZ/poverty-guidelines?year=2026'), {
        code: '1002',
        status: '404',
        message: 'state not found',
        error: 'no state ZZ',
      });
    });
  });
});
