import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { HEALTHCARE_GOV_STATES } from '../../src/plans/tables/healthcare-gov-states.js';
import { ingest, sharedData, skipWithoutSharedData } from '../helpers/shared-data.js';
import { REAL, assertPlanError, filesOf, planApiSuite, type Load } from './plan-api.js';

describe('the HealthCare.gov states table', () => {
  test(
    '2025: the 31 states with Individual rows in the PY2025 Plan Attributes PUF (states.csv)',
    { skip: skipWithoutSharedData('geo/states.csv') },
    () => {
      const [header, ...lines] = readFileSync(sharedData('geo/states.csv'), 'utf8').trim().split(/\r?\n/);
      const columns = header!.split(',');
      const usps = columns.indexOf('usps');
      const flag = columns.indexOf('in_2025_healthcare_gov_puf');
      const fromPuf = lines.map((l) => l.split(',')).filter((c) => c[flag] === 'Y');
      assert.deepEqual([...HEALTHCARE_GOV_STATES[2025]!].sort(), fromPuf.map((c) => c[usps]).sort());
      assert.equal(HEALTHCARE_GOV_STATES[2025]!.length, 31);
    },
  );

  test('2026: the 2025 list without Illinois (its own exchange from PY2026)', () => {
    assert.deepEqual(
      HEALTHCARE_GOV_STATES[2026],
      HEALTHCARE_GOV_STATES[2025]!.filter((s) => s !== 'IL'),
    );
  });
});

/** Plan Attributes PUF rows (one standard silver variant) of a fictional issuer's plan in `state`. */
function pufRows(year: number, state: string, issuer: string): Record<string, string>[] {
  const plan = `${issuer}${state}0010001`;
  return [
    {
      BusinessYear: String(year),
      StateCode: state,
      IssuerId: issuer,
      IssuerMarketPlaceMarketingName: `Fixture Health of ${state}`,
      MarketCoverage: 'Individual',
      DentalOnlyPlan: 'No',
      StandardComponentId: plan,
      PlanMarketingName: 'Fixture Silver',
      PlanType: 'HMO',
      MetalLevel: 'Silver',
      DesignType: 'Not Applicable',
      PlanId: `${plan}-01`,
      CSRVariationType: 'Standard Silver On Exchange Plan',
      IsHSAEligible: 'No',
    },
  ];
}

const landscapes2016: Load = {
  kind: 'landscape',
  files: ['HI', 'NM', 'NV', 'OR'].map(
    (s) => `premiums/qhp_landscape_2014_2017/2016_QHP_Landscape_${s}_Individual_Market_Medical.csv`,
  ),
};
const loads = [REAL.counties, REAL.ratingAreas2014, REAL.ratingAreas2025, landscapes2016];
const skip = skipWithoutSharedData(...filesOf(...loads));

interface StateBody {
  abbrev: string;
  marketplace_model?: string;
  hix_name: string;
}

