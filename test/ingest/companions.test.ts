import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DEFAULT_MARKET,
  FIXTURE_AREAS,
  planAttributesRows,
  rateRows,
  ratingAreaRows,
} from '../helpers/priced-market.js';
import { ingest } from '../helpers/shared-data.js';
import { planApiSuite } from '../plans/plan-api.js';

// Issue 17 point 6: loading rates for a year with no rating-area table succeeded silently, then every
// priced request of that year failed with 1017. The load now warns, in its summary (and so in `--json`).

const YEAR = DEFAULT_MARKET.year;

describe('issue 17 point 6: ingest warns about what a loaded year still lacks', () => {
  const api = planApiSuite([]);
  const load = (kind: string, name: string, rows: Record<string, string>[], year?: number) =>
    ingest(api.running.service.storage, kind, [api.csv(name, rows)], year === undefined ? {} : { year });

  test('rates without a rating-area table (nor plans) for the year: stored, with a warning each', async () => {
    const summary = await load('rates', 'rates.csv', rateRows());
    assert.equal(summary.rejectedCount, 0);
    assert.ok(summary.stored > 0);
    assert.deepEqual(summary.warnings, [
      `no rating-areas data is loaded for ${YEAR} or an earlier year: until it is, every priced request ` +
        `(plan search, eligibility estimates, SLCSP) fails with 1017 (openenroll ingest rating-areas ` +
        `--year ${YEAR} <county table>)`,
      `no plan-attributes data is loaded for ${YEAR}: until it is, the rates price no plan (openenroll ` +
        `ingest plan-attributes <Plan Attributes PUF>)`,
    ]);
    // `--json` prints the summary as it is: the warnings are in it.
    assert.equal((JSON.parse(JSON.stringify(summary)) as typeof summary).warnings?.length, 2);
  });

  test('with an earlier year’s rating-area table and the year’s plans: no warning', async () => {
    await load('rating-areas', 'areas.csv', ratingAreaRows(FIXTURE_AREAS), YEAR - 1);
    await load('plan-attributes', 'plans.csv', planAttributesRows());
    const summary = await load('rates', 'rates.csv', rateRows());
    assert.deepEqual(summary.warnings, []);
  });

  test('kinds that need nothing else warn about nothing', async () => {
    const summary = await load('rating-areas', 'areas-2030.csv', ratingAreaRows(FIXTURE_AREAS), 2030);
    assert.deepEqual(summary.warnings, []);
  });
});
