import { RRF_LAYOUTS } from '../../plans/tables/rrf-lines.js';
import { readLines } from '../sources/lines.js';

export { RRF_LAYOUTS };

/** One record of a Rich Release Format file: its 1-based line and its fields. */
export interface RrfRecord {
  line: number;
  fields: string[];
}

export type RrfFile = keyof typeof RRF_LAYOUTS;

/** Which RxNorm file `name` is (by its base name, as NLM names them), if any. */
export function rrfFileOf(name: string): RrfFile | undefined {
  const match = /(RXNCONSO|RXNSAT|RXNREL)\.RRF$/i.exec(name);
  return match ? (match[1]!.toUpperCase() as RrfFile) : undefined;
}

/** Streams an RRF file's records; `onBytes` hears the bytes read (for progress). */
export async function* readRrf(file: string, onBytes: (n: number) => void): AsyncGenerator<RrfRecord> {
  for await (const { line, text } of readLines(file, onBytes)) yield { line, fields: text.split('|') };
}
