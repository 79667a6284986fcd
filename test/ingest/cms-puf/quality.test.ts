import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ingest } from '../../helpers/shared-data.js';
import { failedIngest, ingestSuite, rejectLines } from '../../helpers/ingest-suite.js';

const suite = ingestSuite('quality');

function row(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    IssuerID: '99999',
    State: 'TX',
    'Plan Type': 'HMO',
    Reportingunitid: '99999-TX-HMO',
    PlanID: '99999TX0010001',
    OverallRatingValue: '4',
    MedicalCareRatingValue: '3',
    MemberExperienceRatingValue: '5',
    PlanAdministrationRatingValue: '4',
    ...overrides,
  };
}

const ratings = (year: number) =>
  suite.storage.db
    .selectFrom('quality_ratings')
    .selectAll()
    .where('year', '=', year)
    .orderBy('plan_id')
    .execute();

describe('quality: fixtures in the QRS PUF layout', () => {
  it('needs --year: the file has no year column', async () => {
    const file = suite.csv('qrs.csv', [row()]);
    const error = await failedIngest(suite.storage, 'quality', [file]);
    assert.match(error.message, /this format has no year column; give --year/);
    assert.equal(await suite.count('quality_ratings'), 0);
  });

  it('stores ratings as written, stars and "NR - reason"', async () => {
    const file = suite.csv('qrs.csv', [
      row(),
      row({
        PlanID: '99999TX0010002',
        OverallRatingValue: 'NR - New-Ineligible for Scoring',
        MedicalCareRatingValue: 'NR - New-Ineligible for Scoring',
        MemberExperienceRatingValue: 'NR - Not Rated',
        PlanAdministrationRatingValue: 'NR',
      }),
      row(), // the same row again is dropped
    ]);
    const summary = await ingest(suite.storage, 'quality', [file], { year: 2026 });
    assert.deepEqual(summary.years, [2026]);
    assert.equal(summary.stored, 2);
    assert.deepEqual(
      (await ratings(2026)).map((r) => [
        r.plan_id,
        r.state,
        r.issuer_id,
        r.overall,
        r.medical_care,
        r.member_experience,
        r.plan_administration,
      ]),
      [
        ['99999TX0010001', 'TX', '99999', '4', '3', '5', '4'],
        [
          '99999TX0010002',
          'TX',
          '99999',
          'NR - New-Ineligible for Scoring',
          'NR - New-Ineligible for Scoring',
          'NR - Not Rated',
          'NR',
        ],
      ],
    );
    await ingest(suite.storage, 'quality', [file], { year: 2026 });
    assert.equal(await suite.count('quality_ratings', 2026), 2, 're-running replaces');
  });

  it('fails on bad rows with file:line and keeps the previous data unless rejects are allowed', async () => {
    const file = suite.csv('bad-qrs.csv', [
      row(),
      row({ PlanID: '99999TX00100' }),
      row({ PlanID: '99999TX0010003', OverallRatingValue: '6' }),
      row({ PlanID: '99999OK0010003' }),
      row({ OverallRatingValue: '5' }),
    ]);
    const error = await failedIngest(suite.storage, 'quality', [file], { year: 2026 });
    assert.deepEqual(rejectLines(error.summary), [
      'bad-qrs.csv:3: PlanID "99999TX00100" is not a 14-character HIOS plan id',
      'bad-qrs.csv:4: OverallRatingValue "6" is not a rating 1–5 or "NR - reason"',
      'bad-qrs.csv:5: PlanID 99999OK0010003 is not a plan of issuer 99999 in TX',
      'bad-qrs.csv:6: PlanID 99999TX0010001 is rated twice, differently',
    ]);
    assert.equal(await suite.count('quality_ratings', 2026), 2);
    await ingest(suite.storage, 'quality', [file], { year: 2026, allowRejects: 4 });
    assert.equal(await suite.count('quality_ratings', 2026), 1);
  });

  it('refuses a file without the rating columns', async () => {
    const rows = [row()].map(({ OverallRatingValue: _o, ...rest }) => rest);
    const error = await failedIngest(suite.storage, 'quality', [suite.csv('no-overall.csv', rows)], {
      year: 2026,
    });
    assert.match(error.message, /missing column "OverallRatingValue"/);
  });
});
