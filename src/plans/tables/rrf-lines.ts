/**
 * Lines of the RxNorm release files (Rich Release Format: `|`-ended fields, RxNorm Technical
 * Documentation §12) for SAB RXNORM, with the fields `ingest rxnorm` reads filled and the others empty:
 * what the sample's drug list and test and benchmark files are written as.
 */
const line = (fields: string[]) => `${fields.join('|')}|`;

/** RXNCONSO: RXCUI, LAT, TS, LUI, STT, SUI, ISPREF, RXAUI, SAUI, SCUI, SDUI, SAB, TTY, CODE, STR, SRL, SUPPRESS, CVF. */
export function rrfAtom(rxcui: string, tty: string, name: string, aui: number): string {
  return line([
    rxcui,
    'ENG',
    '',
    '',
    '',
    '',
    '',
    String(aui),
    '',
    '',
    '',
    'RXNORM',
    tty,
    rxcui,
    name,
    '0',
    'N',
    '',
  ]);
}

/** RXNSAT: RXCUI, LUI, SUI, RXAUI, STYPE, CODE, ATUI, SATUI, ATN, SAB, ATV, SUPPRESS, CVF. */
export function rrfAttribute(rxcui: string, name: string, value: string): string {
  return line([rxcui, '', '', '', 'CUI', '', '', '', name, 'RXNORM', value, 'N', '']);
}

/** RXNREL: RXCUI1, RXAUI1, STYPE1, REL, RXCUI2, RXAUI2, STYPE2, RELA, RUI, SRUI, SAB, SL, RG, DIR, SUPPRESS, CVF. */
export function rrfRelation(a: string, rela: string, b: string): string {
  return line([a, '', 'CUI', 'RO', b, '', 'CUI', rela, '', '', 'RXNORM', 'RXNORM', '', '', 'N', '']);
}
