import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ingest, sharedData, skipWithoutSharedData } from '../../helpers/shared-data.js';
import { FICTIONAL_ISSUER_CELLS } from '../../helpers/fictional-issuer.js';
import { failedIngest, ingestSuite, rejectLines } from '../../helpers/ingest-suite.js';

const SAMPLE = 'premiums/rate_puf_kaggle_2016_sample/Rate_2016_TX_RatingArea3_age30.csv';
const suite = ingestSuite('rates');

const rates = (year: number, planId: string) =>
  suite.storage.db
    .selectFrom('plan_rates')
    .selectAll()
    .where('year', '=', year)
    .where('plan_id', '=', planId)
    .orderBy('age')
    .execute();

const realFile = skipWithoutSharedData(SAMPLE);

describe(
  'rates: 67 real PY2016 Rate PUF rows (old layout: VersionNum, IssuerId2, FederalTIN, RowNumber)',
  {
    skip: realFile,
  },
  () => {
    it('stores every row, in cents, with NA cells as absent', async () => {
      const summary = await ingest(suite.storage, 'rates', [sharedData(SAMPLE)]);
      assert.equal(summary.read, 67);
      assert.equal(summary.rejectedCount, 0);
      assert.deepEqual(summary.years, [2016]);
      assert.equal(await suite.count('plan_rates', 2016), 67);
      const [row, ...rest] = await rates(2016, '32673TX0640001');
      assert.equal(rest.length, 0);
      assert.deepEqual(
        { ...row!, year: Number(row!.year), rating_area: Number(row!.rating_area) },
        {
          year: 2016,
          plan_id: '32673TX0640001',
          state: 'TX',
          rating_area: 3,
          age: '30',
          tobacco: 'Tobacco User/Non-Tobacco User',
          effective_date: '2016-01-01',
          expiration_date: '2016-12-31',
          individual_rate: 15700,
          tobacco_rate: 17272,
          family: null,
        },
      );
      const [blue] = await rates(2016, '33602TX0460399');
      assert.equal(Number(blue!.individual_rate), 19649);
      assert.equal(Number(blue!.tobacco_rate), 22285);
    });

    it('re-running replaces the year', async () => {
      await ingest(suite.storage, 'rates', [sharedData(SAMPLE)]);
      assert.equal(await suite.count('plan_rates', 2016), 67);
    });
  },
);

function row(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    ...FICTIONAL_ISSUER_CELLS,
    RateEffectiveDate: '2031-01-01',
    RateExpirationDate: '2031-12-31',
    PlanId: '99999TX0010001',
    RatingAreaId: 'Rating Area 12',
    Tobacco: 'No Preference',
    Age: '0-14',
    IndividualRate: '301.07',
    IndividualTobaccoRate: '',
    Couple: '',
    PrimarySubscriberAndOneDependent: '',
    PrimarySubscriberAndTwoDependents: '',
    PrimarySubscriberAndThreeOrMoreDependents: '',
    CoupleAndOneDependent: '',
    CoupleAndTwoDependents: '',
    CoupleAndThreeOrMoreDependents: '',
    ...overrides,
  };
}

describe('rates: fixtures in the current layout', () => {
  it('keeps age bands as written, quarterly dates, and family tiers as JSON cents', async () => {
    const file = suite.csv('rates.csv', [
      row(),
      row({
        Age: '64 and over',
        Tobacco: 'Tobacco User/Non-Tobacco User',
        IndividualRate: '903.10',
        IndividualTobaccoRate: '1,083.72',
      }),
      row({
        Age: '40',
        RateEffectiveDate: '4/1/2031',
        RateExpirationDate: '6/30/2031',
        IndividualRate: '512',
      }),
      row({
        Age: 'Family Option',
        IndividualRate: '500',
        Couple: '1000',
        PrimarySubscriberAndOneDependent: '850.5',
        CoupleAndThreeOrMoreDependents: '2100',
      }),
    ]);
    const summary = await ingest(suite.storage, 'rates', [file]);
    assert.equal(summary.rejectedCount, 0);
    const rows = await rates(2031, '99999TX0010001');
    assert.deepEqual(
      rows.map((r) => [
        r.age,
        Number(r.rating_area),
        r.effective_date,
        r.individual_rate,
        r.tobacco_rate,
        r.family,
      ]),
      [
        ['0-14', 12, '2031-01-01', 30107, null, null],
        ['40', 12, '2031-04-01', 51200, null, null],
        ['64 and over', 12, '2031-01-01', 90310, 108372, null],
        [
          'Family Option',
          12,
          '2031-01-01',
          50000,
          null,
          '{"couple":100000,"primary_subscriber_and_one_dependent":85050,"couple_and_three_or_more_dependents":210000}',
        ],
      ],
    );
  });

  it('rejects bad rows with file:line and keeps the previous data unless rejects are allowed', async () => {
    const file = suite.csv('bad-rates.csv', [
      row(),
      row({ RatingAreaId: 'Area 12' }),
      row({ PlanId: '99999TX00100' }),
      row({ Age: 'sixty' }),
      row({ IndividualRate: '' }),
      row({ IndividualRate: '12,3x' }),
      row({ RateEffectiveDate: '2031-02-30' }),
    ]);
    const error = await failedIngest(suite.storage, 'rates', [file]);
    assert.deepEqual(rejectLines(error.summary), [
      'bad-rates.csv:3: RatingAreaId "Area 12" is not "Rating Area N"',
      'bad-rates.csv:4: PlanId "99999TX00100" is not a 14-character HIOS plan id',
      'bad-rates.csv:5: Age "sixty" is not an age band of the Rate PUF',
      'bad-rates.csv:6: IndividualRate is empty',
      'bad-rates.csv:7: IndividualRate "12,3x" is not an amount',
      'bad-rates.csv:8: RateEffectiveDate "2031-02-30" is not a date',
    ]);
    assert.equal(await suite.count('plan_rates', 2031), 4);
    await ingest(suite.storage, 'rates', [file], { allowRejects: 6 });
    assert.equal(await suite.count('plan_rates', 2031), 1);
  });

  it('refuses a file without IndividualRate', async () => {
    const rows = [row()].map(({ IndividualRate: _rate, ...rest }) => rest);
    const error = await failedIngest(suite.storage, 'rates', [suite.csv('no-rate.csv', rows)]);
    assert.match(error.message, /missing column "IndividualRate"/);
  });

  it('refuses a file whose quote never closes, storing nothing', async () => {
    const file = suite.file('open-quote.csv', 'BusinessYear,StateCode\n2031,"TX\n');
    const error = await failedIngest(suite.storage, 'rates', [file]);
    assert.match(error.message, /missing columns/);
    const broken = suite.file(
      'broken.csv',
      `${Object.keys(row()).join(',')}\n${Object.values(row()).join(',')}\n2031,"TX,\n`,
    );
    const malformed = await failedIngest(suite.storage, 'rates', [broken]);
    assert.match(malformed.message, /malformed CSV \(Quote Not Closed.*\); nothing was stored/);
    assert.equal(await suite.count('plan_rates', 2031), 1);
  });
});