// Loaded on top of the real files: a fixture PUF of one Texas plan flagged real for 2031 (what a real
// national PUF of a year without a table row decides), sample-flagged PUFs (the zero-setup sample market
// is Texas only) for 2026 (a table year), 2016 (a year with real landscapes) and 2032 (nothing else
// known), and a Plan ID Crosswalk row for California 2025.
describe('which states use HealthCare.gov, per year (table, real PUF, landscape, sample)', { skip }, () => {
  const api = planApiSuite(loads);
  const load = async (kind: string, name: string, rows: Record<string, string>[], sample: boolean) => {
    const summary = await ingest(api.running.service.storage, kind, [api.csv(name, rows)], { sample });
    assert.equal(summary.rejectedCount, 0, JSON.stringify(summary.rejected));
  };

  before(async () => {
    await load('plan-attributes', 'puf-2031.csv', pufRows(2031, 'TX', '99999'), false);
    for (const year of [2016, 2026, 2032]) {
      await load('plan-attributes', `sample-${year}.csv`, pufRows(year, 'TX', '99991'), true);
    }
    const crosswalk = {
      State: 'CA',
      DentalPlan: 'No',
      PlanID_2025: '99999CA0010001',
      IssuerID_2025: '99999',
      FIPSCode: '06037',
      ZipCode: '00000',
      CrosswalkLevel: '1',
      ReasonForCrosswalk: '2',
      PlanID_2026: '99999CA0010002',
      IssuerID_2026: '99999',
      AgeOffPlanID_2026: '',
    };
    await load('crosswalk', 'crosswalk.csv', [crosswalk], false);
    api.running.service.plans.samples.refresh();
  });

  const models = async (year: number) => {
    const { states } = await api.json<{ states: StateBody[] }>(`/states?year=${year}`);
    return Object.fromEntries(states.map((s) => [s.abbrev, s.marketplace_model]));
  };
  const ownExchange = (state: string, year: number) => ({
    code: '1003',
    status: '400',
    message: 'state is not a valid marketplace state',
    error: `${state} does not use HealthCare.gov in ${year}: it runs its own exchange`,
  });

  test('a table year: the cited list, whatever plans are loaded (sample Texas market in 2026)', async () => {
    const y2026 = await models(2026);
    assert.deepEqual(
      Object.keys(y2026)
        .filter((s) => y2026[s] === 'FFM')
        .sort(),
      [...HEALTHCARE_GOV_STATES[2026]!].sort(),
    );
    // The sample market's Texas plans do not make Florida or any other real state SBM.
    assert.equal(y2026.FL, 'FFM');
    assert.equal(y2026.CA, 'SBM');
    // Illinois left HealthCare.gov for 2026.
    assert.equal((await models(2025)).IL, 'FFM');
    assert.equal(y2026.IL, 'SBM');
    await assertPlanError(
      await api.get('/rate-areas?state=IL&fips=17031&zipcode=60601&year=2026'),
      ownExchange('IL', 2026),
    );
    assert.deepEqual(await api.json('/rate-areas?state=IL&fips=17031&zipcode=60601&year=2025'), {
      state: 'IL',
      area: 1,
    });
  });

  test("a year with a few states' landscapes: those states FFM, the others unknown, nobody refused", async () => {
    const y2016 = await models(2016);
    assert.deepEqual(
      Object.keys(y2016).filter((s) => y2016[s] !== undefined),
      ['HI', 'NV', 'NM', 'OR'],
    );
    assert.ok(Object.values(y2016).every((m) => m === undefined || m === 'FFM'));
    // Texas 2016: the sample's Texas plans decide nothing next to real data; no 1003, the 2014 table's area.
    assert.equal(y2016.TX, undefined);
    assert.deepEqual(await api.json('/rate-areas?state=TX&fips=48113&zipcode=75001&year=2016'), {
      state: 'TX',
      area: 8,
    });
    assert.equal((await api.json<{ total: number }>('/issuers?year=2016&state=CA')).total, 0);
  });

  test('a year without a table row: a real Plan Attributes PUF gives the whole list', async () => {
    const y2031 = await models(2031);
    assert.equal(y2031.TX, 'FFM');
    assert.equal(y2031.CA, 'SBM');
    assert.equal(y2031.FL, 'SBM');
    await assertPlanError(
      await api.get('/rate-areas?state=FL&fips=12086&zipcode=33101&year=2031'),
      ownExchange('FL', 2031),
    );
    await assertPlanError(await api.get('/issuers?year=2031&state=CA'), ownExchange('CA', 2031));
  });

  test('only the sample market for the year: its state counts, the others stay unknown', async () => {
    const y2032 = await models(2032);
    assert.equal(y2032.TX, 'FFM');
    assert.equal(y2032.CA, undefined);
    assert.deepEqual(await api.json('/rate-areas?state=CA&fips=06059&zipcode=92602&year=2032'), {
      state: 'CA',
      area: 15,
    });
  });

  test('a year nothing tells: no model, no refusal', async () => {
    const y2030 = await models(2030);
    assert.ok(Object.values(y2030).every((m) => m === undefined));
    const state = await api.json<StateBody>('/states/CA?year=2030');
    assert.equal(state.hix_name, '');
  });

  test('/issuers?state= and /crosswalk refuse a state with its own exchange (CA 2025)', async () => {
    await assertPlanError(await api.get('/issuers?year=2025&state=CA'), ownExchange('CA', 2025));
    await assertPlanError(
      await api.get('/crosswalk?year=2025&plan_id=99999CA0010001&state=CA&zipcode=90210&fips=06037'),
      ownExchange('CA', 2025),
    );
    // A HealthCare.gov state's issuers are listed.
    assert.equal((await api.json<{ total: number }>('/issuers?year=2025&state=TX')).total, 0);
  });
});
