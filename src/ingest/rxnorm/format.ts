import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { write } from '../engine/writes.js';
import { prefixesOf } from '../../plans/drugs/words.js';
import { IngestError } from '../engine/report.js';
import type { IngestKind, KindLoad } from '../engine/kind.js';
import { createConceptSet, routeOf, strengthInName, type ConceptSet } from './concepts.js';
import { readRrf, RRF_LAYOUTS, rrfFileOf, type RrfFile } from './rrf.js';

const READ_ORDER: RrfFile[] = ['RXNCONSO', 'RXNSAT', 'RXNREL'];

/** The RRF files to read: those given, and those inside a directory given (the release's `rrf/`). */
async function rrfFiles(paths: string[]): Promise<Map<RrfFile, string>> {
  const found = new Map<RrfFile, string>();
  const add = (path: string) => {
    const kind = rrfFileOf(path);
    if (!kind) {
      throw new IngestError(
        `${path} is not an RxNorm file (RXNCONSO.RRF, RXNSAT.RRF or RXNREL.RRF); nothing was stored`,
      );
    }
    if (found.has(kind)) throw new IngestError(`${kind}.RRF given twice; nothing was stored`);
    found.set(kind, path);
  };
  for (const path of paths) {
    if ((await stat(path)).isDirectory()) {
      for (const name of (await readdir(path)).sort()) if (rrfFileOf(name)) add(join(path, name));
    } else add(path);
  }
  if (!found.has('RXNCONSO')) {
    throw new IngestError('rxnorm needs RXNCONSO.RRF (the concept names); nothing was stored');
  }
  return found;
}

/** One file's records of SAB RXNORM, checked against the layout (a short or long line is refused). */
async function* recordsOf(file: string, kind: RrfFile, load: KindLoad) {
  const width = RRF_LAYOUTS[kind].length;
  const sab = (RRF_LAYOUTS[kind] as readonly string[]).indexOf('SAB');
  load.reading(file);
  for await (const { line, fields } of readRrf(file, load.progress)) {
    load.read();
    if (fields.length !== width + 1) {
      load.reject(file, line, `expected ${width} |-ended fields of ${kind}.RRF, found ${fields.length - 1}`);
      continue;
    }
    if (fields[sab] === 'RXNORM') yield { line, fields };
  }
}

const DIGITS = /^\d{1,10}$/;

/** Where each column of a file's layout is in a record. */
function positions<F extends RrfFile>(file: F): Record<(typeof RRF_LAYOUTS)[F][number], number> {
  return Object.fromEntries(RRF_LAYOUTS[file].map((column, i) => [column, i])) as never;
}
const CONSO = positions('RXNCONSO');
const SAT = positions('RXNSAT');
const REL = positions('RXNREL');

async function readConcepts(files: Map<RrfFile, string>, load: KindLoad): Promise<ConceptSet> {
  const concepts = createConceptSet();
  for (const kind of READ_ORDER) {
    const file = files.get(kind);
    if (!file) continue;
    for await (const { line, fields: f } of recordsOf(file, kind, load)) {
      if (kind === 'RXNCONSO') {
        const rxcui = f[CONSO.RXCUI]!;
        const suppress = f[CONSO.SUPPRESS];
        // Suppressed atoms are not offered.
        if (!DIGITS.test(rxcui)) load.reject(file, line, `RXCUI "${rxcui}" is not a number`);
        else if (f[CONSO.LAT] === 'ENG' && (suppress === 'N' || suppress === ''))
          concepts.addAtom(rxcui, f[CONSO.TTY]!, f[CONSO.STR]!);
      } else if (kind === 'RXNSAT') {
        concepts.addAttribute(f[SAT.RXCUI]!, f[SAT.ATN]!, f[SAT.ATV]!);
      } else {
        concepts.addRelation(f[REL.RXCUI1]!, f[REL.RXCUI2]!, f[REL.RELA]!);
      }
    }
  }
  return concepts;
}

/**
 * NLM RxNorm release files (the full release or the Current Prescribable Content, same layout): the
 * clinical and branded drugs and packs of SAB RXNORM with their strength (RXN_AVAILABLE_STRENGTH, else
 * read from the name), dose form (has_dose_form) and route (from the dose form's name), and each brand's
 * generic (tradename_of), which `GenericCovered` needs. One vintage: a load replaces the drug list.
 */
export const rxnormFormat: IngestKind = {
  kind: 'rxnorm',
  summary: 'NLM RxNorm RRF files (RXNCONSO, RXNSAT, RXNREL, or their rrf/ directory): drugs for typeahead',
  owns: [
    { table: 'drugs', scope: 'all' },
    { table: 'drug_prefixes', scope: 'all' },
  ],
  async size(paths) {
    let total = 0;
    for (const file of (await rrfFiles(paths)).values()) total += (await stat(file)).size;
    return total;
  },
  async load(paths, load) {
    const files = await rrfFiles(paths);
    const concepts = await readConcepts(files, load);
    if (concepts.drugs.size === 0) {
      throw new IngestError(
        `no drugs (SAB RXNORM, TTY SCD, SBD, GPCK or BPCK) in ${files.get('RXNCONSO')}; nothing was stored`,
      );
    }
    await load.writer.startYear(0);
    for (const drug of concepts.drugs.values()) {
      const doseForm = concepts.doseFormName(drug.doseFormRxcui);
      await load.writer.add(
        write('drugs', {
          rxcui: drug.rxcui,
          name: drug.name,
          tty: drug.tty,
          strength: drug.strength ?? strengthInName(drug.name),
          route: routeOf(doseForm),
          full_name: concepts.prescribableName(drug.rxcui) ?? drug.name,
          rxnorm_dose_form: doseForm,
          rxterms_dose_form: '',
          generic_rxcui: drug.genericRxcui ?? null,
        }),
      );
      const rank = drug.name.length;
      for (const prefix of prefixesOf(drug.name)) {
        await load.writer.add(write('drug_prefixes', { prefix, rank, rxcui: drug.rxcui }));
      }
    }
  },
};
