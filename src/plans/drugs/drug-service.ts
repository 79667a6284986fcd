import type { DrugRecord, DrugStore } from '../store/drugs.js';
import { drugCoverage, flatIds, type DrugCoverage, type FormularyFacts } from './coverage.js';
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

/** Issuer–drug listings kept while the data version stays: this many, the most recently read. */
const LISTINGS_KEPT = 20_000;

/**
 * The plans listing each drug, for the issuers asked: read from the store once per (year, issuer, drug)
 * and data version, then from memory (a popular drug is asked about for the same plans again and again).
 */
function createListingCache(store: DrugStore) {
  let version = '';
  const kept = new Map<string, Set<string>>();
  return {
    async of(year: number, issuers: string[], rxcuis: string[], current: string) {
      if (current !== version || current === '') {
        kept.clear();
        version = current;
      }
      const listed = new Map<string, Set<string>>();
      // The kept sets are shared: a drug listed by two issuers gets a set of its own.
      const merged = new Set<Set<string>>();
      const add = (rxcui: string, plans: Set<string>) => {
        const all = listed.get(rxcui);
        if (!all) return void listed.set(rxcui, plans);
        const own = merged.has(all) ? all : new Set(all);
        merged.add(own);
        for (const plan of plans) own.add(plan);
        listed.set(rxcui, own);
      };
      const missing: [string, string][] = [];
      for (const issuer of issuers) {
        for (const rxcui of rxcuis) {
          const plans = kept.get(`${year}:${issuer}:${rxcui}`);
          if (plans) add(rxcui, plans);
          else missing.push([issuer, rxcui]);
        }
      }
      if (missing.length === 0) return listed;
      const rows = await store.issuerListings(
        year,
        [...new Set(missing.map(([issuer]) => issuer))],
        [...new Set(missing.map(([, rxcui]) => rxcui))],
      );
      const found = new Map(
        rows.map((r) => [`${year}:${r.issuerId}:${r.rxcui}`, new Set(flatIds(r.planIds))]),
      );
      for (const [issuer, rxcui] of missing) {
        const key = `${year}:${issuer}:${rxcui}`;
        // An issuer that does not list the drug is kept too (as no plans), so it is not asked again.
        const plans = found.get(key) ?? new Set<string>();
        if (kept.size >= LISTINGS_KEPT) kept.delete(kept.keys().next().value!);
        kept.set(key, plans);
        if (plans.size > 0) add(rxcui, plans);
      }
      return listed;
    },
  };
}

/**
 * Whether each RxCUI is an RxNorm drug and its generic ('' when it has none; absent: not a drug), read
 * once per data version.
 */
function createGenericCache(store: DrugStore) {
  let version = '';
  const kept = new Map<string, string | null>();
  return {
    async of(rxcuis: string[], current: string): Promise<Map<string, string>> {
      if (current !== version || current === '') {
        kept.clear();
        version = current;
      }
      const missing = rxcuis.filter((r) => !kept.has(r));
      if (missing.length > 0) {
        const found = new Map((await store.findDrugs(missing)).map((d) => [d.rxcui, d.genericRxcui ?? '']));
        for (const rxcui of missing) {
          if (kept.size >= LISTINGS_KEPT) kept.delete(kept.keys().next().value!);
          kept.set(rxcui, found.get(rxcui) ?? null);
        }
      }
      const answer = new Map<string, string>();
      for (const rxcui of rxcuis) {
        const generic = kept.get(rxcui);
        if (generic !== null && generic !== undefined) answer.set(rxcui, generic);
      }
      return answer;
    },
  };
}

/** Drug lookups and formulary coverage, over the drug store. */
export function createDrugService(store: DrugStore) {
  // Per year: the plans that published a formulary, and the data version they were read at.
  const published = new Map<number, { version: string; plans: Promise<Set<string>> }>();
  const publishedIn = (year: number, version: string) => {
    const kept = published.get(year);
    if (kept && kept.version === version && version !== '') return kept.plans;
    const plans = store.publishedFormularies(year);
    published.set(year, { version, plans });
    plans.catch(() => published.delete(year));
    return plans;
  };
  const listings = createListingCache(store);
  const drugsKnown = createGenericCache(store);
  return {
    /** Drugs whose name has a word starting with each word of `q` (shortest names first). */
    async search(q: string, limit: number, offset = 0): Promise<Drug[]> {
      const words = wordsOf(q);
      if (words.length === 0) return [];
      return (await store.searchDrugs(words, limit, offset)).map(drugOf);
    },

    /**
     * What decides the coverage of each drug by each plan. Returns the RxCUIs that are neither RxNorm
     * drugs nor listed by any formulary of the year, when there are any, instead (the caller answers
     * 1014). `version` names the loaded data (the plans that published a formulary are kept per year
     * while it stays the same).
     */
    async coverageFacts(
      year: number,
      rxcuis: string[],
      planIds: string[],
      version: string,
    ): Promise<FormularyFacts | { unknown: string[] }> {
      const generics = await drugsKnown.of(rxcuis, version);
      const genericOf = new Map<string, string>();
      for (const rxcui of rxcuis) {
        const generic = generics.get(rxcui);
        if (generic) genericOf.set(rxcui, generic);
      }
      const missing = rxcuis.filter((r) => generics.get(r) === undefined);
      if (missing.length > 0) {
        const listed = await store.formularyRxcuis(year, missing);
        const unknown = missing.filter((r) => !listed.has(r));
        if (unknown.length > 0) return { unknown };
      }
      const published = await publishedIn(year, version);
      const asked = [...new Set([...rxcuis, ...genericOf.values()])];
      const issuers = [...new Set(planIds.filter((id) => published.has(id)).map((id) => id.slice(0, 5)))];
      return { published, listed: await listings.of(year, issuers, asked, version), genericOf };
    },

    /** Coverage of each drug by each plan (or the unknown RxCUIs, as `coverageFacts`). */
    async covered(
      year: number,
      rxcuis: string[],
      planIds: string[],
      version = '',
    ): Promise<{ coverage: DrugCoverage[] } | { unknown: string[] }> {
      const facts = await this.coverageFacts(year, rxcuis, planIds, version);
      return 'unknown' in facts ? facts : { coverage: drugCoverage(rxcuis, planIds, facts) };
    },
  };
}

export type DrugService = ReturnType<typeof createDrugService>;
