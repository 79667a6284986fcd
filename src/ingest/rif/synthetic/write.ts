/**
 * Writes the synthetic RIF records as CCW extracts are written (docs/claims-rif.md#rif): one pipe-delimited
 * file per record type, a header line naming the columns (`DML_IND` first, then the type's columns in BFD's
 * order, src/ingest/rif/columns.ts), every record an `INSERT`, a claim's lines together. Streams: one enrollee's
 * records are in memory at a time.
 */
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { RIF_COLUMNS } from '../columns.js';
import { DML_COLUMN } from '../header.js';
import type { RifValues } from './format.js';
import { SYNTHETIC_RECORD_TYPES, syntheticRifRecords, type SyntheticRecordType } from './generate.js';

/** One file written. */
export interface SyntheticRifFile {
  readonly type: SyntheticRecordType;
  readonly path: string;
  /** Records (claims, beneficiaries, history rows) in it. */
  readonly records: number;
  /** Lines after the header (a claim has one per claim line). */
  readonly lines: number;
}

/** The header line of a record type's file. */
export function rifHeader(type: SyntheticRecordType): string {
  return [DML_COLUMN, ...RIF_COLUMNS[type].map((c) => c.name)].join('|');
}

/** One record row as a line of its type's file (without the line break); absent columns are empty. */
export function rifLine(type: SyntheticRecordType, row: RifValues): string {
  return ['INSERT', ...RIF_COLUMNS[type].map((c) => row[c.name] ?? '')].join('|');
}

/** The file name of a record type: numbered in load order, so a directory read in name order loads in it. */
export function rifFileName(type: SyntheticRecordType): string {
  const position = SYNTHETIC_RECORD_TYPES.indexOf(type) + 1;
  return `${String(position).padStart(2, '0')}-${type}.txt`;
}

/**
 * Writes the records of sandbox enrollees 0..enrollees-1 (seed `seed`) into `dir` (created if missing), one
 * file per record type, every type's file even when it has no record. Returns the files in load order.
 */
export async function writeSyntheticRif(
  dir: string,
  enrollees: number,
  seed: number,
): Promise<SyntheticRifFile[]> {
  await mkdir(dir, { recursive: true });
  const outputs = new Map<SyntheticRecordType, { stream: WriteStream; records: number; lines: number }>();
  for (const type of SYNTHETIC_RECORD_TYPES) {
    const stream = createWriteStream(join(dir, rifFileName(type)), 'utf8');
    stream.write(`${rifHeader(type)}\n`);
    outputs.set(type, { stream, records: 0, lines: 0 });
  }
  try {
    for (const record of syntheticRifRecords(enrollees, seed)) {
      const output = outputs.get(record.type)!;
      output.records += 1;
      for (const row of record.rows) {
        output.lines += 1;
        if (!output.stream.write(`${rifLine(record.type, row)}\n`)) await once(output.stream, 'drain');
      }
    }
  } finally {
    await Promise.all(
      [...outputs.values()].map(async ({ stream }) => {
        stream.end();
        await once(stream, 'close');
      }),
    );
  }
  return SYNTHETIC_RECORD_TYPES.map((type) => {
    const { records, lines } = outputs.get(type)!;
    return { type, path: join(dir, rifFileName(type)), records, lines };
  });
}
