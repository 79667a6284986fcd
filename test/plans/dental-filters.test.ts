import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BENEFITS_COLUMNS } from '../../src/plans/tables/puf-columns.js';
import { benefitRow } from '../helpers/fictional-issuer.js';
import { fixturePlanIds, loadPricedMarket, postJson, type FixturePlanKey } from '../helpers/priced-market.js';
import { startService, type RunningService } from '../helpers/service.js';
import { SANDBOX_KEY, planApiSuite } from './plan-api.js';

// Plan search `filter.child_dental_coverage` and `filter.adult_dental_coverage` (docs/decisions.md#dental-coverage):
// a plan covers children's dental care when it lists one of "Dental Check-Up for Children", "Basic Dental
// Care - Child", "Major Dental Care - Child", "Orthodontia - Child" as covered in the Benefits and Cost
// Sharing PUF; adults' with "Routine Dental Services (Adult)", "Basic Dental Care - Adult", "Major Dental
// Care - Adult", "Orthodontia - Adult"; "Accidental Dental" is neither. A plan that lists benefits but none
// of a kind does not cover it; a plan that lists none is unknown and left out, and when no plan at the place
// lists any the criteria are not applied, with `data_notes.dental_coverage` saying so.
//
// The market is the fixture of test/helpers/priced-market.ts (Hays County TX, ZIP 78666, 2026: 12 plans, 11
// shown to a 40-year-old, who is not shown the catastrophic one), with a small Benefits PUF fixture below.

const YEAR = 2026;
const PLACE = { countyfips: '48209', state: 'TX', zipcode: '78666' };
const ID = fixturePlanIds();

/** A 40-year-old, income unknown: no credit, so premium_w_credit is the premium (base × 1.278 at 40). */
const ADULT = { age: 40, aptc_eligible: true, gender: 'Female', uses_tobacco: false };

interface Search {
  plans: { id: string; premium_w_credit: number }[];
  total: number;
  facet_groups: { name: string; facets: { value: string; count: number }[] }[];
  ranges: { premiums: { min: number | null; max: number | null } };
  data_notes?: Record<string, string>;
}

/** What each fixture plan lists of dental care (the plans not named list no benefits at all). */
const LISTED: Partial<Record<FixturePlanKey, [benefit: string, covered: boolean][]>> = {
  // Children's and adults' dental care.
  silverCsr: [
    ['Dental Check-Up for Children', true],
    ['Routine Dental Services (Adult)', true],
  ],
  // Children's only: the adults' benefit is listed "Not Covered".
  silverEhb: [
    ['Basic Dental Care - Child', true],
    ['Routine Dental Services (Adult)', false],
  ],
  // Adults' only: orthodontia for adults, the children's check-up "Not Covered".
  goldTobacco: [
    ['Orthodontia - Adult', true],
    ['Dental Check-Up for Children', false],
  ],
  // Lists benefits, but only accidental dental (neither kind) and a visit.
  bronzeHsa: [
    ['Accidental Dental', true],
    ['Primary Care Visit to Treat an Injury or Illness', true],
  ],
  // A children's benefit listed and not covered.
  platinum: [['Major Dental Care - Child', false]],
};

/** The fixture's Benefits PUF rows, in the published column order, on each plan's standard (-01) variant. */
function benefitsRows(): Record<string, string>[] {
  return Object.entries(LISTED).flatMap(([key, benefits]) => {
    const id = ID[key as FixturePlanKey];
    return benefits!.map(([name, covered]) => {
      const row = benefitRow(name, {
        BusinessYear: String(YEAR),
        StateCode: 'TX',
        IssuerId: id.slice(0, 5),
        ImportDate: `${YEAR - 1}-10-15 00:00:00`,
        StandardComponentId: id,
        PlanId: `${id}-01`,
        IsCovered: covered ? 'Covered' : 'Not Covered',
      });
      const unknown = Object.keys(row).filter((c) => !(BENEFITS_COLUMNS as readonly string[]).includes(c));
      assert.deepEqual(unknown, []);
      return Object.fromEntries(BENEFITS_COLUMNS.map((c) => [c, row[c] ?? '']));
    });
  });
}

const ids = (answer: Search) => answer.plans.map((p) => p.id).sort();

