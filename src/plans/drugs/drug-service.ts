import type { DrugRecord, DrugStore } from '../store/drugs.js';
import { drugCoverage, type DrugCoverage } from './coverage.js';
import { wordsOf } from './words.js';

/** The CMS document's Drug (definitions/Drug); fields RxNorm gave no value for are left out. */
export interface Drug {
  id: string;
  name: string;
  rxcui: string;
  strength?: string;
  route?: string;
  full_name?: string;
  rxterms_dose_form?: string;
  rxnorm_dose_form?: string;
}

export function drugOf(record: DrugRecord): Drug {
  const drug: Drug = { id: record.rxcui, name: record.name, rxcui: record.rxcui };
  if (record.strength) drug.strength = record.strength;
  if (record.route) drug.route = record.route;
  if (record.fullName) drug.full_name = record.fullName;
  if (record.rxtermsDoseForm) drug.rxterms_dose_form = record.rxtermsDoseForm;
  if (record.rxnormDoseForm) drug.rxnorm_dose_form = record.rxnormDoseForm;
  return drug;
}

/** Drug lookups and formulary coverage, over the drug store. */
export function createDrugService(store: DrugStore) {
  return {
    /** Drugs whose name has a word starting with each word of `q` (shortest names first). */
    async search(q: string, limit: number, offset = 0): Promise<Drug[]> {
      const words = wordsOf(q);
      if (words.length === 0) return [];
      return (await store.searchDrugs(words, limit, offset)).map(drugOf);
    },

    /**
     * Coverage of each drug by each plan. Returns the RxCUIs that are neither RxNorm drugs nor listed
     * by any formulary of the year, when there are any, instead (the caller answers 1014).
     */
    async covered(
      year: number,
      rxcuis: string[],
      planIds: string[],
    ): Promise<{ coverage: DrugCoverage[] } | { unknown: string[] }> {
      const known = await store.findDrugs(rxcuis);
      const genericOf = new Map<string, string>();
      for (const drug of known) if (drug.genericRxcui) genericOf.set(drug.rxcui, drug.genericRxcui);
      const inRxnorm = new Set(known.map((d) => d.rxcui));
      const missing = rxcuis.filter((r) => !inRxnorm.has(r));
      if (missing.length > 0) {
        const listed = await store.formularyRxcuis(year, missing);
        const unknown = missing.filter((r) => !listed.has(r));
        if (unknown.length > 0) return { unknown };
      }
      const formularies = await store.findFormularies(year, planIds);
      const published = new Set(formularies.filter((f) => f.drugs > 0).map((f) => f.planId));
      const asked = [...new Set([...rxcuis, ...genericOf.values()])];
      const listed = await store.listedDrugs(year, [...published], asked);
      return { coverage: drugCoverage(rxcuis, planIds, { published, listed, genericOf }) };
    },
  };
}

export type DrugService = ReturnType<typeof createDrugService>;
