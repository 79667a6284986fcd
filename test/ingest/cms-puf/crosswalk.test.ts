import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ingest } from '../../helpers/shared-data.js';
import { failedIngest, ingestSuite, rejectLines } from '../../helpers/ingest-suite.js';

const suite = ingestSuite('crosswalk');

/**
 * The PY2025 → PY2026 layout (the PUF's published header: docs/decisions.md#crosswalk-puf), in column
 * order.
 */
function row(overrides: Record<string, string> = {}, from = 2025, to = 2026): Record<string, string> {
  return {
    State: 'TX',
    DentalPlan: 'No',
    [`PlanID_${from}`]: '99999TX0010001',
    [`IssuerID_${from}`]: '99999',
    [`MultistatePlan_${from}`]: 'No',
    [`MetalLevel_${from}`]: 'Silver',
    [`ChildAdultOnly_${from}`]: '0',
    FIPSCode: '48201',
    ZipCode: '00000',
    CrosswalkLevel: '1',
    ReasonForCrosswalk: '2',
    [`PlanID_${to}`]: '99999TX0010007',
    [`IssuerID_${to}`]: '99999',
    [`MultistatePlan_${to}`]: 'No',
    [`MetalLevel_${to}`]: 'Silver',
    [`ChildAdultOnly_${to}`]: '0',
    [`AgeOffPlanID_${to}`]: '',
    [`IssuerID_AgeOff${to}`]: '',
    [`MultistatePlan_AgeOff${to}`]: '',
    [`MetalLevel_AgeOff${to}`]: '',
    [`ChildAdultOnly_AgeOff${to}`]: '',
    ...(to === 2026
      ? { ReasonForBronzeToSilverCrosswalk: '', SilverCSREligPlanID_2026: '', SilverCSREligIssuerID_2026: '' }
      : {}),
    ...overrides,
  };
}

const crosswalks = (year: number) =>
  suite.storage.db.selectFrom('crosswalks').selectAll().where('year', '=', year).orderBy('zip').execute();

describe('crosswalk: fixtures in the Plan ID Crosswalk PUF layout', () => {
  it('stores each mapping under the earlier plan year, found from the PlanID_YYYY columns', async () => {
    const file = suite.csv('crosswalk-2026.csv', [
      row(),
      row({ ZipCode: '77002', CrosswalkLevel: '3', AgeOffPlanID_2026: '99999TX0010009' }),
      row({ ZipCode: '77003', CrosswalkLevel: '4', ReasonForCrosswalk: '8', PlanID_2026: '' }),
    ]);
    const summary = await ingest(suite.storage, 'crosswalk', [file]);
    assert.deepEqual(summary.years, [2025]);
    assert.equal(summary.rejectedCount, 0);
    const rows = await crosswalks(2025);
    assert.deepEqual(
      rows.map((r) => [
        r.old_plan_id,
        r.fips,
        r.zip,
        Number(r.level),
        Number(r.reason),
        r.new_plan_id,
        r.ageoff_plan_id,
      ]),
      [
        ['99999TX0010001', '48201', '00000', 1, 2, '99999TX0010007', null],
        ['99999TX0010001', '48201', '77002', 3, 2, '99999TX0010007', '99999TX0010009'],
        ['99999TX0010001', '48201', '77003', 4, 8, null, null],
      ],
    );
  });

  it('reads an older pair of years the same way (PY2015 → PY2016 under 2015)', async () => {
    const file = suite.csv('crosswalk-2016.csv', [row({}, 2015, 2016)]);
    const summary = await ingest(suite.storage, 'crosswalk', [file]);
    assert.deepEqual(summary.years, [2015]);
    assert.equal(await suite.count('crosswalks', 2015), 1);
  });

  it('re-running replaces the year', async () => {
    const file = suite.csv('crosswalk-again.csv', [row()]);
    await ingest(suite.storage, 'crosswalk', [file]);
    await ingest(suite.storage, 'crosswalk', [file]);
    assert.equal(await suite.count('crosswalks', 2025), 1);
  });

  it('refuses a --year that is not the earlier plan year of the file', async () => {
    const file = suite.csv('crosswalk-year.csv', [row()]);
    const error = await failedIngest(suite.storage, 'crosswalk', [file], { year: 2026 });
    assert.deepEqual(rejectLines(error.summary), [
      'crosswalk-year.csv:2: the row is for 2025, the load is for 2026',
    ]);
  });

  it('fails on bad FIPS, plan ids and codes with file:line, keeping the previous data', async () => {
    const file = suite.csv('bad-crosswalk.csv', [
      row(),
      row({ FIPSCode: '4820' }),
      row({ FIPSCode: '40109' }),
      row({ PlanID_2025: '99999TX001' }),
      row({ PlanID_2026: '9999TX0010007' }),
      row({ CrosswalkLevel: '7' }),
      row({ ZipCode: '7700' }),
      row({ ReasonForCrosswalk: '' }),
    ]);
    const error = await failedIngest(suite.storage, 'crosswalk', [file]);
    assert.deepEqual(rejectLines(error.summary), [
      'bad-crosswalk.csv:3: FIPSCode "4820" is not a 5-digit county FIPS code',
      'bad-crosswalk.csv:4: FIPSCode 40109 is not a county of TX',
      'bad-crosswalk.csv:5: PlanID_2025 "99999TX001" is not a 14-character HIOS plan id',
      'bad-crosswalk.csv:6: PlanID_2026 "9999TX0010007" is not a 14-character HIOS plan id',
      'bad-crosswalk.csv:7: CrosswalkLevel "7" is not a code from 0 to 5',
      'bad-crosswalk.csv:8: ZipCode "7700" is not a 5-digit ZIP code (00000 for the county)',
      'bad-crosswalk.csv:9: ReasonForCrosswalk "" is not a code from 0 to 99',
    ]);
    assert.equal(await suite.count('crosswalks', 2025), 1);
    const summary = await ingest(suite.storage, 'crosswalk', [file], { allowRejects: 7 });
    assert.equal(summary.stored, 1);
  });

  it('refuses a file without a PlanID_{N-1} / PlanID_N pair', async () => {
    const rows = [row()].map(({ PlanID_2026: _new, ...rest }) => rest);
    const error = await failedIngest(suite.storage, 'crosswalk', [suite.csv('one-year.csv', rows)]);
    assert.match(
      error.message,
      /not a crosswalk file: missing columns "PlanID_<year>", "PlanID_<year \+ 1>"/,
    );
  });
});