describe('dental coverage filters over the fixture PUF market (Hays County TX, 2026)', () => {
  const api = planApiSuite([]);
  before(() => loadPricedMarket(api));

  async function search(filter?: Record<string, unknown>): Promise<Search> {
    const response = await postJson(api.running.url, SANDBOX_KEY, '/plans/search', {
      place: PLACE,
      market: 'Individual',
      year: YEAR,
      household: { income: -1, people: [ADULT] },
      limit: 100,
      ...(filter ? { filter } : {}),
    });
    const text = await response.text();
    assert.equal(response.status, 200, text);
    const answer = JSON.parse(text) as Search;
    assert.equal(answer.plans.length, answer.total);
    return answer;
  }

  test('no Benefits PUF loaded: the criteria are not applied and data_notes.dental_coverage says so', async () => {
    const all = await search();
    assert.equal(all.total, 11);
    assert.equal(all.data_notes?.dental_coverage, undefined);
    const child = await search({ child_dental_coverage: true });
    assert.deepEqual(ids(child), ids(all));
    assert.equal(
      child.data_notes?.dental_coverage,
      'filter.child_dental_coverage not applied: no plan at the place lists its benefits (no Benefits and ' +
        'Cost Sharing PUF loaded for the year), so whether a plan covers dental care is unknown.',
    );
    const both = await search({ child_dental_coverage: true, adult_dental_coverage: true });
    assert.deepEqual(ids(both), ids(all));
    assert.match(
      both.data_notes!.dental_coverage!,
      /^filter\.child_dental_coverage and adult_dental_coverage not applied/,
    );
  });

  describe('with a Benefits PUF listing dental benefits for five plans', () => {
    before(() => api.loadFixture('benefits', api.csv('benefits-dental.csv', benefitsRows())));

    // Seven of the 12 plans at the place list no benefits (bronzeExpanded, goldNoAge64, catastrophic,
    // silverNoCsr, silverTobacco, partialBronze, partialGold): their coverage is unknown and they are left
    // out, which the note counts.
    const unknownNote = (fields: string) =>
      `filter.${fields}: 7 plan(s) at the place list no benefits (none in the loaded Benefits and Cost ` +
      'Sharing PUF), so their dental coverage is unknown and they were left out.';

    test('child_dental_coverage keeps the plans covering children’s dental care', async () => {
      // silverCsr (check-up) and silverEhb (basic care); not goldTobacco or platinum ("Not Covered"), not
      // bronzeHsa (accidental dental is neither kind).
      const answer = await search({ child_dental_coverage: true });
      assert.deepEqual(ids(answer), [ID.silverCsr, ID.silverEhb].sort());
      assert.equal(answer.data_notes?.dental_coverage, unknownNote('child_dental_coverage'));
      assert.equal(answer.data_notes?.benefits, undefined);
      // total, facets and ranges count only the plans kept: premiums 400 × 1.278 = 511.20 and
      // 440 × 1.278 = 562.32.
      assert.equal(answer.total, 2);
      assert.deepEqual(answer.facet_groups[0], {
        name: 'metal_level',
        facets: [{ value: 'Silver', count: 2 }],
      });
      assert.deepEqual(answer.ranges.premiums, { min: 511.2, max: 562.32 });
    });

    test('adult_dental_coverage keeps the plans covering adults’ dental care', async () => {
      // silverCsr (routine services) and goldTobacco (orthodontia); silverEhb lists the adults' benefit
      // "Not Covered". Premiums 511.20 and 520 × 1.278 = 664.56.
      const answer = await search({ adult_dental_coverage: true });
      assert.deepEqual(ids(answer), [ID.silverCsr, ID.goldTobacco].sort());
      assert.deepEqual(answer.ranges.premiums, { min: 511.2, max: 664.56 });
      assert.equal(answer.data_notes?.dental_coverage, unknownNote('adult_dental_coverage'));
    });

    test('both together keep the plans that cover both; false asks nothing', async () => {
      const both = await search({ child_dental_coverage: true, adult_dental_coverage: true });
      assert.deepEqual(ids(both), [ID.silverCsr]);
      assert.equal(
        both.data_notes?.dental_coverage,
        unknownNote('child_dental_coverage and adult_dental_coverage'),
      );
      const all = await search();
      assert.equal(all.total, 11);
      const none = await search({ child_dental_coverage: false, adult_dental_coverage: false });
      assert.deepEqual(ids(none), ids(all));
      assert.equal(none.data_notes?.dental_coverage, undefined);
      const adultOnly = await search({ child_dental_coverage: false, adult_dental_coverage: true });
      assert.deepEqual(ids(adultOnly), [ID.silverCsr, ID.goldTobacco].sort());
    });

    test('/plans/search/stats counts only the plans kept', async () => {
      const response = await postJson(api.running.url, SANDBOX_KEY, '/plans/search/stats', {
        place: PLACE,
        market: 'Individual',
        year: YEAR,
        household: { income: -1, people: [ADULT] },
        filter: { adult_dental_coverage: true },
      });
      const text = await response.text();
      assert.equal(response.status, 200, text);
      const stats = JSON.parse(text) as { metal_level: string; total: number }[];
      assert.deepEqual(stats.map((s) => [s.metal_level, s.total]).sort(), [
        ['Gold', 1],
        ['Silver', 1],
      ]);
    });
  });
});

describe('dental coverage filters over the zero-setup sample market', () => {
  let running: RunningService;
  let year = 0;
  before(async () => {
    running = await startService();
    year = new Date(running.clock.now()).getUTCFullYear();
  });
  after(() => running.close());

  test('the sample plans list benefits and none of them dental: no plan covers children’s dental care', async () => {
    const search = async (filter?: Record<string, unknown>) => {
      const response = await postJson(running.url, SANDBOX_KEY, '/plans/search', {
        place: { countyfips: '48091', state: 'TX', zipcode: '78130' },
        market: 'Individual',
        year,
        household: { income: -1, people: [ADULT] },
        ...(filter ? { filter } : {}),
      });
      const text = await response.text();
      assert.equal(response.status, 200, text);
      return JSON.parse(text) as Search;
    };
    const all = await search();
    assert.ok(all.total > 0);
    // The generated sample lists every benefit its out-of-pocket estimate reads, no dental benefit among
    // them: each plan is known not to cover dental care, so the criterion is decided and keeps none, and
    // nothing is unknown, so there is no note.
    const child = await search({ child_dental_coverage: true });
    assert.equal(child.total, 0);
    assert.equal(child.data_notes?.dental_coverage, undefined);
    const adult = await search({ adult_dental_coverage: true });
    assert.equal(adult.total, 0);
  });
});
