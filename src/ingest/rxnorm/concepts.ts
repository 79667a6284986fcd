/**
 * The drug concepts of an RxNorm release, gathered from its three files. Only what the plan API answers
 * with is kept (a few tens of thousands of concepts), whatever the size of the files read.
 */

/** Term types the plan API answers with: clinical and branded drugs and packs (RxNorm TTYs). */
export const DRUG_TTYS = new Set(['SCD', 'SBD', 'GPCK', 'BPCK']);
/** A branded concept and the generic concept it is a trade name of. */
const GENERIC_OF: Record<string, string> = { SBD: 'SCD', BPCK: 'GPCK' };

export interface DrugConcept {
  rxcui: string;
  tty: string;
  name: string;
  /** The prescribable name (TTY PSN), when the release has one. */
  prescribable?: string;
  strength?: string;
  doseFormRxcui?: string;
  genericRxcui?: string;
}

export function createConceptSet() {
  const drugs = new Map<string, DrugConcept>();
  const doseForms = new Map<string, string>();
  const prescribable = new Map<string, string>();
  return {
    drugs,
    /** A RXNCONSO atom of SAB RXNORM. */
    addAtom(rxcui: string, tty: string, name: string) {
      if (DRUG_TTYS.has(tty)) drugs.set(rxcui, { rxcui, tty, name });
      else if (tty === 'DF') doseForms.set(rxcui, name);
      else if (tty === 'PSN') prescribable.set(rxcui, name);
    },
    /** A RXNSAT attribute of SAB RXNORM. */
    addAttribute(rxcui: string, name: string, value: string) {
      const drug = drugs.get(rxcui);
      if (drug && name === 'RXN_AVAILABLE_STRENGTH' && value !== '') drug.strength = value;
    },
    /**
     * A RXNREL relation of SAB RXNORM. RxNorm lists each relation in both directions (has_tradename and
     * tradename_of, has_dose_form and dose_form_of), so the pair's term types say which is which.
     */
    addRelation(a: string, b: string, rela: string) {
      if (rela === 'has_tradename' || rela === 'tradename_of') {
        const [x, y] = [drugs.get(a), drugs.get(b)];
        if (x && y && GENERIC_OF[x.tty] === y.tty) x.genericRxcui = y.rxcui;
        else if (x && y && GENERIC_OF[y.tty] === x.tty) y.genericRxcui = x.rxcui;
      } else if (rela === 'has_dose_form' || rela === 'dose_form_of') {
        if (drugs.has(a) && doseForms.has(b)) drugs.get(a)!.doseFormRxcui = b;
        else if (drugs.has(b) && doseForms.has(a)) drugs.get(b)!.doseFormRxcui = a;
      }
    },
    doseFormName(rxcui: string | undefined): string {
      return (rxcui && doseForms.get(rxcui)) ?? '';
    },
    prescribableName(rxcui: string): string | undefined {
      return prescribable.get(rxcui);
    },
  };
}

export type ConceptSet = ReturnType<typeof createConceptSet>;

/**
 * The route of a dose form, from the words RxNorm's dose form names carry ("Oral Tablet", "Injectable
 * Solution", "Metered Dose Inhaler"); '' when the name names none. Checked in this order so that a
 * "Vaginal Tablet" is vaginal, not oral.
 */
const ROUTES: [RegExp, string][] = [
  [/inject|syringe|cartridge|\bpen\b|implant/i, 'Injectable'],
  [/inhal|nebuli|metered dose|dry powder/i, 'Inhalation'],
  [/nasal/i, 'Nasal'],
  [/ophthalmic/i, 'Ophthalmic'],
  [/otic/i, 'Otic'],
  [/rectal|enema|suppositor/i, 'Rectal'],
  [/vaginal|intrauterine/i, 'Vaginal'],
  [/transdermal|patch/i, 'Transdermal'],
  [/topical|cream|ointment|lotion|shampoo|foam|paste|medicated pad/i, 'Topical'],
  [/oral|tablet|capsule|chew|sublingual|buccal|lozenge|syrup|elixir|granule|pellet/i, 'Oral'],
];

export function routeOf(doseForm: string): string {
  return ROUTES.find(([pattern]) => pattern.test(doseForm))?.[1] ?? '';
}

/**
 * Strength read from an RxNorm name when the release carries no RXN_AVAILABLE_STRENGTH attribute: each
 * "number unit[/unit]" of the name ("Acetaminophen 325 MG / Oxycodone Hydrochloride 5 MG Oral Tablet" →
 * "325 MG / 5 MG").
 */
export function strengthInName(name: string): string {
  const parts = name.match(/\b\d+(?:\.\d+)?\s(?:MG|MCG|UNT|MEQ|MMOL|%)(?:\/[A-Z]+)?(?![A-Za-z])/g);
  return parts ? parts.join(' / ') : '';
}
