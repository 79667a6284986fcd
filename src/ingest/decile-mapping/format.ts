import { readFile } from 'node:fs/promises';
import { write } from '../engine/writes.js';
import { DECILE_AGES, DECILE_GENDERS, DECILE_UTILIZATIONS } from '../../plans/bulk/documents.js';
import { IngestError } from '../engine/report.js';
import type { IngestKind } from '../engine/kind.js';

/** Files this small are read whole; anything larger is not a decile mapping. */
const MAX_BYTES = 1 << 20;

/** "Decile 1" … "Decile 10" → 1 … 10. */
function decileOf(value: unknown): number | undefined {
  const match = typeof value === 'string' ? /^Decile (10|[1-9])$/.exec(value) : null;
  return match ? Number(match[1]) : undefined;
}

/** The object at `path` of the document, or the reason it is not one. */
function objectAt(document: unknown, path: string[]): Record<string, unknown> | string {
  let node = document;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node))
      return `${path.join('.')}: not an object`;
    node = (node as Record<string, unknown>)[key];
  }
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return `${path.join('.')}: missing`;
  return node as Record<string, unknown>;
}

/**
 * The OOPC utilization decile mapping (CMS `DecileMapping`): `{low, medium, high}` → `{male, femaile}` →
 * age band upper bound ("6" … "999") → "Decile n". CMS publishes it only behind its bulk endpoint and
 * no public file carries it, so an operator who holds the document loads it here, for `--year`; every
 * one of the 42 cells must be present. `female` is accepted for the document's `femaile`.
 */
export const decileMappingFormat: IngestKind = {
  kind: 'decile-mapping',
  summary: 'OOPC utilization decile mapping, the CMS DecileMapping JSON document (--year required)',
  owns: [{ table: 'decile_mappings', scope: 'year' }],
  async load(files, load) {
    const year = load.year;
    if (year === undefined) throw new IngestError('give the market year the mapping is for (--year)');
    if (files.length !== 1) throw new IngestError('give one decile mapping file');
    const file = files[0]!;
    load.reading(file);
    const text = await readFile(file, 'utf8');
    load.progress(Buffer.byteLength(text));
    if (text.length > MAX_BYTES)
      throw new IngestError(`${file}: too large for a decile mapping; nothing was stored`);
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch (error) {
      throw new IngestError(`${file}: not JSON (${(error as Error).message}); nothing was stored`);
    }
    const problems: string[] = [];
    const rows: { utilization: string; gender: string; age: number; decile: number }[] = [];
    for (const utilization of DECILE_UTILIZATIONS) {
      for (const gender of DECILE_GENDERS) {
        const spelled = gender === 'female' ? ['femaile', 'female'] : [gender];
        const found = spelled.map((name) => objectAt(document, [utilization, name]));
        const ages = found.find((f) => typeof f !== 'string');
        if (!ages) {
          problems.push(found[0] as string);
          continue;
        }
        for (const age of DECILE_AGES) {
          load.read();
          const decile = decileOf(ages[String(age)]);
          if (decile === undefined) {
            problems.push(
              `${utilization}.${gender}.${age}: ${JSON.stringify(ages[String(age)] ?? null)} is not "Decile 1".."Decile 10"`,
            );
            continue;
          }
          rows.push({ utilization, gender, age, decile });
        }
      }
    }
    if (problems.length > 0) {
      throw new IngestError(
        `${file}: not a complete decile mapping (${problems.slice(0, 3).join('; ')}` +
          `${problems.length > 3 ? `; and ${problems.length - 3} more` : ''}); nothing was stored`,
      );
    }
    await load.writer.startYear(year);
    for (const row of rows) {
      await load.writer.add(
        write('decile_mappings', {
          year,
          utilization: row.utilization,
          gender: row.gender,
          age_max: row.age,
          decile: row.decile,
        }),
      );
    }
  },
};
