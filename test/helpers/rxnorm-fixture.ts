import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rrfAtom, rrfAttribute, rrfRelation } from '../../src/plans/tables/rrf-lines.js';
import { sharedData } from './shared-data.js';

/** A row of `../shared/data/drugs/rxnorm_common_drugs.csv`: a real RxCUI and its RxNorm name. */
export interface CommonDrug {
  rxcui: string;
  name: string;
  /** The file's `tty_inferred` column: a term type guessed from the name (see its PROVENANCE.md). */
  tty: string;
}

export function commonDrugs(): CommonDrug[] {
  const [, ...lines] = readFileSync(sharedData('drugs/rxnorm_common_drugs.csv'), 'utf8').trim().split('\n');
  // The file has no quoted cells: a plain split is exact.
  return lines.map((line) => {
    const [rxcui, name, tty] = line.split(',');
    return { rxcui: rxcui!, name: name!, tty: tty! };
  });
}

/**
 * RxNorm facts the tests write beside the names, as RxNorm publishes them: the dose form concept "Oral
 * Tablet" (RxCUI 317541), two brand → generic pairs (tradename_of: Tylenol 500 → acetaminophen 500 MG
 * oral tablet; Percocet 5/325 → acetaminophen 325 MG / oxycodone 5 MG oral tablet) and their strengths.
 */
export const ORAL_TABLET = { rxcui: '317541', name: 'Oral Tablet' };
export const BRAND_GENERIC: [brand: string, generic: string][] = [
  ['209459', '198440'],
  ['1049640', '1049221'],
];
const STRENGTHS: [string, string][] = [
  ['198440', '500 MG'],
  ['209459', '500 MG'],
];

/** RXNCONSO, RXNSAT and RXNREL in the RRF layout, for every drug of the shared list; returns their paths. */
export function writeRxnormFiles(dir: string, drugs = commonDrugs()): string[] {
  const conso = drugs.map((d, i) => rrfAtom(d.rxcui, d.tty, d.name, 1000 + i));
  conso.push(rrfAtom(ORAL_TABLET.rxcui, 'DF', ORAL_TABLET.name, 9));
  const sat = STRENGTHS.map(([rxcui, value]) => rrfAttribute(rxcui, 'RXN_AVAILABLE_STRENGTH', value));
  const rel = [
    ...BRAND_GENERIC.flatMap(([brand, generic]) => [
      rrfRelation(generic, 'tradename_of', brand),
      rrfRelation(brand, 'has_tradename', generic),
    ]),
    ...drugs
      .filter((d) => / Oral Tablet/.test(d.name) && !/Extended Release|Disintegrating|Chewable/.test(d.name))
      .map((d) => rrfRelation(ORAL_TABLET.rxcui, 'dose_form_of', d.rxcui)),
  ];
  const files = { 'RXNCONSO.RRF': conso, 'RXNSAT.RRF': sat, 'RXNREL.RRF': rel };
  return Object.entries(files).map(([name, lines]) => {
    const path = join(dir, name);
    writeFileSync(path, lines.join('\n') + '\n');
    return path;
  });
}
