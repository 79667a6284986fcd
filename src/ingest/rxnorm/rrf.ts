import { readLines } from '../sources/lines.js';

/** One record of a Rich Release Format file: its 1-based line and its fields. */
export interface RrfRecord {
  line: number;
  fields: string[];
}

/**
 * The columns of the RxNorm files we read, in their published order (RxNorm Technical Documentation,
 * §12 "Data Elements"). Every line has these fields, each followed by `|` (so a line splits into one more
 * field, empty, than the layout has).
 */
export const RRF_LAYOUTS = {
  RXNCONSO: [
    'RXCUI',
    'LAT',
    'TS',
    'LUI',
    'STT',
    'SUI',
    'ISPREF',
    'RXAUI',
    'SAUI',
    'SCUI',
    'SDUI',
    'SAB',
    'TTY',
    'CODE',
    'STR',
    'SRL',
    'SUPPRESS',
    'CVF',
  ],
  RXNSAT: [
    'RXCUI',
    'LUI',
    'SUI',
    'RXAUI',
    'STYPE',
    'CODE',
    'ATUI',
    'SATUI',
    'ATN',
    'SAB',
    'ATV',
    'SUPPRESS',
    'CVF',
  ],
  RXNREL: [
    'RXCUI1',
    'RXAUI1',
    'STYPE1',
    'REL',
    'RXCUI2',
    'RXAUI2',
    'STYPE2',
    'RELA',
    'RUI',
    'SRUI',
    'SAB',
    'SL',
    'RG',
    'DIR',
    'SUPPRESS',
    'CVF',
  ],
} as const;

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
