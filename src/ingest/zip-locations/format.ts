import { write } from '../engine/writes.js';
import { readLines } from '../sources/lines.js';
import { IngestError } from '../engine/report.js';
import type { IngestKind } from '../engine/kind.js';

const REQUIRED = ['GEOID', 'INTPTLAT', 'INTPTLONG'];

/** A coordinate cell: a decimal number within `limit` degrees. */
function degrees(cell: string | undefined, limit: number): number | undefined {
  const text = (cell ?? '').trim();
  if (!/^-?\d{1,3}(\.\d+)?$/.test(text)) return undefined;
  const value = Number(text);
  return Math.abs(value) <= limit ? value : undefined;
}

/**
 * Census Gazetteer ZCTA file (`2023_Gaz_zcta_national.txt`: tab-separated, header GEOID ALAND AWATER
 * ALAND_SQMI AWATER_SQMI INTPTLAT INTPTLONG — the published file pads its last header name with spaces):
 * each ZCTA's internal point, for provider distances. One vintage: a load replaces every point.
 */
export const zipLocationsFormat: IngestKind = {
  kind: 'zip-locations',
  summary: 'Census Gazetteer ZCTA file (tab-separated GEOID, INTPTLAT, INTPTLONG): ZIP points for distances',
  owns: [{ table: 'zip_locations', scope: 'all' }],
  async load(files, load) {
    await load.writer.startYear(0);
    let stored = 0;
    for (const file of files) {
      load.reading(file);
      let columns: number[] | undefined;
      for await (const { line, text } of readLines(file, load.progress)) {
        const cells = text.split('\t');
        if (!columns) {
          const header = cells.map((c) => c.trim());
          const missing = REQUIRED.filter((name) => !header.includes(name));
          if (missing.length > 0) {
            throw new IngestError(
              `${file}: not a Gazetteer ZCTA file (tab-separated): missing column${missing.length > 1 ? 's' : ''} ` +
                missing.map((m) => `"${m}"`).join(', '),
            );
          }
          columns = REQUIRED.map((name) => header.indexOf(name));
          continue;
        }
        load.read();
        const [zip, lat, lon] = columns.map((i) => cells[i]?.trim() ?? '');
        if (!/^\d{5}$/.test(zip!)) {
          load.reject(file, line, `GEOID "${zip}" is not a 5-digit ZCTA`);
          continue;
        }
        const latitude = degrees(lat, 90);
        const longitude = degrees(lon, 180);
        if (latitude === undefined || longitude === undefined) {
          load.reject(file, line, `INTPTLAT "${lat}" / INTPTLONG "${lon}" is not a point`);
          continue;
        }
        await load.writer.add(write('zip_locations', { zip: zip!, lat: latitude, lon: longitude }));
        stored += 1;
      }
      if (!columns) throw new IngestError(`no data rows in ${file}; nothing was stored`);
    }
    if (stored === 0) throw new IngestError('no ZCTA points in the files; nothing was stored');
  },
};
