import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IngestError } from '../../../src/ingest/engine/report.js';
import { ingestSuite } from '../../helpers/ingest-suite.js';
import { ingest, sharedData, skipWithoutSharedData } from '../../helpers/shared-data.js';

const PE_COUNTIES = 'premiums/policyengine_derived/county_rating_area_2025_policyengine.csv';
const LA_ZIP3 = 'premiums/policyengine_derived/ca_los_angeles_zip3_rating_area.csv';
const HRECHT_COUNTIES = 'reference_tables/rating_areas_2014_hrecht_CountyRAs.csv';
const HRECHT_ZIP3 = 'reference_tables/rating_areas_2014_hrecht_ZipCodeRAs.csv';

const suite = ingestSuite('rating-areas');

/**
 * The lookup order the `rating-areas` format documents: the county's row for the ZIP's 3-digit prefix,
 * then the state's row for that prefix, then the county's whole-county row.
 */
async function areaOf(year: number, state: string, fips: string, zip: string): Promise<number | undefined> {
  const zip3 = zip.slice(0, 3);
  for (const [f, z] of [
    [fips, zip3],
    ['', zip3],
    [fips, ''],
  ] as const) {
    const row = await suite.storage.db
      .selectFrom('rating_areas')
      .select('area')
      .where('year', '=', year)
      .where('state', '=', state)
      .where('fips', '=', f)
      .where('zip3', '=', z)
      .executeTakeFirst();
    if (row) return Number(row.area);
  }
  return undefined;
}

const rowsOf = (year: number) =>
  suite.storage.db
    .selectFrom('rating_areas')
    .selectAll()
    .where('year', '=', year)
    .orderBy('state')
    .orderBy('fips')
    .orderBy('zip3')
    .execute();

describe(
  'rating-areas: real tables',
  { skip: skipWithoutSharedData(PE_COUNTIES, LA_ZIP3, HRECHT_COUNTIES, HRECHT_ZIP3) },
  () => {
    it('loads the 2025 county table with the Los Angeles ZIP3 table in one load', async () => {
      const summary = await ingest(
        suite.storage,
        'rating-areas',
        [sharedData(PE_COUNTIES), sharedData(LA_ZIP3)],
        {
          year: 2025,
        },
      );
      assert.equal(summary.read, 3226 + 22);
      assert.equal(summary.stored, 3248);
      assert.equal(summary.rejectedCount, 0);
      assert.equal(await areaOf(2025, 'TX', '48201', '77002'), 10); // Harris
      assert.equal(await areaOf(2025, 'ID', '16001', '83702'), 5); // Ada
      assert.equal(await areaOf(2025, 'NE', '31055', '68102'), 1); // Douglas
      assert.equal(await areaOf(2025, 'NV', '32510', '89701'), 3); // Carson City
      assert.equal(await areaOf(2025, 'AK', '02158', '99604'), 2); // Kusilvak (successor of 02270)
      // Los Angeles County: area by the ZIP's first three digits, the county row (16) otherwise.
      assert.equal(await areaOf(2025, 'CA', '06037', '90650'), 15); // Norwalk, 906
      assert.equal(await areaOf(2025, 'CA', '06037', '93550'), 15); // Palmdale, 935
      assert.equal(await areaOf(2025, 'CA', '06037', '90012'), 16); // downtown LA, 900
      assert.equal(await areaOf(2025, 'CA', '06037', '90101'), 16); // 901: only in the PolicyEngine table
    });

    it('loads the 2014 hrecht tables: full state names, FIPS without zeros, ZIP3-rated states', async () => {
      const summary = await ingest(
        suite.storage,
        'rating-areas',
        [sharedData(HRECHT_COUNTIES), sharedData(HRECHT_ZIP3)],
        {
          year: 2014,
        },
      );
      assert.equal(summary.read, 3143 + 64);
      // 181 county rows have no area (AK 29, ID 44, MA 14, NE 93, Los Angeles): ZIP3 decides there.
      assert.equal(summary.stored, 3143 - 181 + 64);
      assert.equal(summary.rejectedCount, 0);
      assert.equal(await areaOf(2014, 'AL', '01001', '36003'), 11); // Autauga
      assert.equal(await areaOf(2014, 'TX', '48201', '77002'), 10); // Harris
      assert.equal(await areaOf(2014, 'MD', '24510', '21201'), 1); // Baltimore city
      assert.equal(await areaOf(2014, 'CA', '06059', '92802'), 18); // Orange
      // ZIP 906xx reaches into Orange County (Buena Park 90620): CA ZIP3 rows are Los Angeles County's only.
      assert.equal(await areaOf(2014, 'CA', '06059', '90620'), 18);
      assert.equal(await areaOf(2014, 'CA', '06037', '90620'), 15);
      // Idaho was rated by 3-digit ZIP in 2014: Ada County (Boise, 837) → 6; Nebraska 681 → 1.
      assert.equal(await areaOf(2014, 'ID', '16001', '83702'), 6);
      assert.equal(await areaOf(2014, 'NE', '31055', '68102'), 1);
      assert.equal(await areaOf(2014, 'ID', '16001', '99999'), undefined);
      const idaho = (await rowsOf(2014)).filter((r) => r.state === 'ID');
      assert.deepEqual(idaho[0], { year: 2014, state: 'ID', fips: '', zip3: '832', area: 1 });
    });

    it('a re-run replaces the year rather than adding to it, and leaves other years alone', async () => {
      const before2025 = await rowsOf(2025);
      await ingest(suite.storage, 'rating-areas', [sharedData(HRECHT_COUNTIES), sharedData(HRECHT_ZIP3)], {
        year: 2014,
      });
      assert.equal((await rowsOf(2014)).length, 3026);
      assert.deepEqual(await rowsOf(2025), before2025);
    });
  },
);

