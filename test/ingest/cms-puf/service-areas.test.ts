import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ingest, sharedData, skipWithoutSharedData } from '../../helpers/shared-data.js';
import { FICTIONAL_ISSUER_CELLS } from '../../helpers/fictional-issuer.js';
import { failedIngest, ingestSuite, rejectLines } from '../../helpers/ingest-suite.js';

const FILE = 'marketplace_puf/2025/service-area-puf.csv';
const suite = ingestSuite('service-areas');

const areaRows = (year: number, issuerId: string, serviceAreaId: string) =>
  suite.storage.db
    .selectFrom('service_areas')
    .selectAll()
    .where('year', '=', year)
    .where('issuer_id', '=', issuerId)
    .where('service_area_id', '=', serviceAreaId)
    .orderBy('fips')
    .orderBy('market')
    .execute();

const realFile = skipWithoutSharedData(FILE);

describe('service-areas: the real PY2025 Service Area PUF', { skip: realFile }, () => {
  it('stores all 11,761 rows', async () => {
    const summary = await ingest(suite.storage, 'service-areas', [sharedData(FILE)]);
    assert.equal(summary.read, 11761);
    assert.equal(summary.rejectedCount, 0);
    assert.deepEqual(summary.years, [2025]);
    assert.equal(await suite.count('service_areas', 2025), 11761);
  });

  it('keeps the listed ZIPs of a partial county, normalised', async () => {
    const rows = await areaRows(2025, '29698', 'MIS003');
    const allegan = rows.find((r) => r.fips === '26005');
    assert.ok(allegan);
    assert.equal(allegan.name, 'Corewell Health West Michigan Network 1');
    assert.equal(Number(allegan.partial_county), 1);
    assert.equal(
      allegan.zips,
      '49070,49311,49314,49323,49328,49335,49344,49348,49406,49408,49416,49419,49423,49453',
    );
    assert.equal(allegan.market, 'Individual');
    assert.equal(Number(allegan.dental_only), 0);
    const partial = await suite.storage.db
      .selectFrom('service_areas')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('year', '=', 2025)
      .where('partial_county', '=', 1)
      .executeTakeFirstOrThrow();
    assert.equal(Number(partial.n), 25);
  });

  it('stores a whole-state service area with an empty county', async () => {
    const [alaska, ...rest] = await areaRows(2025, '21989', 'AKS001');
    assert.equal(rest.length, 0);
    assert.equal(Number(alaska!.cover_entire_state), 1);
    assert.equal(alaska!.fips, '');
    assert.equal(alaska!.zips, '');
    assert.equal(alaska!.market, 'SHOP');
    assert.equal(Number(alaska!.dental_only), 1);
  });

  it('re-running replaces the year', async () => {
    await ingest(suite.storage, 'service-areas', [sharedData(FILE)]);
    assert.equal(await suite.count('service_areas', 2025), 11761);
  });
});

function row(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    ...FICTIONAL_ISSUER_CELLS,
    ServiceAreaId: 'TXS001',
    ServiceAreaName: 'Fixture area',
    CoverEntireState: 'No',
    County: '48201',
    PartialCounty: 'No',
    ZipCodes: '',
    PartialCountyJustification: '',
    MarketCoverage: 'Individual',
    DentalOnlyPlan: 'No',
    ...overrides,
  };
}

describe('service-areas: fixtures', () => {
  it('normalises ZIP lists (ZIP+4, semicolons, repeats)', async () => {
    const file = suite.csv('zips.csv', [
      row({ County: '48113', PartialCounty: 'Yes', ZipCodes: '75201-1234; 75202,75202 75203' }),
      row({ CoverEntireState: 'Yes', County: '', PartialCounty: '', MarketCoverage: 'SHOP (Small Group)' }),
    ]);
    await ingest(suite.storage, 'service-areas', [file]);
    const rows = await areaRows(2031, '99999', 'TXS001');
    assert.deepEqual(
      rows.map((r) => [r.fips, r.zips, Number(r.partial_county), r.market]),
      [
        ['', '', 0, 'SHOP'],
        ['48113', '75201,75202,75203', 1, 'Individual'],
      ],
    );
  });

  it('fails on a bad county FIPS with file:line, keeps the previous year, stores good rows when allowed', async () => {
    const file = suite.csv('bad-fips.csv', [
      row(),
      row({ County: '4820' }),
      row({ County: '06037' }),
      row({ County: '48113', PartialCounty: 'Yes', ZipCodes: '' }),
    ]);
    const error = await failedIngest(suite.storage, 'service-areas', [file]);
    assert.deepEqual(rejectLines(error.summary), [
      'bad-fips.csv:3: County "4820" is not a 5-digit county FIPS code',
      'bad-fips.csv:4: County 06037 is not a county of TX',
      'bad-fips.csv:5: County 48113 is a partial county without ZipCodes',
    ]);
    assert.equal(await suite.count('service_areas', 2031), 2, 'the previous load is intact');

    const summary = await ingest(suite.storage, 'service-areas', [file], { allowRejects: 3 });
    assert.equal(summary.stored, 1);
    assert.equal(await suite.count('service_areas', 2031), 1);
  });

  it('refuses a file without the County column', async () => {
    const rows = [row()].map(({ County: _county, ...rest }) => rest);
    const error = await failedIngest(suite.storage, 'service-areas', [suite.csv('no-county.csv', rows)]);
    assert.match(error.message, /not a service-areas file: missing column "County"/);
  });

  it('refuses a service area id of another state', async () => {
    const file = suite.csv('other-state.csv', [row({ ServiceAreaId: 'OKS001' })]);
    const error = await failedIngest(suite.storage, 'service-areas', [file]);
    assert.deepEqual(rejectLines(error.summary), [
      'other-state.csv:2: ServiceAreaId OKS001 is not a service area of TX',
    ]);
  });
});
