/**
 * The RxNorm release files (Rich Release Format: `|`-ended fields) as `ingest rxnorm` reads them, and lines
 * of them for SAB RXNORM with the fields a load reads filled and the others empty: what the sample's drug
 * list and test and benchmark files are written as.
 */

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

type Column<F extends keyof typeof RRF_LAYOUTS> = (typeof RRF_LAYOUTS)[F][number];

/** One line of `file`: the named fields, every other one empty. */
function rrfLine<F extends keyof typeof RRF_LAYOUTS>(
  file: F,
  values: Partial<Record<Column<F>, string>>,
): string {
  const fields = values as Record<string, string | undefined>;
  return `${RRF_LAYOUTS[file].map((column) => fields[column] ?? '').join('|')}|`;
}

/** An RXNCONSO atom of SAB RXNORM, not suppressed. */
export function rrfAtom(rxcui: string, tty: string, name: string, aui: number): string {
  return rrfLine('RXNCONSO', {
    RXCUI: rxcui,
    LAT: 'ENG',
    RXAUI: String(aui),
    SAB: 'RXNORM',
    TTY: tty,
    CODE: rxcui,
    STR: name,
    SRL: '0',
    SUPPRESS: 'N',
  });
}

/** An RXNSAT attribute of a concept. */
export function rrfAttribute(rxcui: string, name: string, value: string): string {
  return rrfLine('RXNSAT', {
    RXCUI: rxcui,
    STYPE: 'CUI',
    ATN: name,
    SAB: 'RXNORM',
    ATV: value,
    SUPPRESS: 'N',
  });
}

/** An RXNREL relation between two concepts: `b` is `rela` of `a`. */
export function rrfRelation(a: string, rela: string, b: string): string {
  return rrfLine('RXNREL', {
    RXCUI1: a,
    STYPE1: 'CUI',
    REL: 'RO',
    RXCUI2: b,
    STYPE2: 'CUI',
    RELA: rela,
    SAB: 'RXNORM',
    SL: 'RXNORM',
    SUPPRESS: 'N',
  });
}
