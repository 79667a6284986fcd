/**
 * Which record type a RIF file holds, told by its header line: CCW names each file's columns, and each
 * record type has its own set (docs/claims-rif.md#rif). Carrier and DME claims, HHA and hospice claims,
 * and the institutional claims share most of their columns, so the header is matched against every type
 * and the one whose columns it names best wins.
 */
import { open } from 'node:fs/promises';
import type { RifRecordType } from '../../fhir/bfd/rif-record.js';
import { CellError, splitCells } from './cells.js';
import { RIF_COLUMNS } from './columns.js';

/** The column that says whether a row inserts or updates its record (absent from MBI history files). */
export const DML_COLUMN = 'DML_IND';

/** What a header line says. */
export type HeaderMatch =
  | { type: RifRecordType; missing: string[] }
  /** No record type shares enough of its columns with the header. */
  | { type: undefined; missing: [] };

/**
 * The share of a type's columns a header must name to be taken for that type: below it the file is
 * no RIF file at all; at or above it, a type's columns the header lacks are named as missing.
 */
const RECOGNISED = 0.5;

/** Upper-case column names of each type, for matching. */
const TYPE_COLUMNS = Object.entries(RIF_COLUMNS).map(([type, specs]) => ({
  type: type as RifRecordType,
  names: new Set(specs.map((s) => s.name)),
}));

/**
 * The record type of a header (cells of the first line): the type with the highest share of columns in
 * common with it (counted over the larger of the two lists, so a header naming every column of a small
 * type and many others is not taken for it), and the columns of that type the header lacks.
 */
export function recogniseHeader(header: readonly string[]): HeaderMatch {
  const names = new Set(header.map((h) => h.trim().toUpperCase()).filter((h) => h !== DML_COLUMN));
  let best: { type: RifRecordType; score: number; columns: Set<string> } | undefined;
  for (const { type, names: columns } of TYPE_COLUMNS) {
    let shared = 0;
    for (const name of names) if (columns.has(name)) shared += 1;
    const score = shared / Math.max(names.size, columns.size);
    if (!best || score > best.score) best = { type, score, columns };
  }
  if (!best || best.score < RECOGNISED) return { type: undefined, missing: [] };
  return { type: best.type, missing: [...best.columns].filter((c) => !names.has(c)) };
}

/**
 * The record type a file's header names, read from its first line (at most 1 MB), or undefined when it names
 * none or cannot be read as one: the load then reads the file itself and reports why.
 */
export async function fileRecordType(file: string): Promise<RifRecordType | undefined> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(1 << 20);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = buffer
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
    const end = text.indexOf('\n');
    const line = (end === -1 ? text : text.slice(0, end)).replace(/\r$/, '');
    try {
      return recogniseHeader(splitCells(line)).type;
    } catch (error) {
      if (error instanceof CellError) return undefined;
      throw error;
    }
  } finally {
    await handle.close();
  }
}