describe('rating-areas: malformed files', () => {
  const header = 'county_fips,state,census_county_name,pe_county_key,rating_area,match';
  const good = [header, '35001,NM,Bernalillo County,X,1,exact', '35013,NM,Dona Ana County,X,3,exact'];

  it('needs --year (the tables have no year column)', async () => {
    await assert.rejects(
      ingest(suite.storage, 'rating-areas', [suite.lines('noyear.csv', good)]),
      /give --year/,
    );
  });

  it('refuses a file that is none of the known layouts, naming what the nearest lacks', async () => {
    const file = suite.lines('other.csv', ['county_fips,state,area', '35001,NM,1']);
    await assert.rejects(ingest(suite.storage, 'rating-areas', [file], { year: 2030 }), (error: Error) => {
      assert.ok(error instanceof IngestError);
      assert.match(error.message, /missing column "rating_area"/);
      return true;
    });
  });

  it('fails on a bad FIPS with file and line, leaving the earlier load; allowRejects stores the rest', async () => {
    await ingest(suite.storage, 'rating-areas', [suite.lines('good.csv', good)], { year: 2030 });
    const earlier = await rowsOf(2030);
    assert.equal(earlier.length, 2);
    const bad = suite.lines('bad.csv', [
      ...good,
      '3500,NM,X,X,2,exact',
      '48201,NM,Harris,X,10,exact',
      '35006,NM,Cibola,X,,',
    ]);
    await assert.rejects(ingest(suite.storage, 'rating-areas', [bad], { year: 2030 }), (error: Error) => {
      assert.ok(error instanceof IngestError);
      assert.deepEqual(
        error.summary?.rejected.map((r) => [r.file, r.line, r.reason]),
        [
          [bad, 4, 'county_fips "3500" is not a five-digit county FIPS code'],
          [bad, 5, 'state "NM" is not the state of FIPS 48'],
          [bad, 6, 'rating_area "" is not a rating area number'],
        ],
      );
      return true;
    });
    assert.deepEqual(await rowsOf(2030), earlier);
    const summary = await ingest(suite.storage, 'rating-areas', [bad], { year: 2030, allowRejects: 3 });
    assert.equal(summary.stored, 2);
    assert.equal((await rowsOf(2030)).length, 2);
  });

  it('refuses two tables that give one place different areas', async () => {
    const la = suite.lines('la.csv', ['zip3,rating_area,effective', '906,15,2014-01-01']);
    const la2 = suite.lines('la2.csv', [
      'zip3,rating_area,effective',
      '906,16,2014-01-01',
      '907,15,2014-01-01',
    ]);
    await assert.rejects(ingest(suite.storage, 'rating-areas', [la, la2], { year: 2031 }), (error: Error) => {
      assert.ok(error instanceof IngestError);
      assert.equal(
        error.summary?.rejected[0]?.reason,
        'CA 06037 ZIP 906xx is rating area 16 here but 15 in an earlier row of this load',
      );
      return true;
    });
  });
});
